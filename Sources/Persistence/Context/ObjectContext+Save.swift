/// Saving: validation, one transaction, then the in-memory bookkeeping.
extension ObjectContext {
  /// Validates every pending change and writes all of them in one transaction.
  ///
  /// On failure nothing is written and the pending changes stay in the context, to be fixed and
  /// saved again (or rolled back). On success, inserted objects get permanent IDs, and a
  /// ``SaveNotification`` goes to the container's observers.
  public func save() throws(SaveError) {
    let pending = Array(changedObjects.values)
    let inserted = pending.filter { $0.lifecycle == .inserted }
    let deleted = pending.filter { $0.lifecycle == .deleted }
    let updated = pending.filter { $0.lifecycle == .persisted && $0.isUpdated }
    if inserted.isEmpty && deleted.isEmpty && updated.isEmpty {
      changedObjects.removeAll()
      return
    }

    var validator = ObjectValidator()
    var failures: [ValidationFailure] = []
    for object in inserted + updated {
      failures += validator.validate(object, in: self)
    }
    for object in deleted {
      failures += validator.validateDeletion(object, in: self)
    }
    do {
      failures += try store.uniquenessFailures(inserted: inserted, updated: updated, deleted: deleted)
    } catch {
      throw SaveError.store("\(error)")
    }
    guard failures.isEmpty else { throw SaveError.validation(failures) }

    let outcome: StoreWriteOutcome
    do {
      outcome = try store.write(
        StoreChanges(inserted: inserted, updated: updated, deleted: deleted), policy: mergePolicy, context: self)
    } catch let error as SaveError {
      throw error
    } catch {
      throw SaveError.store("\(error)")
    }
    didSave(inserted: inserted, updated: updated, deleted: deleted, outcome: outcome)
  }

  /// Brings the objects in line with what was written.
  private func didSave(
    inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], outcome: StoreWriteOutcome
  ) {
    // Objects whose changes lost to the store's (storeWins) are refreshed.
    for object in outcome.discarded {
      try? refresh(object, mergeChanges: false)
    }
    // Permanent IDs replace temporary ones everywhere they appear.
    var replacements: [ObjectID: ObjectID] = [:]
    for object in inserted {
      guard let permanent = outcome.permanentIDs[ObjectIdentifier(object)] else { continue }
      replacements[object.objectID] = permanent
    }
    if !replacements.isEmpty {
      for object in changedObjects.values {
        for slot in object.toOneValues.indices {
          if let id = object.toOneValues[slot], let permanent = replacements[id] {
            object.toOneValues[slot] = permanent
          }
        }
        for slot in object.toManyValues.indices {
          guard var value = object.toManyValues[slot], value.ids.contains(where: \.isTemporary) else { continue }
          for id in value.ids where id.isTemporary {
            if let permanent = replacements[id] { value.replace(id, with: permanent) }
          }
          object.toManyValues[slot] = value
        }
      }
      for object in inserted {
        guard let permanent = replacements[object.objectID] else { continue }
        registry[object.objectID] = nil
        object.objectID = permanent
        registry[permanent] = object
      }
    }
    var insertedIDs = Set<ObjectID>()
    var updatedIDs = Set<ObjectID>()
    var deletedIDs = Set<ObjectID>()
    let discarded = Set(outcome.discarded.map(ObjectIdentifier.init))
    for object in inserted {
      object.lifecycle = .persisted
      object.storedVersion = 1
      insertedIDs.insert(object.objectID)
    }
    for object in updated where !discarded.contains(ObjectIdentifier(object)) {
      object.storedVersion = outcome.versions[ObjectIdentifier(object)] ?? object.storedVersion + 1
      updatedIDs.insert(object.objectID)
    }
    for object in changedObjects.values where object.lifecycle == .persisted {
      object.committedAttributeValues = object.attributeValues
      object.committedToOneValues = object.toOneValues
      object.committedToManyValues = object.toManyValues
    }
    for object in deleted {
      object.lifecycle = .gone
      registry[object.objectID] = nil
      deletedIDs.insert(object.objectID)
    }
    deletedIDs.formUnion(outcome.deletedElsewhere)
    changedObjects.removeAll()
    let notification = SaveNotification(
      insertedObjects: insertedIDs, updatedObjects: updatedIDs, deletedObjects: deletedIDs,
      sourceContext: ObjectIdentifier(self))
    container.post(notification)
  }
}

/// The objects a save writes.
struct StoreChanges {
  var inserted: [ManagedObject]
  var updated: [ManagedObject]
  var deleted: [ManagedObject]
}

/// What the store did.
struct StoreWriteOutcome {
  /// Permanent IDs of the inserted objects.
  var permanentIDs: [ObjectIdentifier: ObjectID] = [:]
  /// New row versions of updated objects.
  var versions: [ObjectIdentifier: Int64] = [:]
  /// Objects whose changes were dropped because the store won a conflict.
  var discarded: [ManagedObject] = []
  /// Objects that turned out to be deleted by someone else (reported as deleted).
  var deletedElsewhere: Set<ObjectID> = []
}
