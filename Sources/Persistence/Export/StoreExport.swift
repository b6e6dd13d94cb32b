/// A store's objects as one JSON document: `modelc store export`.
///
/// The document is an object keyed by entity name — every concrete entity of the model (or of
/// the chosen entities and their sub-entities), in the model's order — each an array of its
/// objects in primary-key order, as ``ObjectJSON`` writes them. Objects of a sub-entity are
/// listed under their own entity (Core Data's `Z_ENT`), never under their parent's. It is read in
/// one read transaction (``ObjectContext/withReadTransaction(_:)``): the store as it was at one
/// moment, whatever other connections commit meanwhile.
public enum StoreExport {
  /// The document for every concrete entity, or for `entityNames` and their sub-entities.
  ///
  /// ```swift
  /// let document = try StoreExport.json(of: container.newContext(), entityNames: ["Task"])
  /// print(JSONWriter.prettyPrinted(document))
  /// ```
  ///
  /// - Throws: ``PersistenceError/unknownEntity(_:suggestion:)`` for a name the model lacks;
  ///   ``PersistenceError/storeFailure(_:)`` naming the entity and object when a stored value
  ///   cannot be read; what ``ObjectContext/fetch(_:)`` throws when the store cannot be read.
  public static func json(of context: ObjectContext, entityNames: [String]? = nil) throws -> JSONValue {
    let model = context.model
    var entities: [EntityID] = []
    if let entityNames {
      var chosen = Set<Int>()
      for name in entityNames {
        guard let entity = model.entityID(named: name) else {
          throw PersistenceError.unknownEntity(
            name, suggestion: EditDistance.suggestion(for: name, among: model.entities.map(\.name)))
        }
        chosen.insert(entity.index)
        for descendant in model.descendants(of: entity) { chosen.insert(descendant.index) }
      }
      entities = model.entities.map(\.id).filter { chosen.contains($0.index) }
    } else {
      entities = model.entities.map(\.id)
    }
    let storeUUID = context.storeUUID
    // One read transaction: the document is the store at one moment, and each object's
    // relationships, read as it is written, cost no locking of the file each.
    return try context.withReadTransaction {
      var document: [(key: String, value: JSONValue)] = []
      for entity in entities where !model[entity].isAbstract {
        var request = FetchRequest<ManagedObject>(entityName: model[entity].name)
        request.includesSubentities = false
        request.fetchBatchSize = 1000
        var objects: [JSONValue] = []
        for object in try context.fetchBatches(request) {
          objects.append(ObjectJSON.json(of: object, storeUUID: storeUUID))
          if let error = context.lastAccessError {
            throw PersistenceError.storeFailure("\(model[entity].name) \(object.objectID): \(error)")
          }
        }
        document.append((model[entity].name, .array(objects)))
      }
      return .object(document)
    }
  }
}
