import DataModel
import Foundation
import Persistence

/// The state of a heavyweight migration step, as its policies see it: Core Data's
/// `NSMigrationManager`.
///
/// It holds the two object contexts (on the store being migrated and on the new store), the
/// associations between source objects and the destination objects made from them, and a
/// ``userInfo`` dictionary a policy may use as a lookup table across calls.
///
/// Unlike Core Data's, the associations live in a table of the new store file, not in memory,
/// and the contexts are replaced batch by batch: a migration's memory does not grow with the
/// store. Objects from ``sourceContext`` and ``destinationContext`` are therefore valid during
/// the policy call they are used in; keep their `objectID` (or values) for later.
///
/// A policy reaches it in each call; for instance, stage 2 of a policy linking notes to the
/// tasks made from their source tasks:
///
/// ```swift
/// override func createRelationships(
///   forDestination note: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
/// ) throws {
///   let source = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [note])[0]
///   guard let task = try source.object(forKey: "task") else { return }
///   let made = try manager.destinationInstances(forEntityMappingName: "TaskToTask", sourceInstances: [task])
///   try note.setObject(made.first, forKey: "task")
/// }
/// ```
public final class MigrationManager {
  /// The version the store is migrated from.
  public let sourceModel: ModelVersion
  /// The version the store is migrated to.
  public let destinationModel: ModelVersion
  /// The mapping model that runs.
  public let mappingModel: MappingModel
  /// When the migration started: a policy that needs "the time of the migration" uses this,
  /// so that every object gets the same.
  public let migrationDate: Date
  /// A context on the store being migrated (read only). Replaced between batches.
  public internal(set) var sourceContext: ObjectContext
  /// A context on the new store. Replaced between batches, after each batch is saved.
  public internal(set) var destinationContext: ObjectContext
  /// The entity mapping running now.
  public internal(set) var currentEntityMapping: MappingModel.EntityMapping?
  /// Free for policies: a lookup table kept across calls and entity mappings.
  public var userInfo: [AnyHashable: Any] = [:]
  /// How far the step is: objects done and to do in the current stage of the current entity
  /// mapping.
  public internal(set) var progress: MigrationProgress

  /// The part of the step done, from 0 to 1 (Core Data's `migrationProgress`).
  public var migrationProgress: Double {
    progress.rowsTotal == 0 ? 0 : min(1, Double(progress.rowsDone) / Double(progress.rowsTotal))
  }

  let associations: AssociationTable
  let sourceSchema: StoreSchema
  let destinationSchema: StoreSchema
  /// Associations made in the current batch, before its objects have permanent keys.
  private var pending: [PendingAssociation] = []
  private var pendingBySource: [AssociationKey: [ManagedObject]] = [:]
  private var pendingByDestination: [ObjectIdentifier: AssociationKey] = [:]

  private struct AssociationKey: Hashable {
    var mapping: Int
    var sourceKey: Int64
  }

  private struct PendingAssociation {
    var key: AssociationKey
    var destination: ManagedObject
  }

  init(
    sourceModel: ModelVersion, destinationModel: ModelVersion, mappingModel: MappingModel, migrationDate: Date,
    sourceContext: ObjectContext, destinationContext: ObjectContext, associations: AssociationTable,
    progress: MigrationProgress
  ) {
    self.sourceModel = sourceModel
    self.destinationModel = destinationModel
    self.mappingModel = mappingModel
    self.migrationDate = migrationDate
    self.sourceContext = sourceContext
    self.destinationContext = destinationContext
    self.associations = associations
    self.sourceSchema = StoreSchema(model: sourceModel)
    self.destinationSchema = StoreSchema(model: destinationModel)
    self.progress = progress
  }

  // MARK: - Associations

  /// Records that `destination` was made from `source` by `mapping`: what
  /// ``destinationInstances(forEntityMappingName:sourceInstances:)`` and
  /// ``sourceInstances(forEntityMappingName:destinationInstances:)`` look up
  /// (`associateSourceInstance:withDestinationInstance:forEntityMapping:`).
  public func associate(
    sourceInstance source: ManagedObject, withDestinationInstance destination: ManagedObject,
    for mapping: MappingModel.EntityMapping
  ) {
    guard let index = mappingIndex(of: mapping.name), let sourceKey = source.objectID.primaryKey else { return }
    let key = AssociationKey(mapping: index, sourceKey: sourceKey)
    pending.append(PendingAssociation(key: key, destination: destination))
    pendingBySource[key, default: []].append(destination)
    pendingByDestination[ObjectIdentifier(destination)] = key
  }

  /// The destination objects the entity mapping named `name` made from `sources`, in the order
  /// of `sources` (`destinationInstancesForEntityMappingNamed:sourceInstances:`).
  ///
  /// - Throws: ``MigrationEngineError/mapping(_:)`` when no entity mapping has that name.
  public func destinationInstances(forEntityMappingName name: String, sourceInstances sources: [ManagedObject]) throws
    -> [ManagedObject]
  {
    guard let index = mappingIndex(of: name) else {
      throw MigrationEngineError.mapping(
        "no entity mapping is named '\(name)' in the mapping model '\(mappingModel.sourceVersion)' → '\(mappingModel.destinationVersion)' (it has \(mappingModel.entityMappings.map(\.name).joined(separator: ", ")))"
      )
    }
    return try sources.flatMap { try destinationInstances(ofSource: $0, mappings: [index]) }
  }

  /// The destination objects made from `sources` by the entity mappings of their entities,
  /// for a relationship of the current entity mapping's source entity
  /// (`destinationInstancesForSourceRelationshipNamed:sourceInstances:`).
  ///
  /// - Throws: ``MigrationEngineError/mapping(_:)`` when the current source entity has no such
  ///   relationship.
  public func destinationInstances(forSourceRelationshipNamed name: String, sourceInstances sources: [ManagedObject])
    throws -> [ManagedObject]
  {
    if let entityName = currentEntityMapping?.sourceEntity, let entity = sourceModel.entityID(named: entityName),
      sourceModel.relationship(named: name, in: entity) == nil
    {
      throw MigrationEngineError.mapping(
        "entity '\(entityName)' of version '\(sourceModel.name)' has no relationship '\(name)' (destinationInstancesForSourceRelationshipNamed:sourceInstances:)"
      )
    }
    return try sources.flatMap { source in
      let indexes = mappingModel.entityMappings.indices.filter {
        mappingModel.entityMappings[$0].sourceEntity == source.entityName
      }
      return try destinationInstances(ofSource: source, mappings: indexes)
    }
  }

  /// The source objects the entity mapping named `name` made `destinations` from
  /// (`sourceInstancesForEntityMappingNamed:destinationInstances:`).
  ///
  /// - Throws: ``MigrationEngineError/mapping(_:)`` when no entity mapping has that name.
  public func sourceInstances(forEntityMappingName name: String, destinationInstances destinations: [ManagedObject])
    throws -> [ManagedObject]
  {
    guard let index = mappingIndex(of: name), let sourceName = mappingModel.entityMappings[index].sourceEntity,
      let sourceEntity = sourceModel.entityID(named: sourceName)
    else {
      throw MigrationEngineError.mapping("no entity mapping with a source entity is named '\(name)'")
    }
    var result: [ManagedObject] = []
    for destination in destinations {
      var keys: [Int64] = []
      if let key = pendingByDestination[ObjectIdentifier(destination)], key.mapping == index {
        keys.append(key.sourceKey)
      } else if let destinationKey = destination.objectID.primaryKey {
        keys = try associations.sourceKeys(
          mapping: index, destinationEntity: destinationSchema[destination.objectID.entity].entityNumber,
          destinationKey: destinationKey)
      }
      for key in keys {
        if let object = sourceContext.object(with: ObjectID(entity: sourceEntity, primaryKey: key)) {
          result.append(object)
        }
      }
    }
    return result
  }

  private func destinationInstances(ofSource source: ManagedObject, mappings: [Int]) throws -> [ManagedObject] {
    guard let sourceKey = source.objectID.primaryKey else { return [] }
    var result: [ManagedObject] = []
    for index in mappings {
      let key = AssociationKey(mapping: index, sourceKey: sourceKey)
      if let made = pendingBySource[key] {
        result += made
        continue
      }
      for (entityNumber, destinationKey) in try associations.destinationKeys(mapping: index, sourceKey: sourceKey) {
        guard let entity = destinationSchema.mapping(forEntityNumber: entityNumber)?.entity,
          let object = destinationContext.object(with: ObjectID(entity: entity, primaryKey: destinationKey))
        else { continue }
        result.append(object)
      }
    }
    return result
  }

  func mappingIndex(of name: String) -> Int? {
    mappingModel.entityMappings.firstIndex { $0.name == name }
  }

  /// Writes the associations of the batch just saved (their objects now have keys).
  func flushAssociations() throws {
    var rows: [(mapping: Int, source: Int64, entity: Int, destination: Int64)] = []
    for association in pending {
      let object = association.destination
      guard let key = object.objectID.primaryKey, !object.isDeleted else { continue }
      rows.append(
        (
          association.key.mapping, association.key.sourceKey,
          destinationSchema[object.objectID.entity].entityNumber, key
        ))
    }
    try associations.insert(rows)
    pending.removeAll(keepingCapacity: true)
    pendingBySource.removeAll(keepingCapacity: true)
    pendingByDestination.removeAll(keepingCapacity: true)
  }

  // MARK: - Setting values

  /// Sets an attribute of a destination object from an evaluated expression, converted to the
  /// attribute's type.
  func setAttribute(
    _ name: String, of object: ManagedObject, to value: MigrationValue, mapping: MappingModel.EntityMapping
  ) throws {
    guard let entity = destinationModel.entityID(named: object.entityName),
      let attribute = destinationModel.attribute(named: name, in: entity)
    else {
      throw MigrationEngineError.mapping(
        "entity mapping '\(mapping.name)' maps attribute '\(name)', which entity '\(object.entityName)' of version '\(destinationModel.name)' does not have"
      )
    }
    let stored: AttributeValue?
    switch value {
    case .null: stored = nil
    case .attribute(let attributeValue):
      do {
        stored = try attributeValue.converted(to: attribute.attributeType)
      } catch {
        throw MigrationEngineError.value(
          entityMapping: mapping.name, entity: object.entityName, object: "\(object.objectID)", property: name,
          detail: "the value \(attributeValue) cannot be stored in a \(attribute.attributeType.rawValue) attribute")
      }
    case .object, .objects, .list:
      throw MigrationEngineError.value(
        entityMapping: mapping.name, entity: object.entityName, object: "\(object.objectID)", property: name,
        detail: "the expression yields \(value), not an attribute value")
    }
    do {
      try object.setValue(stored, forKey: name)
    } catch {
      throw MigrationEngineError.value(
        entityMapping: mapping.name, entity: object.entityName, object: "\(object.objectID)", property: name,
        detail: "\(error)")
    }
  }

  /// Sets a relationship of a destination object to the objects an expression yielded.
  func setRelationship(
    _ name: String, of object: ManagedObject, to value: MigrationValue, mapping: MappingModel.EntityMapping
  ) throws {
    guard let entity = destinationModel.entityID(named: object.entityName),
      let relationship = destinationModel.relationship(named: name, in: entity)?.relationship
    else {
      throw MigrationEngineError.mapping(
        "entity mapping '\(mapping.name)' maps relationship '\(name)', which entity '\(object.entityName)' of version '\(destinationModel.name)' does not have"
      )
    }
    let objects = value.managedObjects
    if case .attribute(let attributeValue) = value {
      throw MigrationEngineError.value(
        entityMapping: mapping.name, entity: object.entityName, object: "\(object.objectID)", property: name,
        detail: "the expression yields the value \(attributeValue), not objects")
    }
    do {
      if relationship.isToMany {
        try object.setObjects(objects, forKey: name)
      } else {
        try object.setObject(objects.first, forKey: name)
      }
    } catch {
      throw MigrationEngineError.value(
        entityMapping: mapping.name, entity: object.entityName, object: "\(object.objectID)", property: name,
        detail: "\(error)")
    }
  }
}
