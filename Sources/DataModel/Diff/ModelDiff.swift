/// What changed between two versions of a model, entity by entity and property by property.
///
/// Entities and properties are matched across versions the way Core Data's lightweight migration
/// matches them: by version identity (the renaming identifier when set, else the name), then by
/// equal names, then by a destination renaming identifier equal to the source name. Renaming
/// identifiers are canonical, so a property renamed twice (`a` → `b` → `c`, each keeping
/// `elementID="a"`) still matches from the first version to the last.
///
/// The diff is the base of migration inference and of CI checks of schema changes; each change
/// says whether it alters the version hash (so stores need migrating) and whether applying it
/// can lose data.
public struct ModelDiff: Sendable, Hashable {
  /// The older version's name.
  public var sourceVersion: String
  /// The newer version's name.
  public var destinationVersion: String
  /// One entry per entity of either version, in destination order then removed source entities.
  public var entities: [EntityDiff]

  /// Compares two versions.
  public init(from source: ModelVersion, to destination: ModelVersion) {
    self.sourceVersion = source.name
    self.destinationVersion = destination.name
    self.entities = ModelDiffer(source: source, destination: destination).entityDiffs()
  }

  /// Whether the two versions have the same version hashes, so a store of one opens with the other.
  public var isHashCompatible: Bool {
    entities.allSatisfy { !$0.changesHash }
  }

  /// Every change, flattened, in order.
  public var allChanges: [SchemaChange] { entities.flatMap(\.changes) }
}

/// How one entity differs between two versions.
public struct EntityDiff: Sendable, Hashable {
  /// The entity in the older version; nil when it was added.
  public var sourceEntity: String?
  /// The entity in the newer version; nil when it was removed.
  public var destinationEntity: String?
  /// What changed, entity-level changes first.
  public var changes: [SchemaChange]
  /// Whether the entity's version hash differs.
  public var changesHash: Bool

  /// The name to show: the newer name, else the older.
  public var displayName: String { destinationEntity ?? sourceEntity ?? "" }
}

/// One change between two versions of a model.
public struct SchemaChange: Sendable, Hashable, CustomStringConvertible {
  /// The kinds of change.
  public enum Kind: String, Sendable, Hashable, Codable {
    case entityAdded, entityRemoved, entityRenamed
    case parentChanged, abstractChanged, entityHashModifierChanged
    case uniquenessConstraintsChanged, fetchIndexesChanged, entityClassChanged, entityUserInfoChanged
    case attributeAdded, attributeRemoved, attributeRenamed, attributeTypeChanged
    case attributeMadeOptional, attributeMadeRequired, attributeMadeTransient, attributeMadePersistent
    case attributeMovedInHierarchy
    case defaultValueChanged, validationChanged, externalStorageChanged, preserveAfterDeletionChanged
    case propertyHashModifierChanged, transformerChanged, derivationChanged, attributeDetailsChanged
    case relationshipAdded, relationshipRemoved, relationshipRenamed, destinationChanged, inverseChanged
    case toOneBecameToMany, toManyBecameToOne, orderingChanged, countChanged, deletionRuleChanged
    case relationshipMadeOptional, relationshipMadeRequired, relationshipMadeTransient, relationshipMadePersistent
    case relationshipMovedInHierarchy
  }

  /// What changed.
  public var kind: Kind
  /// The entity (its newer name when it exists in the newer version).
  public var entity: String
  /// The property concerned, by its newer name (older name for removals).
  public var property: String?
  /// A sentence describing the change (`attribute 'notes' added (String, optional)`).
  public var detail: String
  /// Whether the change alters a version hash.
  public var changesHash: Bool
  /// Whether applying the change can lose stored data.
  public var losesData: Bool

  public var description: String {
    "\(entity)\(property.map { ".\($0)" } ?? ""): \(detail)"
  }
}
