/// One version of a data model: the contents of one `.xcdatamodel` (its `contents` file).
///
/// Building a version resolves every reference by name — parents, sub-entities, relationship
/// destinations and inverses — into IDs, so callers follow them with `model[id]`. References that
/// do not resolve stay nil; ``ModelValidator`` reports them.
public struct ModelVersion: Sendable, Hashable, Codable {
  /// The version's name: the `.xcdatamodel` directory name without extension (`Tasks 2`).
  public var name: String
  /// The path of the `contents` file the version was read from, when read from disk.
  public var sourcePath: String?

  /// `type` of `<model>` (always `com.apple.IDECoreDataModeler.DataModel` in Xcode's files).
  public var documentType: String?
  /// `documentVersion` (`1.0`).
  public var documentVersion: String?
  /// `lastSavedToolsVersion`: the Xcode build that last saved the file.
  public var lastSavedToolsVersion: String?
  /// `systemVersion`: the macOS build that last saved the file.
  public var systemVersion: String?
  /// `minimumToolsVersion` (`Automatic`, `Xcode 4.3`, …).
  public var minimumToolsVersion: String?
  /// `sourceLanguage` (`Swift` or `Objective-C`).
  public var sourceLanguage: String?
  /// `userDefinedModelVersionIdentifier`: free text that Core Data copies into store metadata.
  public var versionIdentifier: String?
  /// `usedWithCloudKit`, when written.
  public var usedWithCloudKit: Bool?
  /// `usedWithSwiftData`, when written.
  public var usedWithSwiftData: Bool?
  /// Legacy attributes of `<model>` (`name`, `macOSVersion`, `iOSVersion`) and any other this
  /// reader does not know, verbatim.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements of `<model>` this reader does not know.
  public var unknownElements: [UnknownElement]

  /// The entities, in file order. Their ``EntityDescription/id`` is their index here.
  public private(set) var entities: [EntityDescription]
  /// Composite types (`<composite>`).
  public var composites: [CompositeDescription]
  /// Model-level fetch request templates.
  public var fetchRequests: [FetchRequestTemplate]
  /// Named configurations (the implicit Default configuration is not listed).
  public var configurations: [ConfigurationDescription]

  private var entityIndexByName: [String: Int]

  /// Assembles a version from its parts and resolves references.
  public init(
    name: String, entities: [EntityDescription], composites: [CompositeDescription] = [],
    fetchRequests: [FetchRequestTemplate] = [], configurations: [ConfigurationDescription] = [],
    sourcePath: String? = nil
  ) {
    self.name = name
    self.sourcePath = sourcePath
    self.unknownAttributes = []
    self.unknownElements = []
    self.entities = entities
    self.composites = composites
    self.fetchRequests = fetchRequests
    self.configurations = configurations
    self.entityIndexByName = [:]
    resolveReferences()
  }

  /// Replaces the entities and resolves references again.
  public mutating func setEntities(_ entities: [EntityDescription]) {
    self.entities = entities
    resolveReferences()
  }

  /// Changes one entity in place and resolves references again.
  public mutating func updateEntity(_ id: EntityID, _ change: (inout EntityDescription) -> Void) {
    change(&entities[id.index])
    resolveReferences()
  }

  private mutating func resolveReferences() {
    var index: [String: Int] = [:]
    index.reserveCapacity(entities.count)
    for (position, entity) in entities.enumerated() where index[entity.name] == nil {
      index[entity.name] = position
    }
    entityIndexByName = index
    for position in entities.indices {
      entities[position].id = EntityID(position)
      entities[position].subentities = []
      entities[position].parent = entities[position].parentEntityName.flatMap { index[$0] }.map(EntityID.init)
    }
    for position in entities.indices {
      if let parent = entities[position].parent, parent.index != position {
        entities[parent.index].subentities.append(EntityID(position))
      }
    }
    for position in entities.indices {
      for relationshipIndex in entities[position].relationships.indices {
        let relationship = entities[position].relationships[relationshipIndex]
        let destination = index[relationship.destinationEntityName].map(EntityID.init)
        entities[position].relationships[relationshipIndex].destination = destination
        var inverse: RelationshipID?
        if let inverseName = relationship.inverseName {
          let inverseEntityName = relationship.inverseEntityName ?? relationship.destinationEntityName
          if let inverseEntity = index[inverseEntityName] {
            inverse = findRelationship(named: inverseName, from: EntityID(inverseEntity))
          }
        }
        entities[position].relationships[relationshipIndex].inverse = inverse
      }
    }
  }

  /// Finds a relationship by name on an entity or its ancestors.
  private func findRelationship(named name: String, from start: EntityID) -> RelationshipID? {
    var current: EntityID? = start
    var visited = Set<Int>()
    while let id = current, visited.insert(id.index).inserted {
      if let index = entities[id.index].relationships.firstIndex(where: { $0.name == name }) {
        return RelationshipID(entity: id, index: index)
      }
      current = entities[id.index].parent
    }
    return nil
  }

  // MARK: - Lookup

  /// The entity with this ID.
  public subscript(id: EntityID) -> EntityDescription { entities[id.index] }

  /// The relationship with this ID.
  public subscript(id: RelationshipID) -> RelationshipDescription {
    entities[id.entity.index].relationships[id.index]
  }

  /// The attribute with this ID.
  public subscript(id: AttributeID) -> AttributeDescription {
    entities[id.entity.index].attributes[id.index]
  }

  /// The entity with this name.
  public func entity(named name: String) -> EntityDescription? {
    entityIndexByName[name].map { entities[$0] }
  }

  /// The ID of the entity with this name.
  public func entityID(named name: String) -> EntityID? {
    entityIndexByName[name].map(EntityID.init)
  }

  /// The composite type with this name.
  public func composite(named name: String) -> CompositeDescription? {
    composites.first { $0.name == name }
  }

  // MARK: - Hierarchy

  /// The entity's ancestors, nearest first. Stops at a cycle (which validation reports).
  public func ancestors(of id: EntityID) -> [EntityID] {
    var result: [EntityID] = []
    var visited: Set<Int> = [id.index]
    var current = entities[id.index].parent
    while let parent = current, visited.insert(parent.index).inserted {
      result.append(parent)
      current = entities[parent.index].parent
    }
    return result
  }

  /// The root of the entity's inheritance hierarchy (the entity itself when it has no parent).
  public func root(of id: EntityID) -> EntityID {
    ancestors(of: id).last ?? id
  }

  /// All sub-entities below the entity, depth first, in ``entities`` order at each level.
  public func descendants(of id: EntityID) -> [EntityID] {
    var result: [EntityID] = []
    var visited: Set<Int> = [id.index]
    func walk(_ entity: EntityID) {
      for child in entities[entity.index].subentities where visited.insert(child.index).inserted {
        result.append(child)
        walk(child)
      }
    }
    walk(id)
    return result
  }

  /// Whether `id` is `ancestor` or one of its sub-entities.
  public func entity(_ id: EntityID, isKindOf ancestor: EntityID) -> Bool {
    id == ancestor || ancestors(of: id).contains(ancestor)
  }

  // MARK: - Properties including inherited ones

  /// Every attribute of the entity, inherited ones first (root first), each name once: an own
  /// attribute replaces an inherited one of the same name.
  public func allAttributes(of id: EntityID) -> [AttributeDescription] {
    var result: [AttributeDescription] = []
    var positions: [String: Int] = [:]
    for entity in (ancestors(of: id).reversed() + [id]) {
      for attribute in entities[entity.index].attributes {
        if let position = positions[attribute.name] {
          result[position] = attribute
        } else {
          positions[attribute.name] = result.count
          result.append(attribute)
        }
      }
    }
    return result
  }

  /// Every relationship of the entity with its ID, inherited ones first, each name once.
  public func allRelationships(of id: EntityID) -> [(id: RelationshipID, relationship: RelationshipDescription)] {
    var result: [(id: RelationshipID, relationship: RelationshipDescription)] = []
    var positions: [String: Int] = [:]
    for entity in (ancestors(of: id).reversed() + [id]) {
      for (index, relationship) in entities[entity.index].relationships.enumerated() {
        let element = (id: RelationshipID(entity: entity, index: index), relationship: relationship)
        if let position = positions[relationship.name] {
          result[position] = element
        } else {
          positions[relationship.name] = result.count
          result.append(element)
        }
      }
    }
    return result
  }

  /// The attribute with this name on the entity or an ancestor.
  public func attribute(named name: String, in id: EntityID) -> AttributeDescription? {
    for entity in [id] + ancestors(of: id) {
      if let attribute = entities[entity.index].attribute(named: name) { return attribute }
    }
    return nil
  }

  /// The relationship with this name on the entity or an ancestor, with its ID.
  public func relationship(named name: String, in id: EntityID) -> (
    id: RelationshipID, relationship: RelationshipDescription
  )? {
    guard let relationshipID = findRelationship(named: name, from: id) else { return nil }
    return (relationshipID, self[relationshipID])
  }

  /// Entity IDs in Core Data's ordinal name order (byte order of the names), the order hashes
  /// and digests use.
  public var entityIDsByName: [EntityID] {
    entities.indices.map(EntityID.init).sorted {
      entities[$0.index].name.utf8.lexicographicallyPrecedes(entities[$1.index].name.utf8)
    }
  }
}
