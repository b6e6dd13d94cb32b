import DataModel
import Persistence

/// Infers the mapping model Core Data's lightweight migration would infer between two versions,
/// or refuses with every change that needs a mapping model.
///
/// Exactly the changes of `docs/migrations.md` (after Apple's lightweight-migration rules) are
/// inferred: adding and removing entities and properties, renames through renaming identifiers,
/// hierarchy changes that keep each object's entity, required → optional, optional → required or
/// new required attributes when a default exists, to-one → to-many, ordering changes, relaxed
/// counts, and anything that does not change a version hash. Refused: attribute type changes,
/// new required attributes without a default, merging unrelated entities under one parent,
/// making an entity abstract, changing a relationship's destination, to-many → to-one,
/// tightened counts, and relationships made required.
public enum LightweightInference {
  /// The inferred mapping from `source` to `destination`.
  ///
  /// ```swift
  /// let mapping = try LightweightInference.mappingModel(from: bundle.versions[0], to: bundle.currentVersion)
  /// ```
  ///
  /// - Throws: ``InferenceError`` (typed) listing every change Core Data's lightweight
  ///   migration would refuse (see above), each with its entity and property.
  public static func mappingModel(from source: ModelVersion, to destination: ModelVersion) throws(InferenceError)
    -> MappingModel
  {
    let diff = ModelDiff(from: source, to: destination)
    var refusals = refusals(in: diff, source: source, destination: destination)
    refusals += mergedHierarchies(source: source, destination: destination)
    guard refusals.isEmpty else {
      throw InferenceError(sourceVersion: source.name, destinationVersion: destination.name, refusals: refusals)
    }
    return buildMapping(diff: diff, source: source, destination: destination)
  }

  /// Whether the two versions can be migrated by inference.
  public static func canInfer(from source: ModelVersion, to destination: ModelVersion) -> Bool {
    (try? mappingModel(from: source, to: destination)) != nil
  }

  // MARK: - Refusals

  static func refusals(in diff: ModelDiff, source: ModelVersion, destination: ModelVersion) -> [MigrationRefusal] {
    var refusals: [MigrationRefusal] = []
    func refuse(_ change: SchemaChange, _ reason: String) {
      refusals.append(
        MigrationRefusal(entity: change.entity, property: change.property, change: change.detail, reason: reason))
    }
    for entityDiff in diff.entities {
      let destinationEntity = entityDiff.destinationEntity.flatMap { destination.entity(named: $0) }
      // A change that alters no version hash (a transient property, a default, …) touches no
      // stored data and needs no migration.
      for change in entityDiff.changes where change.changesHash {
        switch change.kind {
        case .attributeTypeChanged:
          refuse(
            change,
            "lightweight migration cannot change an attribute's type; add a new attribute, copy the values in a mapping model, then remove the old one"
          )
        case .attributeAdded, .attributeMadePersistent:
          guard let entity = destinationEntity, let name = change.property,
            let attribute = destination.attribute(named: name, in: entity.id), attribute.isPersistent
          else { continue }
          if !attribute.isOptional && attribute.defaultValue == nil {
            refuse(
              change,
              "a new required attribute needs a default value for the existing objects; give it one or make it optional"
            )
          }
        case .attributeMadeRequired:
          guard let entity = destinationEntity, let name = change.property,
            let attribute = destination.attribute(named: name, in: entity.id), attribute.isPersistent
          else { continue }
          if attribute.defaultValue == nil {
            refuse(change, "making an attribute required needs a default value; give it one")
          }
        case .abstractChanged:
          if destinationEntity?.isAbstract == true {
            refuse(change, "making an entity abstract would leave its existing objects without a concrete entity")
          }
        case .destinationChanged:
          refuse(change, "a relationship cannot point at a different entity in a lightweight migration")
        case .toManyBecameToOne:
          refuse(change, "a to-many relationship cannot become to-one without deciding which object to keep")
        case .countChanged:
          guard let entity = destinationEntity, let name = change.property,
            let sourceName = entityDiff.sourceEntity, let sourceEntity = source.entity(named: sourceName),
            let new = destination.relationship(named: name, in: entity.id)?.relationship
          else { continue }
          let old = source.allRelationships(of: sourceEntity.id).map(\.relationship).first {
            $0.versionIdentity == new.versionIdentity || $0.name == new.name
          }
          guard let old else { continue }
          let minimumTightened = new.minCount > old.minCount
          let maximumTightened = new.maxCount != 0 && (old.maxCount == 0 || new.maxCount < old.maxCount)
          if minimumTightened || maximumTightened {
            refuse(change, "tightening a relationship's count bounds could leave existing objects invalid")
          }
        case .relationshipMadeRequired:
          refuse(change, "existing objects may have no destination for a relationship made required")
        case .relationshipAdded, .relationshipMadePersistent:
          guard let entity = destinationEntity, let name = change.property,
            let relationship = destination.relationship(named: name, in: entity.id)?.relationship,
            relationship.isPersistent
          else { continue }
          if !relationship.isOptional && (relationship.isToMany ? relationship.minCount > 0 : true) {
            refuse(change, "a new required relationship would be empty for the existing objects; make it optional")
          }
        default:
          break
        }
      }
    }
    return refusals
  }

  /// Refusals for destination hierarchies that gather entities from different source
  /// hierarchies ("merging hierarchies"), which Core Data cannot infer.
  static func mergedHierarchies(source: ModelVersion, destination: ModelVersion) -> [MigrationRefusal] {
    let differ = ModelDiffer(source: source, destination: destination)
    let matches = differ.matchEntities()
    var rootsByDestinationRoot: [Int: Set<Int>] = [:]
    for (destinationIndex, sourceIndex) in matches {
      let destinationRoot = destination.root(of: EntityID(destinationIndex)).index
      let sourceRoot = source.root(of: EntityID(sourceIndex)).index
      rootsByDestinationRoot[destinationRoot, default: []].insert(sourceRoot)
    }
    var refusals: [MigrationRefusal] = []
    for (destinationRoot, sourceRoots) in rootsByDestinationRoot.sorted(by: { $0.key < $1.key })
    where sourceRoots.count > 1 {
      let names = sourceRoots.map { source.entities[$0].name }.sorted()
      refusals.append(
        MigrationRefusal(
          entity: destination.entities[destinationRoot].name, property: nil,
          change:
            "entities from separate hierarchies (\(names.joined(separator: ", "))) now share the parent '\(destination.entities[destinationRoot].name)'",
          reason: "lightweight migration cannot merge unrelated hierarchies into one"))
    }
    return refusals
  }

  // MARK: - Building the mapping

  static func buildMapping(diff: ModelDiff, source: ModelVersion, destination: ModelVersion) -> MappingModel {
    let sourceHashes = source.versionHashes
    let destinationHashes = destination.versionHashes
    var mappings: [MappingModel.EntityMapping] = []
    let entityDiffsByDestination = Dictionary(
      diff.entities.compactMap { diff in diff.destinationEntity.map { ($0, diff) } },
      uniquingKeysWith: { first, _ in first })
    for entity in destination.entities {
      guard let entityDiff = entityDiffsByDestination[entity.name] else { continue }
      guard let sourceName = entityDiff.sourceEntity, let sourceEntity = source.entity(named: sourceName) else {
        mappings.append(
          MappingModel.EntityMapping(
            name: "\(entity.name)", kind: .add, sourceEntity: nil, destinationEntity: entity.name,
            attributeMappings: destination.allAttributes(of: entity.id).filter(\.isPersistent).map {
              MappingModel.PropertyMapping(destinationProperty: $0.name, value: $0.defaultValue.map { .value($0) })
            }))
        continue
      }
      let unchanged =
        sourceHashes.entityHashes[sourceName] == destinationHashes.entityHashes[entity.name]
        && sourceName == entity.name
      var mapping = MappingModel.EntityMapping(
        name: "\(sourceName)To\(entity.name)", kind: unchanged ? .copy : .transform, sourceEntity: sourceName,
        destinationEntity: entity.name)
      let sourceAttributes = source.allAttributes(of: sourceEntity.id)
      let destinationAttributes = destination.allAttributes(of: entity.id)
      let attributeMatches = ModelDiffer.match(
        sources: sourceAttributes.map { ($0.name, $0.versionIdentity) },
        destinations: destinationAttributes.map { ($0.name, $0.versionIdentity, $0.renamingIdentifier) })
      for (index, attribute) in destinationAttributes.enumerated() where attribute.isPersistent {
        if let sourceIndex = attributeMatches[index], sourceAttributes[sourceIndex].isPersistent {
          mapping.attributeMappings.append(
            .init(destinationProperty: attribute.name, value: .source(sourceAttributes[sourceIndex].name))
          )
        } else {
          mapping.attributeMappings.append(
            .init(destinationProperty: attribute.name, value: attribute.defaultValue.map { .value($0) }))
        }
      }
      let sourceRelationships = source.allRelationships(of: sourceEntity.id).map(\.relationship)
      let destinationRelationships = destination.allRelationships(of: entity.id).map(\.relationship)
      let relationshipMatches = ModelDiffer.match(
        sources: sourceRelationships.map { ($0.name, $0.versionIdentity) },
        destinations: destinationRelationships.map { ($0.name, $0.versionIdentity, $0.renamingIdentifier) })
      for (index, relationship) in destinationRelationships.enumerated() where relationship.isPersistent {
        guard let sourceIndex = relationshipMatches[index], sourceRelationships[sourceIndex].isPersistent,
          let destinationEntityName = Optional(relationship.destinationEntityName),
          let targetDiff = entityDiffsByDestination[destinationEntityName], let targetSource = targetDiff.sourceEntity
        else {
          mapping.relationshipMappings.append(.init(destinationProperty: relationship.name, value: nil))
          continue
        }
        mapping.relationshipMappings.append(
          .init(
            destinationProperty: relationship.name,
            value: .destinationInstances(
              entityMapping: "\(targetSource)To\(destinationEntityName)",
              sourceRelationship: sourceRelationships[sourceIndex].name)))
      }
      mappings.append(mapping)
    }
    for entityDiff in diff.entities where entityDiff.destinationEntity == nil {
      guard let sourceName = entityDiff.sourceEntity else { continue }
      mappings.append(
        MappingModel.EntityMapping(name: sourceName, kind: .remove, sourceEntity: sourceName, destinationEntity: nil))
    }
    return MappingModel(
      sourceVersion: source.name, destinationVersion: destination.name,
      sourceEntityHashes: sourceHashes.entityHashes, destinationEntityHashes: destinationHashes.entityHashes,
      entityMappings: mappings, isInferred: true)
  }
}
