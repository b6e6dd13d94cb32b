import SQLite

/// Saving: validation, one transaction, then the in-memory bookkeeping.
extension ObjectContext {
  /// Validates every pending change and writes all of them in one transaction.
  ///
  /// On failure nothing is written and the pending changes stay in the context, to be fixed and
  /// saved again (or rolled back). On success, inserted objects get permanent IDs, and a
  /// ``SaveNotification`` goes to the container's observers.
  ///
  /// ```swift
  /// let task = context.insert(Task.self)
  /// task.title = "Write the release notes"
  /// do {
  ///   try context.save()
  /// } catch .validation(let failures) {
  ///   for failure in failures { print(failure) }  // the object, the property, the rule broken
  /// }
  /// ```
  ///
  /// - Throws: ``SaveError`` (typed): ``SaveError/validation(_:)`` listing every rule of the
  ///   model the changes break (required values, ranges, lengths, patterns, counts, uniqueness,
  ///   a denied delete); ``SaveError/conflicts(_:)`` when rows were changed or deleted elsewhere
  ///   since they were read and the merge policy is ``MergePolicy/error``; ``SaveError/store(_:)``
  ///   when the store refuses the write (a full disk, a lock held too long, a read-only store).
  ///   Nothing is written in any case.
  public func save() throws(SaveError) {
    try save(validating: true)
  }

  /// Writes every pending change in one transaction, checking the model's rules only when
  /// `validating`.
  ///
  /// Saving without validation is for the stages of a migration that build objects in several
  /// passes (Core Data's migration manager turns validation off for them too): an object whose
  /// required relationship is set by a later pass is saved before it is complete, and the
  /// finished store is validated as a whole (``validationFailures(of:)``). The store's own
  /// constraints (UNIQUE indexes) still hold.
  ///
  /// ```swift
  /// // Pass 1 of a migration stage: objects whose required `list` is set in pass 2.
  /// try context.save(validating: false)
  /// ```
  ///
  /// - Throws: ``SaveError`` (typed): ``SaveError/validation(_:)`` when `validating` and a rule
  ///   is broken (without validation, only when a UNIQUE index of the store refuses a row);
  ///   ``SaveError/conflicts(_:)`` with ``MergePolicy/error`` and rows changed elsewhere;
  ///   ``SaveError/store(_:)`` when the write fails. Nothing is written in any case.
  public func save(validating: Bool) throws(SaveError) {
    let (changes, objectFailures) = pendingChanges(validating: validating)
    let (inserted, updated, deleted) = (changes.inserted, changes.updated, changes.deleted)
    if inserted.isEmpty && deleted.isEmpty && updated.isEmpty {
      untrackAll()
      return
    }
    // Constraints that the store's UNIQUE indexes enforce are left to them when nothing else
    // fails: a violation then fails the write (which rolls back), and the full check below
    // names the objects, so a valid save does not read the store for them.
    if let objectFailures {
      let failures = try validationFailures(
        of: changes, objectFailures: objectFailures, deferringStoreEnforcedUniqueness: true)
      guard failures.isEmpty else { throw SaveError.validation(failures) }
    }

    let outcome: StoreWriteOutcome
    do {
      outcome = try store.write(changes, policy: mergePolicy, context: self)
    } catch let error as SaveError {
      throw error
    } catch let error as SQLiteError where error.extendedCode == .constraintUnique {
      let failures = try validationFailures(
        of: changes, objectFailures: objectFailures ?? objectValidationFailures(changes))
      throw failures.isEmpty ? SaveError.store("\(error)") : SaveError.validation(failures)
    } catch {
      throw SaveError.store("\(store.explain(error))")
    }
    didSave(inserted: inserted, updated: updated, deleted: deleted, outcome: outcome)
  }

  /// Every rule the pending changes break — what ``save()`` would report — without writing
  /// anything; empty when a save would pass validation. Uniqueness is checked against the
  /// store too, so this reads it (and throws ``SaveError/store(_:)`` when it cannot).
  public func validatePendingChanges() throws(SaveError) -> [ValidationFailure] {
    let (changes, objectFailures) = pendingChanges(validating: true)
    return try validationFailures(of: changes, objectFailures: objectFailures ?? [])
  }

  /// Every rule of the model that these objects break as they are now, saved or not: required
  /// values, ranges, lengths, patterns, relationship counts (each to-many relationship with a
  /// rule is read from the store when not loaded) and uniqueness among the objects and against
  /// the store. For checking objects that were saved without validation.
  ///
  /// - Throws: ``SaveError/store(_:)`` when the store cannot be read.
  public func validationFailures(of objects: [ManagedObject]) throws(SaveError) -> [ValidationFailure] {
    var validator = ObjectValidator()
    var failures: [ValidationFailure] = []
    for object in objects {
      if object.isFault {
        do { try load(object) } catch { throw SaveError.store("\(error)") }
      }
      // Only a to-many relationship with a rule on its count can fail; loading the others
      // would cost a query per object for nothing.
      for relationship in object.layout.validationRules.relationships
      where relationship.isToMany && object.toManyValues[relationship.slot] == nil
        && (!relationship.isOptional || relationship.minCount > 0 || relationship.maxCount > 0)
      {
        do {
          _ = try object.objects(forKey: relationship.name)
        } catch {
          throw SaveError.store("\(error)")
        }
      }
      validator.validate(object, in: self, into: &failures)
    }
    do {
      let stored = objects.filter { !$0.isInserted }
      let inserted = objects.filter(\.isInserted)
      failures += try store.uniquenessFailures(
        inserted: inserted, updated: stored, deleted: [], skippingStoreEnforced: false)
    } catch {
      throw SaveError.store("\(error)")
    }
    return failures
  }

  /// The objects a save writes, in a stable order: inserted objects in the order they were
  /// inserted (their temporary numbers count down from -1), so they get primary keys in that
  /// order, and the others by ID, so failures are listed the same way every time.
  ///
  /// Updated objects that moved a value a uniqueness constraint names are listed apart too
  /// (``StoreChanges/constrainedUpdates``), and with `validating` each inserted and updated
  /// object is checked against its own rules (``ObjectValidator``), found here while each
  /// object is at hand: a save of many objects reaches each from memory on every pass over
  /// them. The failures come in the order of the lists returned, as if each list were
  /// validated after it was sorted; nil without `validating`.
  private func pendingChanges(validating: Bool = false) -> (StoreChanges, objectFailures: [ValidationFailure]?) {
    var inserted: [ManagedObject] = []
    var updated: [ManagedObject] = []
    var deleted: [ManagedObject] = []
    var constrainedUpdates: [ManagedObject] = []
    var validator = ObjectValidator()
    var insertedFailures: [ValidationFailure] = []
    var updatedFailures: [ValidationFailure] = []
    // Objects are added as they change, which for a bulk edit of fetched objects is already
    // their order: each list is sorted only when an object came out of order.
    var insertedInOrder = true
    var updatedInOrder = true
    var deletedInOrder = true
    for object in changedObjects.values {
      switch object.lifecycle {
      case .inserted:
        // Temporary keys count down: -1 was inserted first.
        if let last = inserted.last, last.objectID.key < object.objectID.key { insertedInOrder = false }
        inserted.append(object)
        if validating { validator.validate(object, in: self, into: &insertedFailures) }
      case .deleted:
        if let last = deleted.last, object.objectID < last.objectID { deletedInOrder = false }
        deleted.append(object)
      case .persisted where object.isUpdated:
        if let last = updated.last, object.objectID < last.objectID { updatedInOrder = false }
        updated.append(object)
        if object.changesConstrainedValue { constrainedUpdates.append(object) }
        if validating { validator.validate(object, in: self, into: &updatedFailures) }
      case .persisted, .gone: break
      }
    }
    if !insertedInOrder {
      inserted.sort { $0.objectID.key > $1.objectID.key }
      insertedFailures = Self.stablySorted(insertedFailures) { $0.objectID.key > $1.objectID.key }
    }
    if !updatedInOrder {
      updated.sort { $0.objectID < $1.objectID }
      constrainedUpdates.sort { $0.objectID < $1.objectID }
      updatedFailures = Self.stablySorted(updatedFailures) { $0.objectID < $1.objectID }
    }
    if !deletedInOrder { deleted.sort { $0.objectID < $1.objectID } }
    let changes = StoreChanges(
      inserted: inserted, updated: updated, deleted: deleted, constrainedUpdates: constrainedUpdates)
    return (changes, validating ? insertedFailures + updatedFailures : nil)
  }

  /// The failures ordered by their objects, each object's in the order they were found.
  private static func stablySorted(
    _ failures: [ValidationFailure], by areInIncreasingOrder: (ValidationFailure, ValidationFailure) -> Bool
  ) -> [ValidationFailure] {
    failures.enumerated().sorted { lhs, rhs in
      areInIncreasingOrder(lhs.element, rhs.element)
        || (!areInIncreasingOrder(rhs.element, lhs.element) && lhs.offset < rhs.offset)
    }.map(\.element)
  }

  /// Each inserted and updated object's failures of its own rules, in the order of the lists.
  private func objectValidationFailures(_ changes: StoreChanges) -> [ValidationFailure] {
    var validator = ObjectValidator()
    var failures: [ValidationFailure] = []
    for objects in [changes.inserted, changes.updated] {
      for object in objects { validator.validate(object, in: self, into: &failures) }
    }
    return failures
  }

  /// Every rule the changes break, given each inserted and updated object's failures of its
  /// own rules (``pendingChanges(validating:)``). With `deferringStoreEnforcedUniqueness`,
  /// uniqueness constraints enforced by a store index are not checked when no other rule fails
  /// (all failures are still reported together when one does).
  private func validationFailures(
    of changes: StoreChanges, objectFailures: [ValidationFailure], deferringStoreEnforcedUniqueness: Bool = false
  ) throws(SaveError) -> [ValidationFailure] {
    let validator = ObjectValidator()
    var failures = objectFailures
    loadDeniedToMany(of: changes.deleted)
    for object in changes.deleted {
      failures += validator.validateDeletion(object, in: self)
    }
    do {
      failures += try store.uniquenessFailures(
        inserted: changes.inserted, updated: changes.updated, deleted: changes.deleted,
        skippingStoreEnforced: deferringStoreEnforcedUniqueness && failures.isEmpty)
    } catch {
      throw SaveError.store("\(error)")
    }
    return failures
  }

  /// Loads the to-many relationships with a Deny rule that deleted objects have not loaded, in
  /// bulk: checking the rule reads each of them, which would otherwise be a query per object.
  private func loadDeniedToMany(of deleted: [ManagedObject]) {
    var names: Set<String> = []
    var layouts: Set<ObjectIdentifier> = []
    for object in deleted where layouts.insert(ObjectIdentifier(object.layout)).inserted {
      for item in object.layout.relationships
      where item.relationship.deletionRule == .deny && item.relationship.isToMany {
        names.insert(item.relationship.name)
      }
    }
    for name in names.sorted() { loadToManyInBulk(name, of: deleted) }
  }

  /// Brings the objects in line with what was written.
  private func didSave(
    inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], outcome: StoreWriteOutcome
  ) {
    // Objects whose changes lost to the store's (storeWins) are refreshed.
    for object in outcome.discarded {
      try? refresh(object, mergeChanges: false)
    }
    // The notification's sets are built only when someone listens.
    let notifies = observers.isObserved
    var insertedIDs = Set<ObjectID>(minimumCapacity: notifies ? inserted.count : 0)
    var updatedIDs = Set<ObjectID>(minimumCapacity: notifies ? updated.count : 0)
    var deletedIDs = Set<ObjectID>()
    // Inserted objects take their permanent IDs and become persisted.
    let replacements = outcome.permanentIDs
    for object in inserted {
      if let permanent = replacements[object.objectID] {
        registry[object.objectID] = nil
        object.objectID = permanent
        registry[permanent] = object
      }
      object.lifecycle = .persisted
      object.storedVersion = 1
      if notifies { insertedIDs.insert(object.objectID) }
    }
    // One pass over the changed objects, which leave the set as it goes (a save of many
    // objects reaches each from memory on every pass): permanent IDs replace temporary ones
    // wherever they appear, written rows take their new versions, and what was written becomes
    // the committed state.
    let discarded = Set(outcome.discarded.map(ObjectIdentifier.init))
    // `updated` is in the set's order unless it was sorted: its objects are matched as the pass
    // meets them, and any it does not meet are given their versions after.
    var matched = 0
    func written(_ object: ManagedObject) {
      guard discarded.isEmpty || !discarded.contains(ObjectIdentifier(object)) else { return }
      object.storedVersion =
        outcome.versions.isEmpty
        ? object.storedVersion + 1 : outcome.versions[ObjectIdentifier(object)] ?? object.storedVersion + 1
      if notifies { updatedIDs.insert(object.objectID) }
    }
    changedObjects.drain { object in
      if !replacements.isEmpty {
        for slot in object.toOneValues.indices {
          if let id = object.toOneValues[slot], let permanent = replacements[id] {
            object.toOneValues[slot] = permanent
          }
        }
        for slot in object.toManyValues.indices {
          guard let value = object.toManyValues[slot], value.ids.contains(where: \.isTemporary) else { continue }
          // One pass over the list, not a search per replaced ID.
          object.toManyValues[slot] = ToManyValue(value.ids.map { replacements[$0] ?? $0 })
        }
      }
      if matched < updated.count && updated[matched] === object {
        matched += 1
        written(object)
      }
      if object.lifecycle == .persisted {
        object.committedAttributes = .unchanged
        object.committedToOneValues = object.toOneValues
        object.commitToManyValues()
      }
    }
    for object in updated[matched...] { written(object) }
    for object in deleted {
      object.lifecycle = .gone
      registry[object.objectID] = nil
      if notifies { deletedIDs.insert(object.objectID) }
    }
    deletedIDs.formUnion(outcome.deletedElsewhere)
    guard notifies else { return }
    let notification = SaveNotification(
      insertedObjects: insertedIDs, updatedObjects: updatedIDs, deletedObjects: deletedIDs,
      sourceContext: ObjectIdentifier(self))
    observers.post(notification)
  }
}

/// The objects a save writes.
struct StoreChanges {
  var inserted: [ManagedObject]
  var updated: [ManagedObject]
  var deleted: [ManagedObject]
  /// The updated objects whose values under a uniqueness constraint changed
  /// (``ManagedObject/changesConstrainedValue``), in the order of `updated`: the only ones
  /// whose stored constrained values a save releases before writing rows.
  var constrainedUpdates: [ManagedObject]
}

/// What the store did.
struct StoreWriteOutcome {
  /// Permanent IDs of the inserted objects, by their temporary IDs.
  var permanentIDs = PermanentKeys()
  /// New row versions of updated objects.
  var versions: [ObjectIdentifier: Int64] = [:]
  /// Objects whose changes were dropped because the store won a conflict.
  var discarded: [ManagedObject] = []
  /// Objects that turned out to be deleted by someone else (reported as deleted).
  var deletedElsewhere: Set<ObjectID> = []
}
