import DataModel

/// Where a to-one relationship is stored: columns in the source entity's root table.
///
/// - ``foreignKeyColumn`` (`ZPROJECT`) holds the destination's `Z_PK`, or NULL.
/// - ``entityColumn`` (`Z3_PROJECT`, the number being the destination entity's) holds the
///   destination's `Z_ENT`; present only when the destination entity has sub-entities.
/// - ``orderColumn`` (`Z_FOK_PROJECT`) holds this object's ordering key in the inverse ordered
///   to-many; present only when the inverse is an ordered to-many.
public struct ToOneColumns: Sendable, Hashable {
  /// The relationship's name.
  public let name: String
  /// The relationship as declared (on this entity or an ancestor).
  public let relationship: RelationshipID
  /// The destination entity.
  public let destination: EntityID
  /// The table holding the columns (the source's root table).
  public let table: String
  /// The foreign-key column.
  public let foreignKeyColumn: String
  /// The destination entity-number column, when the destination has sub-entities.
  public let entityColumn: String?
  /// The ordering-key column, when the inverse is an ordered to-many.
  public let orderColumn: String?

  /// Describes a to-one relationship's columns.
  public init(
    name: String, relationship: RelationshipID, destination: EntityID, table: String, foreignKeyColumn: String,
    entityColumn: String?, orderColumn: String?
  ) {
    self.name = name
    self.relationship = relationship
    self.destination = destination
    self.table = table
    self.foreignKeyColumn = foreignKeyColumn
    self.entityColumn = entityColumn
    self.orderColumn = orderColumn
  }
}
