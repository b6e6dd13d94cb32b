import DataModel

/// An entity–relationship diagram of a model version, or of a step between two versions with
/// what was added, removed and changed marked: the data behind the Mermaid and DOT renderings.
///
/// Entities appear in file order with their own attributes (inherited ones show through the
/// inheritance link); each relationship and its inverse make one link. Removed entities and
/// properties of a step follow the newer version's, so the same input always gives the same
/// diagram.
public struct EntityDiagram: Sendable, Hashable {
  /// How a part of a step's diagram changed.
  public enum Mark: String, Sendable, Hashable {
    case unchanged, added, removed, changed
  }

  /// An attribute row of an entity.
  public struct Attribute: Sendable, Hashable {
    public var name: String
    /// The attribute type as the model file spells it (`Integer 16`).
    public var type: String
    public var isOptional: Bool
    public var isTransient: Bool
    public var mark: Mark
    /// What changed, for a changed attribute (`renamed from 'title'`).
    public var note: String?
  }

  /// An entity box.
  public struct Entity: Sendable, Hashable {
    public var name: String
    public var isAbstract: Bool
    /// The parent entity, drawn as an inheritance link.
    public var parent: String?
    public var mark: Mark
    public var attributes: [Attribute]
  }

  /// A relationship and its inverse, drawn once.
  public struct Link: Sendable, Hashable {
    /// The entity holding ``name``.
    public var from: String
    /// The destination entity.
    public var to: String
    /// The relationship's name.
    public var name: String
    /// The inverse's name, when there is one.
    public var inverseName: String?
    /// How many destination objects one source object has (`0..1`, `1`, `0..*`, `1..5`).
    public var cardinality: String
    /// How many source objects one destination object has, through the inverse.
    public var inverseCardinality: String?
    public var mark: Mark
  }

  /// What the diagram shows: a version's name, or `Tasks 2 → Tasks 3`.
  public var title: String
  public var entities: [Entity]
  public var links: [Link]

  // MARK: - One version

  /// The diagram of one version.
  public init(version: ModelVersion) {
    title = version.name
    entities = version.entities.map { entity in
      Entity(
        name: entity.name, isAbstract: entity.isAbstract, parent: entity.parentEntityName, mark: .unchanged,
        attributes: entity.attributes.map { Self.attribute($0, mark: .unchanged) })
    }
    links = Self.links(of: version) { _, _ in .unchanged }
  }

  private static func attribute(_ attribute: AttributeDescription, mark: Mark, note: String? = nil) -> Attribute {
    Attribute(
      name: attribute.name, type: attribute.attributeType.rawValue, isOptional: attribute.isOptional,
      isTransient: attribute.isTransient, mark: mark, note: note)
  }

  static func cardinality(_ relationship: RelationshipDescription) -> String {
    if !relationship.isToMany { return relationship.isOptional ? "0..1" : "1" }
    let minimum = relationship.isOptional ? 0 : max(relationship.minCount, 1)
    let maximum = relationship.maxCount == 0 ? "*" : String(relationship.maxCount)
    return "\(minimum)..\(maximum)"
  }

  /// One link per relationship pair: a relationship with an inverse is drawn from the one
  /// declared first (entity order, then file order).
  private static func links(of version: ModelVersion, mark: (String, String) -> Mark) -> [Link] {
    var links: [Link] = []
    var drawn = Set<[String]>()
    for entity in version.entities {
      for relationship in entity.relationships {
        guard drawn.insert([entity.name, relationship.name]).inserted else { continue }
        var inverse: RelationshipDescription?
        if let inverseID = relationship.inverse {
          let candidate = version[inverseID]
          inverse = candidate
          drawn.insert([version[inverseID.entity].name, candidate.name])
        }
        var linkMark = mark(entity.name, relationship.name)
        if linkMark == .unchanged, let inverse, let inverseEntity = relationship.inverse?.entity {
          linkMark = mark(version[inverseEntity].name, inverse.name)
        }
        links.append(
          Link(
            from: entity.name, to: relationship.destinationEntityName, name: relationship.name,
            inverseName: inverse?.name, cardinality: cardinality(relationship),
            inverseCardinality: inverse.map(cardinality), mark: linkMark))
      }
    }
    return links
  }

  // MARK: - A step

  /// The diagram of a step: the newer version's entities and properties, marked added or
  /// changed, and the older version's removed ones, marked removed.
  public init(from source: ModelVersion, to destination: ModelVersion) {
    title = "\(source.name) → \(destination.name)"
    let diff = ModelDiff(from: source, to: destination)
    var changesByEntity: [String: [SchemaChange]] = [:]
    for entityDiff in diff.entities {
      changesByEntity[entityDiff.displayName, default: []] += entityDiff.changes
    }
    func propertyChanges(_ entity: String, _ property: String) -> [SchemaChange] {
      (changesByEntity[entity] ?? []).filter { $0.property == property }
    }
    var entities: [Entity] = []
    for entity in destination.entities {
      let entityDiff = diff.entities.first { $0.destinationEntity == entity.name }
      let isAdded = entityDiff?.sourceEntity == nil
      var attributes: [Attribute] = []
      for attribute in entity.attributes {
        let changes = propertyChanges(entity.name, attribute.name)
        if isAdded || changes.contains(where: { $0.kind == .attributeAdded }) {
          attributes.append(Self.attribute(attribute, mark: .added))
        } else if !changes.isEmpty {
          attributes.append(
            Self.attribute(attribute, mark: .changed, note: changes.map(\.detail).joined(separator: "; ")))
        } else {
          attributes.append(Self.attribute(attribute, mark: .unchanged))
        }
      }
      if let sourceName = entityDiff?.sourceEntity, let sourceEntity = source.entity(named: sourceName) {
        let removed = Set(
          (entityDiff?.changes ?? []).filter { $0.kind == .attributeRemoved }.compactMap(\.property))
        for attribute in sourceEntity.attributes where removed.contains(attribute.name) {
          attributes.append(Self.attribute(attribute, mark: .removed))
        }
      }
      let entityLevel = (entityDiff?.changes ?? []).filter { $0.property == nil }
      let mark: Mark =
        isAdded
        ? .added
        : (!entityLevel.isEmpty || attributes.contains { $0.mark != .unchanged }
          || (entityDiff?.changes ?? []).contains { $0.property != nil }) ? .changed : .unchanged
      entities.append(
        Entity(
          name: entity.name, isAbstract: entity.isAbstract, parent: entity.parentEntityName, mark: mark,
          attributes: attributes))
    }
    for entityDiff in diff.entities where entityDiff.destinationEntity == nil {
      guard let name = entityDiff.sourceEntity, let entity = source.entity(named: name) else { continue }
      entities.append(
        Entity(
          name: entity.name, isAbstract: entity.isAbstract, parent: entity.parentEntityName, mark: .removed,
          attributes: entity.attributes.map { Self.attribute($0, mark: .removed) }))
    }
    self.entities = entities
    let addedEntities = Set(diff.entities.filter { $0.sourceEntity == nil }.compactMap(\.destinationEntity))
    var links = Self.links(of: destination) { entity, property in
      if addedEntities.contains(entity) { return .added }
      let changes = propertyChanges(entity, property).filter {
        $0.kind != .attributeAdded && $0.kind != .attributeRemoved
      }
      if changes.contains(where: { $0.kind == .relationshipAdded }) { return .added }
      return changes.isEmpty ? .unchanged : .changed
    }
    // Relationships the newer version no longer has.
    let removedEntities = Set(diff.entities.filter { $0.destinationEntity == nil }.compactMap(\.sourceEntity))
    var removedPairs = Set<[String]>()
    for entityDiff in diff.entities {
      guard let sourceName = entityDiff.sourceEntity else { continue }
      for change in entityDiff.changes where change.kind == .relationshipRemoved {
        if let property = change.property { removedPairs.insert([sourceName, property]) }
      }
      if removedEntities.contains(sourceName), let entity = source.entity(named: sourceName) {
        for relationship in entity.relationships { removedPairs.insert([sourceName, relationship.name]) }
      }
    }
    let sourceLinks = Self.links(of: source) { entity, property in
      removedPairs.contains([entity, property]) ? .removed : .unchanged
    }
    for link in sourceLinks where link.mark == .removed {
      // A pair whose other half survives is already drawn from the newer version.
      let survives = links.contains {
        ($0.from == link.from && $0.name == link.name)
          || (link.inverseName != nil && $0.from == link.to && $0.name == link.inverseName)
      }
      if !survives { links.append(link) }
    }
    self.links = links
  }
}
