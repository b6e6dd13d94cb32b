import DataModel
import Foundation
import Persistence

/// How to turn a store of one model version into a store of another: what the migration engine
/// executes.
///
/// It mirrors Core Data's `NSMappingModel`: one entity mapping per destination entity (plus
/// removals), each with property mappings whose values are expressions over the source object.
/// Lightweight inference produces one (``LightweightInference``); mapping files for heavyweight
/// migrations load into the same type, so the engine has a single input. The version hashes of
/// both ends are kept so that a mapping can be matched to a store and to a model and refused
/// when either was edited after the mapping was written.
public struct MappingModel: Sendable, Hashable, Codable {
  /// The source version's name.
  public var sourceVersion: String
  /// The destination version's name.
  public var destinationVersion: String
  /// The source version's entity hashes (entity name → 32 bytes).
  public var sourceEntityHashes: [String: Data]
  /// The destination version's entity hashes.
  public var destinationEntityHashes: [String: Data]
  /// The entity mappings, in the order they run.
  public var entityMappings: [EntityMapping]
  /// Whether the mapping was inferred (lightweight) rather than written by hand.
  public var isInferred: Bool

  public init(
    sourceVersion: String, destinationVersion: String, sourceEntityHashes: [String: Data],
    destinationEntityHashes: [String: Data], entityMappings: [EntityMapping], isInferred: Bool
  ) {
    self.sourceVersion = sourceVersion
    self.destinationVersion = destinationVersion
    self.sourceEntityHashes = sourceEntityHashes
    self.destinationEntityHashes = destinationEntityHashes
    self.entityMappings = entityMappings
    self.isInferred = isInferred
  }

  /// The entity mapping with this name.
  public func entityMapping(named name: String) -> EntityMapping? {
    entityMappings.first { $0.name == name }
  }

  /// The mapping whose destination is this entity.
  public func entityMapping(forDestination entity: String) -> EntityMapping? {
    entityMappings.first { $0.destinationEntity == entity }
  }

  /// How the objects of one entity move to the new version.
  public struct EntityMapping: Sendable, Hashable, Codable {
    /// What the mapping does, as Core Data's `NSEntityMappingType`.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
      /// A new entity: no source objects.
      case add
      /// A removed entity: its objects are deleted.
      case remove
      /// Same structure (possibly renamed): objects are copied as they are.
      case copy
      /// Objects are copied with property values computed by the property mappings.
      case transform
      /// A custom migration policy creates the destination objects (`NSCustomEntityMappingType`).
      case custom
      /// No type recorded (`NSUndefinedEntityMappingType`).
      case undefined

      /// Core Data's `NSEntityMappingType` number.
      public var typeCode: Int {
        switch self {
        case .undefined: 0
        case .custom: 1
        case .add: 2
        case .remove: 3
        case .copy: 4
        case .transform: 5
        }
      }

      /// The kind with Core Data's `NSEntityMappingType` number; nil for an unknown number.
      public init?(typeCode: Int) {
        guard let kind = Self.allCases.first(where: { $0.typeCode == typeCode }) else { return nil }
        self = kind
      }
    }

    /// The mapping's name, `SourceToDestination` by convention.
    public var name: String
    /// What the mapping does.
    public var kind: Kind
    /// The source entity; nil for ``Kind/add``.
    public var sourceEntity: String?
    /// The destination entity; nil for ``Kind/remove``.
    public var destinationEntity: String?
    /// A predicate in NSPredicate format selecting which source objects migrate (all when nil).
    public var sourceFilter: String?
    /// The expression that fetches the source objects (Core Data's `sourceExpression`, a
    /// `FETCH(…)` of the source entity filtered by ``sourceFilter``); nil for an add mapping and
    /// for inferred mappings, whose source is the whole entity.
    public var sourceExpression: MappingExpression?
    /// One mapping per destination attribute.
    public var attributeMappings: [PropertyMapping]
    /// One mapping per destination relationship.
    public var relationshipMappings: [PropertyMapping]
    /// The class name of the custom migration policy, as written in the mapping model (often
    /// with a module prefix such as `MyApp.` or `REPLACE_AT_RUNTIME.`); nil for the default.
    public var policyClassName: String?
    /// The mapping's user info: the keys and values set in Xcode's mapping editor.
    public var userInfo: [String: String]
    /// The source entity's version hash the mapping was made for (compiled mappings record it;
    /// read from the model snapshot otherwise).
    public var sourceEntityVersionHash: Data?
    /// The destination entity's version hash the mapping was made for.
    public var destinationEntityVersionHash: Data?

    public init(
      name: String, kind: Kind, sourceEntity: String?, destinationEntity: String?, sourceFilter: String? = nil,
      sourceExpression: MappingExpression? = nil, attributeMappings: [PropertyMapping] = [],
      relationshipMappings: [PropertyMapping] = [], policyClassName: String? = nil, userInfo: [String: String] = [:],
      sourceEntityVersionHash: Data? = nil, destinationEntityVersionHash: Data? = nil
    ) {
      self.name = name
      self.kind = kind
      self.sourceEntity = sourceEntity
      self.destinationEntity = destinationEntity
      self.sourceFilter = sourceFilter
      self.sourceExpression = sourceExpression
      self.attributeMappings = attributeMappings
      self.relationshipMappings = relationshipMappings
      self.policyClassName = policyClassName
      self.userInfo = userInfo
      self.sourceEntityVersionHash = sourceEntityVersionHash
      self.destinationEntityVersionHash = destinationEntityVersionHash
    }

    /// The mapping of a destination property.
    public func propertyMapping(for destinationProperty: String) -> PropertyMapping? {
      attributeMappings.first { $0.destinationProperty == destinationProperty }
        ?? relationshipMappings.first { $0.destinationProperty == destinationProperty }
    }
  }

  /// The value of one destination property.
  public struct PropertyMapping: Sendable, Hashable, Codable {
    /// The destination property's name.
    public var destinationProperty: String
    /// The value; nil leaves the property at its default (an empty relationship, a nil or
    /// default attribute).
    public var value: MappingExpression?

    public init(destinationProperty: String, value: MappingExpression?) {
      self.destinationProperty = destinationProperty
      self.value = value
    }
  }
}
