import DataModel

/// Where one entity lives in a Core Data store: its entity number, its (root) table, and the
/// column of each persistent property, inherited ones included.
public struct EntityStoreLayout: Sendable, Hashable {
  /// The entity.
  public let entity: EntityID
  /// The entity's name (`Z_PRIMARYKEY.Z_NAME`).
  public let name: String
  /// `Z_ENT`: the entity number, from 1.
  public let entityNumber: Int
  /// `Z_SUPER`: the parent entity's number, 0 for a root entity.
  public let superEntityNumber: Int
  /// The root of the entity's hierarchy, whose table holds its rows.
  public let rootEntity: EntityID
  /// The table holding the entity's rows: `Z` + the root entity's uppercased name (`ZTASK`).
  public let tableName: String
  /// Whether the entity is abstract (no row has exactly this `Z_ENT`).
  public let isAbstract: Bool
  /// This entity's number followed by those of all its sub-entities, for `Z_ENT IN (…)`
  /// (a contiguous range, since numbering is a pre-order walk).
  public let entityNumbersInHierarchy: [Int]
  /// Every persistent attribute, inherited ones included, in column order.
  public let attributes: [AttributeColumn]
  /// Every persistent to-one relationship, inherited ones included, by name.
  public let toOneRelationships: [ToOneColumns]
  /// Every persistent to-many relationship, inherited ones included, by name.
  public let toManyRelationships: [ToManyMapping]

  /// Describes where an entity is stored.
  public init(
    entity: EntityID, name: String, entityNumber: Int, superEntityNumber: Int, rootEntity: EntityID,
    tableName: String, isAbstract: Bool, entityNumbersInHierarchy: [Int], attributes: [AttributeColumn],
    toOneRelationships: [ToOneColumns], toManyRelationships: [ToManyMapping]
  ) {
    self.entity = entity
    self.name = name
    self.entityNumber = entityNumber
    self.superEntityNumber = superEntityNumber
    self.rootEntity = rootEntity
    self.tableName = tableName
    self.isAbstract = isAbstract
    self.entityNumbersInHierarchy = entityNumbersInHierarchy
    self.attributes = attributes
    self.toOneRelationships = toOneRelationships
    self.toManyRelationships = toManyRelationships
  }

  /// Whether the entity is the root of its hierarchy (its table is named after it).
  public var isRoot: Bool { superEntityNumber == 0 }

  /// The column of the attribute with this name (or composite key path `address.street`).
  public func column(forAttribute name: String) -> AttributeColumn? {
    attributes.first { $0.name == name }
  }

  /// The columns of the to-one relationship with this name.
  public func toOne(named name: String) -> ToOneColumns? {
    toOneRelationships.first { $0.name == name }
  }

  /// The storage of the to-many relationship with this name.
  public func toMany(named name: String) -> ToManyMapping? {
    toManyRelationships.first { $0.name == name }
  }
}
