/// One row of `Z_PRIMARYKEY` as Core Data writes it when it creates a store.
public struct PrimaryKeyRow: Sendable, Hashable {
  /// `Z_ENT`: the entity number.
  public let entityNumber: Int
  /// `Z_NAME`: the entity name.
  public let name: String
  /// `Z_SUPER`: the parent entity's number, 0 for a root entity.
  public let superEntityNumber: Int
  /// `Z_MAX`: the highest `Z_PK` handed out; 0 in a new store. Core Data keeps one counter per
  /// hierarchy (primary keys are unique within a root table) but stores it in every row.
  public let maximumPrimaryKey: Int

  /// Describes a row.
  public init(entityNumber: Int, name: String, superEntityNumber: Int, maximumPrimaryKey: Int = 0) {
    self.entityNumber = entityNumber
    self.name = name
    self.superEntityNumber = superEntityNumber
    self.maximumPrimaryKey = maximumPrimaryKey
  }
}
