import SQLite

/// Running batch requests: SQL statements over the store in one transaction, without loading
/// objects, then a ``SaveNotification`` to the container's observers and a merge into this
/// context.
extension ObjectContext {
  /// Updates the objects a ``BatchUpdateRequest`` selects, in the store.
  ///
  /// The context's pending changes are neither saved nor considered (the predicate sees the
  /// store's values); objects of this context that the update changed are refreshed, keeping
  /// their pending changes on top.
  ///
  /// ```swift
  /// let done = try context.execute(BatchUpdateRequest(
  ///   entityName: "Task", predicate: try FetchPredicate(format: "priority == 0"),
  ///   propertiesToUpdate: ["priority": .attribute(.integer(1))]))
  /// print("\(done.count) tasks raised to priority 1")
  /// ```
  ///
  /// - Throws: ``PersistenceError`` for an unknown entity or property (with a suggestion),
  ///   and what ``fetch(_:)`` throws for the predicate; ``BatchRequestError/validation(_:)``
  ///   for values that break the model's rules (every failure listed),
  ///   ``BatchRequestError/unsupported(_:)`` for a relationship batch requests cannot set (not
  ///   stored, one-to-one, or with an ordered inverse); or a `SQLiteError`. The store is then
  ///   unchanged.
  @discardableResult
  public func execute(_ request: BatchUpdateRequest) throws -> BatchResult {
    let (ids, obsoleteFiles) = try store.writeTransaction("run a batch update") { _ in try batchUpdate(request) }
    store.description.externalDataFolder?.remove(obsoleteFiles)
    return finishBatch(BatchResult(objectIDs: ids, otherUpdatedObjectIDs: []), inserted: [], updated: ids, deleted: [])
  }

  /// Deletes the objects a ``BatchDeleteRequest`` selects from the store, applying deletion
  /// rules; the objects leave every context that merges the notification, this one included.
  ///
  /// ```swift
  /// let removed = try context.execute(BatchDeleteRequest(
  ///   entityName: "Task", predicate: try FetchPredicate(format: "completedAt != nil")))
  /// ```
  ///
  /// - Throws: ``PersistenceError`` for an unknown entity, and what ``fetch(_:)`` throws for
  ///   the predicate; ``BatchRequestError/deleteDenied(entity:relationship:count:)`` when a Deny
  ///   rule refuses; or a `SQLiteError`. The store is then unchanged.
  @discardableResult
  public func execute(_ request: BatchDeleteRequest) throws -> BatchResult {
    let (deleted, updated, obsoleteFiles) = try store.writeTransaction("run a batch delete") { _ in
      try batchDelete(request)
    }
    // The rows are gone for good: their external-data files go too.
    store.description.externalDataFolder?.remove(obsoleteFiles)
    return finishBatch(
      BatchResult(objectIDs: deleted, otherUpdatedObjectIDs: updated), inserted: [], updated: updated,
      deleted: deleted)
  }

  /// Inserts the objects of a ``BatchInsertRequest`` into the store.
  ///
  /// ```swift
  /// let inserted = try context.execute(BatchInsertRequest(
  ///   entityName: "Task",
  ///   objects: [["title": .attribute(.string("Pack")), "priority": .attribute(.integer(2))]]))
  /// ```
  ///
  /// - Throws: ``PersistenceError`` for an unknown or abstract entity or an unknown property;
  ///   ``BatchRequestError/validation(_:)`` for values that break the model's rules (every
  ///   failure listed), ``BatchRequestError/unsupported(_:)`` for a relationship batch requests
  ///   cannot set; or a `SQLiteError`. The store is then unchanged.
  @discardableResult
  public func execute(_ request: BatchInsertRequest) throws -> BatchResult {
    let ids = try store.writeTransaction("run a batch insert") { _ in try batchInsert(request) }
    return finishBatch(BatchResult(objectIDs: ids, otherUpdatedObjectIDs: []), inserted: ids, updated: [], deleted: [])
  }

  /// Tells the container's observers and merges into this context.
  private func finishBatch(_ result: BatchResult, inserted: [ObjectID], updated: [ObjectID], deleted: [ObjectID])
    -> BatchResult
  {
    let notification = SaveNotification(
      insertedObjects: Set(inserted), updatedObjects: Set(updated), deletedObjects: Set(deleted), sourceContext: nil)
    guard !notification.isEmpty else { return result }
    mergeChanges(from: notification)
    observers.post(notification)
    return result
  }

  // MARK: - Shared steps

  /// The entity a request names.
  func batchEntity(named name: String) throws -> EntityID {
    guard let entity = model.entityID(named: name) else {
      throw PersistenceError.unknownEntity(
        name, suggestion: EditDistance.suggestion(for: name, among: model.entities.map(\.name)))
    }
    return entity
  }

  /// The stored objects of an entity matching a predicate, judged by the store's values, in
  /// primary-key order.
  func batchSelection(entityName: String, predicate: FetchPredicate?, includesSubentities: Bool) throws
    -> (ids: [ObjectID], plan: QueryPlan)
  {
    var request = FetchRequest<ManagedObject>(entityName: entityName, predicate: predicate)
    request.includesPendingChanges = false
    request.includesSubentities = includesSubentities
    let plan = try QueryPlan(request: request, context: self)
    return (try fetchObjectIDs(request), plan)
  }

  func unknownProperty(_ name: String, of entity: EntityID) -> PersistenceError {
    let layout = layouts[entity]
    return PersistenceError.unknownProperty(
      name, entity: layout.name,
      suggestion: EditDistance.suggestion(
        for: name, among: Array(layout.attributeSlots.keys) + Array(layout.relationshipSlots.keys)))
  }

  /// The columns and values setting a to-one relationship to a destination, after checking
  /// the destination; a failure when it is not a stored object of the destination entity.
  func toOneAssignment(
    _ slot: Int, of entity: EntityID, to destination: ObjectID?, failureID: ObjectID
  ) throws -> (assignments: [(String, SQLiteValue)], failure: ValidationFailure?) {
    let layout = layouts[entity]
    let item = layout.relationships[slot]
    guard let columns = store.schema[entity].toOne(named: item.relationship.name) else {
      throw BatchRequestError.unsupported(
        "'\(item.relationship.name)' of '\(layout.name)' is not stored, so batch requests cannot set it")
    }
    if item.inverseName != nil && !item.inverseIsToMany {
      throw BatchRequestError.unsupported(
        "'\(item.relationship.name)' of '\(layout.name)' is one-to-one: setting it changes its inverse's key too, which batch requests do not do; change it through objects"
      )
    }
    if columns.orderColumn != nil {
      throw BatchRequestError.unsupported(
        "the inverse of '\(item.relationship.name)' of '\(layout.name)' is ordered, which batch requests do not keep; change it through objects"
      )
    }
    func failure(_ rule: ValidationFailure.Rule, _ message: String) -> ValidationFailure {
      ValidationFailure(
        rule: rule, entity: layout.name, property: item.relationship.name, objectID: failureID,
        value: destination.map { "\($0)" }, message: message)
    }
    guard let destination else {
      let failure = item.relationship.isOptional ? nil : failure(.required, "a destination object is required")
      var assignments: [(String, SQLiteValue)] = [(columns.foreignKeyColumn, .null)]
      if let column = columns.entityColumn { assignments.append((column, .null)) }
      return (assignments, failure)
    }
    guard let key = destination.primaryKey, destination.entity.index < model.entities.count,
      model.entity(destination.entity, isKindOf: item.destination)
    else {
      return ([], failure(.typeMismatch, "the destination must be a saved \(model[item.destination].name)"))
    }
    let table = store.schema[destination.entity].tableName
    let exists =
      try store.connection().firstRow("SELECT 1 FROM \(identifier: table) WHERE Z_PK = \(key)") { _ in true } ?? false
    guard exists else { return ([], failure(.typeMismatch, "the destination is not in the store")) }
    var assignments: [(String, SQLiteValue)] = [(columns.foreignKeyColumn, .integer(key))]
    if let column = columns.entityColumn {
      assignments.append((column, .integer(Int64(store.schema[destination.entity].entityNumber))))
    }
    return (assignments, nil)
  }

  /// A uniqueness failure for a constraint error of SQLite.
  func uniquenessFailure(_ error: SQLiteError, entity: EntityID, objectID: ObjectID) -> BatchRequestError {
    BatchRequestError.validation([
      ValidationFailure(
        rule: .uniqueness, entity: layouts[entity].name, property: "", objectID: objectID, value: nil,
        message: "must be unique: the store refused the values (\(error.message))")
    ])
  }
}
