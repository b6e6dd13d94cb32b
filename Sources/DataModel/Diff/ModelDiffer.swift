/// Matches entities and properties across two versions and lists their differences.
package struct ModelDiffer {
  let source: ModelVersion
  let destination: ModelVersion
  let sourceHashes: VersionHashes
  let destinationHashes: VersionHashes

  package init(source: ModelVersion, destination: ModelVersion) {
    self.source = source
    self.destination = destination
    self.sourceHashes = source.versionHashes
    self.destinationHashes = destination.versionHashes
  }

  /// Pairs destination entities with source entities (destination index → source index).
  package func matchEntities() -> [Int: Int] {
    Self.match(
      sources: source.entities.map { ($0.name, $0.versionIdentity) },
      destinations: destination.entities.map { ($0.name, $0.versionIdentity, $0.renamingIdentifier) })
  }

  /// Matches by identity, then by equal names, then by a destination renaming identifier equal
  /// to a source name. Returns destination index → source index.
  package static func match(
    sources: [(name: String, identity: String)],
    destinations: [(name: String, identity: String, renamingIdentifier: String?)]
  )
    -> [Int: Int]
  {
    var result: [Int: Int] = [:]
    var usedSources = Set<Int>()
    var sourceByIdentity: [String: Int] = [:]
    var sourceByName: [String: Int] = [:]
    for (index, item) in sources.enumerated() {
      if sourceByIdentity[item.identity] == nil { sourceByIdentity[item.identity] = index }
      if sourceByName[item.name] == nil { sourceByName[item.name] = index }
    }
    // Pass 1: identity.
    for (index, item) in destinations.enumerated() {
      if let match = sourceByIdentity[item.identity], !usedSources.contains(match) {
        result[index] = match
        usedSources.insert(match)
      }
    }
    // Pass 2: same name.
    for (index, item) in destinations.enumerated() where result[index] == nil {
      if let match = sourceByName[item.name], !usedSources.contains(match) {
        result[index] = match
        usedSources.insert(match)
      }
    }
    // Pass 3: the destination's renaming identifier names the source.
    for (index, item) in destinations.enumerated() where result[index] == nil {
      if let renamed = item.renamingIdentifier, let match = sourceByName[renamed], !usedSources.contains(match) {
        result[index] = match
        usedSources.insert(match)
      }
    }
    return result
  }

  func entityDiffs() -> [EntityDiff] {
    let matches = matchEntities()
    var diffs: [EntityDiff] = []
    var matchedSources = Set<Int>()
    for (index, entity) in destination.entities.enumerated() {
      guard let sourceIndex = matches[index] else {
        let attributes = destination.allAttributes(of: entity.id).filter(\.isPersistent).count
        diffs.append(
          EntityDiff(
            sourceEntity: nil, destinationEntity: entity.name,
            changes: [
              SchemaChange(
                kind: .entityAdded, entity: entity.name, property: nil,
                detail: "entity added (\(attributes) attribute\(attributes == 1 ? "" : "s"))", changesHash: true,
                losesData: false)
            ], changesHash: true))
        continue
      }
      matchedSources.insert(sourceIndex)
      diffs.append(entityDiff(source: source.entities[sourceIndex], destination: entity))
    }
    for (index, entity) in source.entities.enumerated() where !matchedSources.contains(index) {
      diffs.append(
        EntityDiff(
          sourceEntity: entity.name, destinationEntity: nil,
          changes: [
            SchemaChange(
              kind: .entityRemoved, entity: entity.name, property: nil,
              detail: "entity removed; its objects are deleted",
              changesHash: true, losesData: true)
          ], changesHash: true))
    }
    return diffs
  }

  func entityDiff(source sourceEntity: EntityDescription, destination entity: EntityDescription) -> EntityDiff {
    var changes: [SchemaChange] = []
    let name = entity.name
    func add(_ kind: SchemaChange.Kind, _ property: String?, _ detail: String, hash: Bool, loses: Bool = false) {
      changes.append(
        SchemaChange(kind: kind, entity: name, property: property, detail: detail, changesHash: hash, losesData: loses))
    }
    if sourceEntity.name != entity.name {
      add(.entityRenamed, nil, "entity renamed from '\(sourceEntity.name)'", hash: true)
    }
    let sourceParent = sourceEntity.parent.map { source[$0].name }
    let destinationParent = entity.parent.map { destination[$0].name }
    if sourceParent != destinationParent {
      add(
        .parentChanged, nil,
        "parent entity changed from \(sourceParent.map { "'\($0)'" } ?? "none") to \(destinationParent.map { "'\($0)'" } ?? "none")",
        hash: true)
    }
    if sourceEntity.isAbstract != entity.isAbstract {
      add(.abstractChanged, nil, entity.isAbstract ? "entity made abstract" : "entity made concrete", hash: true)
    }
    if (sourceEntity.versionHashModifier ?? "") != (entity.versionHashModifier ?? "") {
      add(.entityHashModifierChanged, nil, "versionHashModifier changed", hash: true)
    }
    if Set(sourceEntity.uniquenessConstraints.map(\.properties)) != Set(entity.uniquenessConstraints.map(\.properties))
    {
      let describe = { (constraints: [UniquenessConstraint]) in
        constraints.isEmpty
          ? "none" : constraints.map { "(\($0.properties.joined(separator: ", ")))" }.joined(separator: " ")
      }
      add(
        .uniquenessConstraintsChanged, nil,
        "uniqueness constraints changed from \(describe(sourceEntity.uniquenessConstraints)) to \(describe(entity.uniquenessConstraints))",
        hash: true)
    }
    if Self.indexSignature(sourceEntity) != Self.indexSignature(entity) {
      add(.fetchIndexesChanged, nil, "fetch indexes changed", hash: false)
    }
    if sourceEntity.representedClassName != entity.representedClassName
      || sourceEntity.codeGenerationType != entity.codeGenerationType
    {
      add(.entityClassChanged, nil, "class or code generation changed", hash: false)
    }
    if sourceEntity.userInfo != entity.userInfo {
      add(.entityUserInfoChanged, nil, "userInfo changed", hash: false)
    }
    changes += attributeChanges(source: sourceEntity, destination: entity)
    changes += relationshipChanges(source: sourceEntity, destination: entity)
    let changesHash =
      sourceHashes.entityHashes[sourceEntity.name] != destinationHashes.entityHashes[entity.name]
    return EntityDiff(
      sourceEntity: sourceEntity.name, destinationEntity: entity.name, changes: changes, changesHash: changesHash)
  }

  static func indexSignature(_ entity: EntityDescription) -> [String] {
    entity.fetchIndexes.map { index in
      index.name + ":"
        + index.elements.map { "\($0.property ?? $0.expression ?? "")\($0.isAscending ? "+" : "-")" }.joined(
          separator: ",")
    }.sorted() + entity.compoundIndexes.map { "compound:" + $0.properties.joined(separator: ",") }.sorted()
  }

  // MARK: - Attributes

  func attributeChanges(source sourceEntity: EntityDescription, destination entity: EntityDescription)
    -> [SchemaChange]
  {
    let sourceAttributes = source.allAttributes(of: sourceEntity.id)
    let destinationAttributes = destination.allAttributes(of: entity.id)
    let matches = Self.match(
      sources: sourceAttributes.map { ($0.name, $0.versionIdentity) },
      destinations: destinationAttributes.map { ($0.name, $0.versionIdentity, $0.renamingIdentifier) })
    let sourceOwners = owners(in: sourceEntity, model: source, attributes: true)
    let destinationOwners = owners(in: entity, model: destination, attributes: true)
    var changes: [SchemaChange] = []
    let name = entity.name
    func add(_ kind: SchemaChange.Kind, _ property: String, _ detail: String, hash: Bool, loses: Bool = false) {
      changes.append(
        SchemaChange(kind: kind, entity: name, property: property, detail: detail, changesHash: hash, losesData: loses))
    }
    var matchedSources = Set<Int>()
    for (index, attribute) in destinationAttributes.enumerated() {
      guard let sourceIndex = matches[index] else {
        if attribute.isPersistent {
          let requirement =
            attribute.isOptional
            ? "optional"
            : (attribute.defaultValue != nil ? "required, default \(attribute.defaultValue!)" : "required, no default")
          add(
            .attributeAdded, attribute.name, "attribute added (\(attribute.attributeType.rawValue), \(requirement))",
            hash: true)
        } else {
          add(.attributeAdded, attribute.name, "transient attribute added", hash: false)
        }
        continue
      }
      matchedSources.insert(sourceIndex)
      let old = sourceAttributes[sourceIndex]
      let persistent = old.isPersistent || attribute.isPersistent
      if old.name != attribute.name {
        add(.attributeRenamed, attribute.name, "attribute renamed from '\(old.name)'", hash: persistent)
      }
      if sourceOwners[old.name] != destinationOwners[attribute.name], persistent {
        add(
          .attributeMovedInHierarchy, attribute.name,
          "attribute moved from entity '\(sourceOwners[old.name] ?? "")' to '\(destinationOwners[attribute.name] ?? "")'",
          hash: false)
      }
      if old.attributeType != attribute.attributeType {
        add(
          .attributeTypeChanged, attribute.name,
          "type changed from \(old.attributeType.rawValue) to \(attribute.attributeType.rawValue)", hash: persistent,
          loses: persistent)
      }
      if old.isOptional != attribute.isOptional {
        if attribute.isOptional {
          add(.attributeMadeOptional, attribute.name, "attribute made optional", hash: !attribute.isTransient)
        } else {
          add(
            .attributeMadeRequired, attribute.name,
            "attribute made required\(attribute.defaultValue.map { " (default \($0))" } ?? " without a default")",
            hash: !attribute.isTransient)
        }
      }
      if old.isTransient != attribute.isTransient {
        if attribute.isTransient {
          add(
            .attributeMadeTransient, attribute.name, "attribute made transient; its stored values are dropped",
            hash: true, loses: true)
        } else {
          add(.attributeMadePersistent, attribute.name, "attribute made persistent", hash: true)
        }
      }
      if old.defaultValue != attribute.defaultValue || old.defaultValueString != attribute.defaultValueString
        || old.defaultDateTimeInterval != attribute.defaultDateTimeInterval
      {
        add(.defaultValueChanged, attribute.name, "default value changed", hash: false)
      }
      if old.minValue != attribute.minValue || old.maxValue != attribute.maxValue
        || old.regularExpression != attribute.regularExpression
      {
        add(.validationChanged, attribute.name, "validation (min/max/regular expression) changed", hash: false)
      }
      if old.allowsExternalBinaryDataStorage != attribute.allowsExternalBinaryDataStorage {
        add(.externalStorageChanged, attribute.name, "external binary storage changed", hash: persistent)
      }
      if old.preservesValueInHistoryOnDeletion != attribute.preservesValueInHistoryOnDeletion {
        add(.preserveAfterDeletionChanged, attribute.name, "preserve-after-deletion changed", hash: persistent)
      }
      if (old.versionHashModifier ?? "") != (attribute.versionHashModifier ?? "") {
        add(.propertyHashModifierChanged, attribute.name, "versionHashModifier changed", hash: persistent)
      }
      if old.valueTransformerName != attribute.valueTransformerName || old.customClassName != attribute.customClassName
      {
        add(.transformerChanged, attribute.name, "value transformer or class changed", hash: false)
      }
      if old.isDerived != attribute.isDerived || old.derivationExpression != attribute.derivationExpression {
        add(.derivationChanged, attribute.name, "derivation changed", hash: false)
      }
      if old.usesScalarValueType != attribute.usesScalarValueType || old.userInfo != attribute.userInfo
        || old.isIndexed != attribute.isIndexed || old.isIndexedBySpotlight != attribute.isIndexedBySpotlight
        || old.allowsCloudEncryption != attribute.allowsCloudEncryption || old.compositeName != attribute.compositeName
      {
        add(.attributeDetailsChanged, attribute.name, "code generation or indexing details changed", hash: false)
      }
    }
    for (index, attribute) in sourceAttributes.enumerated() where !matchedSources.contains(index) {
      add(
        .attributeRemoved, attribute.name,
        attribute.isPersistent ? "attribute removed; its stored values are dropped" : "transient attribute removed",
        hash: attribute.isPersistent, loses: attribute.isPersistent)
    }
    return changes
  }

  /// For each property name, the entity of the hierarchy that defines it.
  func owners(in entity: EntityDescription, model: ModelVersion, attributes: Bool) -> [String: String] {
    var owners: [String: String] = [:]
    for id in [entity.id] + model.ancestors(of: entity.id) {
      let owner = model[id]
      let ownNames = attributes ? owner.attributes.map(\.name) : owner.relationships.map(\.name)
      for name in ownNames where owners[name] == nil {
        owners[name] = owner.name
      }
    }
    return owners
  }

  // MARK: - Relationships

  func relationshipChanges(source sourceEntity: EntityDescription, destination entity: EntityDescription)
    -> [SchemaChange]
  {
    let sourceRelationships = source.allRelationships(of: sourceEntity.id).map(\.relationship)
    let destinationRelationships = destination.allRelationships(of: entity.id).map(\.relationship)
    let matches = Self.match(
      sources: sourceRelationships.map { ($0.name, $0.versionIdentity) },
      destinations: destinationRelationships.map { ($0.name, $0.versionIdentity, $0.renamingIdentifier) })
    let sourceOwners = owners(in: sourceEntity, model: source, attributes: false)
    let destinationOwners = owners(in: entity, model: destination, attributes: false)
    let entityMatches = matchEntities()
    var changes: [SchemaChange] = []
    let name = entity.name
    func add(_ kind: SchemaChange.Kind, _ property: String, _ detail: String, hash: Bool, loses: Bool = false) {
      changes.append(
        SchemaChange(kind: kind, entity: name, property: property, detail: detail, changesHash: hash, losesData: loses))
    }
    var matchedSources = Set<Int>()
    for (index, relationship) in destinationRelationships.enumerated() {
      guard let sourceIndex = matches[index] else {
        add(
          .relationshipAdded, relationship.name,
          "relationship added (\(relationship.isToMany ? "to-many" : "to-one") '\(relationship.destinationEntityName)')",
          hash: relationship.isPersistent)
        continue
      }
      matchedSources.insert(sourceIndex)
      let old = sourceRelationships[sourceIndex]
      let persistent = old.isPersistent || relationship.isPersistent
      if old.name != relationship.name {
        add(.relationshipRenamed, relationship.name, "relationship renamed from '\(old.name)'", hash: persistent)
      }
      if sourceOwners[old.name] != destinationOwners[relationship.name], persistent {
        add(
          .relationshipMovedInHierarchy, relationship.name,
          "relationship moved from entity '\(sourceOwners[old.name] ?? "")' to '\(destinationOwners[relationship.name] ?? "")'",
          hash: false)
      }
      // The destination changed when the new destination is not the match of the old one.
      let oldDestination = source.entityID(named: old.destinationEntityName)
      let newDestination = relationship.destination
      let destinationMatches: Bool = {
        guard let oldDestination, let newDestination else { return false }
        return entityMatches[newDestination.index] == oldDestination.index
      }()
      if !destinationMatches {
        add(
          .destinationChanged, relationship.name,
          "destination changed from '\(old.destinationEntityName)' to '\(relationship.destinationEntityName)'",
          hash: persistent, loses: persistent)
      }
      if old.inverseName != relationship.inverseName {
        add(
          .inverseChanged, relationship.name,
          "inverse changed from \(old.inverseName.map { "'\($0)'" } ?? "none") to \(relationship.inverseName.map { "'\($0)'" } ?? "none")",
          hash: persistent)
      }
      if old.isToMany != relationship.isToMany {
        if relationship.isToMany {
          add(.toOneBecameToMany, relationship.name, "to-one became to-many", hash: persistent)
        } else {
          add(
            .toManyBecameToOne, relationship.name, "to-many became to-one; objects beyond the first are dropped",
            hash: persistent, loses: persistent)
        }
      }
      if old.isOrdered != relationship.isOrdered, relationship.isToMany, old.isToMany {
        add(
          .orderingChanged, relationship.name,
          relationship.isOrdered ? "to-many made ordered" : "to-many made unordered",
          hash: persistent, loses: persistent && !relationship.isOrdered)
      }
      if old.minCount != relationship.minCount || old.maxCount != relationship.maxCount,
        old.isToMany == relationship.isToMany
      {
        add(
          .countChanged, relationship.name,
          "count bounds changed from \(old.minCount)...\(old.maxCount) to \(relationship.minCount)...\(relationship.maxCount)",
          hash: persistent)
      }
      if old.isOptional != relationship.isOptional {
        add(
          relationship.isOptional ? .relationshipMadeOptional : .relationshipMadeRequired, relationship.name,
          relationship.isOptional ? "relationship made optional" : "relationship made required",
          hash: !relationship.isTransient)
      }
      if old.isTransient != relationship.isTransient {
        add(
          relationship.isTransient ? .relationshipMadeTransient : .relationshipMadePersistent, relationship.name,
          relationship.isTransient
            ? "relationship made transient; its stored links are dropped" : "relationship made persistent",
          hash: true, loses: relationship.isTransient)
      }
      if (old.versionHashModifier ?? "") != (relationship.versionHashModifier ?? "") {
        add(.propertyHashModifierChanged, relationship.name, "versionHashModifier changed", hash: persistent)
      }
      if old.deletionRule != relationship.deletionRule {
        add(
          .deletionRuleChanged, relationship.name,
          "deletion rule changed from \(old.deletionRule.rawValue) to \(relationship.deletionRule.rawValue)",
          hash: false)
      }
    }
    for (index, relationship) in sourceRelationships.enumerated() where !matchedSources.contains(index) {
      add(
        .relationshipRemoved, relationship.name,
        relationship.isPersistent ? "relationship removed; its links are dropped" : "transient relationship removed",
        hash: relationship.isPersistent, loses: relationship.isPersistent)
    }
    return changes
  }
}
