import DataModel

/// How a to-many relationship is stored.
///
/// A to-many whose inverse is a to-one has no storage of its own: its objects are the rows of
/// the destination table whose inverse foreign key names this object. Every other to-many — the
/// inverse is also to-many, or there is no inverse — is stored in a join table.
public struct ToManyMapping: Sendable, Hashable {
  /// The inverse to-one's columns in the destination's table.
  public struct InverseForeignKey: Sendable, Hashable {
    /// The destination's root table (`ZTASK`).
    public let table: String
    /// The inverse to-one's name (`project`).
    public let inverseName: String
    /// The foreign-key column holding this object's `Z_PK` (`ZPROJECT`).
    public let foreignKeyColumn: String
    /// The inverse's entity-number column, when this entity has sub-entities.
    public let entityColumn: String?
    /// The ordering-key column (`Z_FOK_PROJECT`), when this relationship is ordered.
    public let orderColumn: String?

    /// Describes the inverse foreign key.
    public init(
      table: String, inverseName: String, foreignKeyColumn: String, entityColumn: String?, orderColumn: String?
    ) {
      self.table = table
      self.inverseName = inverseName
      self.foreignKeyColumn = foreignKeyColumn
      self.entityColumn = entityColumn
      self.orderColumn = orderColumn
    }
  }

  /// The join-table columns, seen from this relationship.
  public struct JoinColumns: Sendable, Hashable {
    /// The join table (`Z_1FAVORITES`).
    public let table: String
    /// The column holding this object's `Z_PK`.
    public let sourceColumn: String
    /// The column holding the related object's `Z_PK`.
    public let destinationColumn: String
    /// The ordering-key column of this relationship, when it is ordered.
    public let orderColumn: String?

    /// Describes the join columns.
    public init(table: String, sourceColumn: String, destinationColumn: String, orderColumn: String?) {
      self.table = table
      self.sourceColumn = sourceColumn
      self.destinationColumn = destinationColumn
      self.orderColumn = orderColumn
    }
  }

  /// Where the relationship's links live.
  public enum Storage: Sendable, Hashable {
    /// Via the inverse to-one's foreign key in the destination table.
    case inverseForeignKey(InverseForeignKey)
    /// Via a join table.
    case joinTable(JoinColumns)
  }

  /// The relationship's name.
  public let name: String
  /// The relationship as declared (on this entity or an ancestor).
  public let relationship: RelationshipID
  /// The destination entity.
  public let destination: EntityID
  /// Whether the relationship is ordered.
  public let isOrdered: Bool
  /// Where the links live.
  public let storage: Storage

  /// Describes a to-many relationship's storage.
  public init(name: String, relationship: RelationshipID, destination: EntityID, isOrdered: Bool, storage: Storage) {
    self.name = name
    self.relationship = relationship
    self.destination = destination
    self.isOrdered = isOrdered
    self.storage = storage
  }
}
