import DataModel

/// A join table: the storage of one many-to-many pair, or of one to-many without an inverse.
///
/// The table is named after one relationship of the pair, its *owner*: `Z_<n><NAME>` with the
/// owner's declaring entity number and uppercased name (`Z_1FAVORITES`). Its two key columns are
/// each named after the relationship that points at the objects they hold, prefixed with that
/// relationship's destination entity number: ``sourceColumn`` holds the owner's source objects
/// (`Z_1FAVORITEFOLDERS`), ``destinationColumn`` the owner's destinations (`Z_1FAVORITES`).
public struct JoinTableMapping: Sendable, Hashable {
  /// The table name.
  public let name: String
  /// The relationship the table is named after.
  public let relationship: RelationshipID
  /// The owner's inverse; nil for a to-many without an inverse (and for a relationship that is
  /// its own inverse, see ``isReflexive``).
  public let inverse: RelationshipID?
  /// Whether the relationship is its own inverse (`friends` ⇄ `friends`).
  public let isReflexive: Bool
  /// The column holding the `Z_PK` of the owner's source objects.
  public let sourceColumn: String
  /// The column holding the `Z_PK` of the owner's destination objects.
  public let destinationColumn: String
  /// The ordering key of the inverse relationship (the position of a source object among the
  /// destination's related objects), when the inverse is ordered.
  public let sourceOrderColumn: String?
  /// The ordering key of the owner relationship, when it is ordered.
  public let destinationOrderColumn: String?
  /// The table's definition.
  public let table: TableDefinition
  /// The table's secondary index, on (destination, source).
  public let index: IndexDefinition

  /// Describes a join table.
  public init(
    name: String, relationship: RelationshipID, inverse: RelationshipID?, isReflexive: Bool, sourceColumn: String,
    destinationColumn: String, sourceOrderColumn: String?, destinationOrderColumn: String?, table: TableDefinition,
    index: IndexDefinition
  ) {
    self.name = name
    self.relationship = relationship
    self.inverse = inverse
    self.isReflexive = isReflexive
    self.sourceColumn = sourceColumn
    self.destinationColumn = destinationColumn
    self.sourceOrderColumn = sourceOrderColumn
    self.destinationOrderColumn = destinationOrderColumn
    self.table = table
    self.index = index
  }
}
