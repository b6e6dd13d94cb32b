import Foundation

/// Fetching: the store's rows matched in SQL, merged with the context's pending changes
/// (evaluated in memory with the same semantics), sorted and sliced.
extension ObjectContext {
  /// The objects a request selects.
  ///
  /// With ``FetchRequest/includesPendingChanges`` (the default) the result is what a save would
  /// leave in the store: inserted objects that match are included, deleted ones are not, and
  /// changed ones are judged by their current values. Without it, the store's rows are judged
  /// by their saved values (the objects returned still carry any pending changes).
  ///
  /// ```swift
  /// var request = FetchRequest<ManagedObject>(
  ///   entityName: "Task", predicate: try FetchPredicate(format: "priority > %d AND completedAt == nil", 1),
  ///   sortDescriptors: [FetchSortDescriptor("dueDate", ascending: true)])
  /// request.fetchLimit = 20
  /// let tasks = try context.fetch(request)
  /// ```
  ///
  /// - Throws: ``PersistenceError/unknownEntity(_:suggestion:)`` when the model has no entity
  ///   ``FetchRequest/entityName``; ``PersistenceError/unknownProperty(_:entity:suggestion:)``
  ///   for a key path of the predicate, a sort descriptor or
  ///   ``FetchRequest/relationshipKeyPathsForPrefetching`` that names no property; a
  ///   ``PredicateEvaluationError`` when a predicate or sort the store cannot answer is
  ///   evaluated in memory and fails (an unresolved `$variable`, a bad regular expression, a
  ///   value of the wrong kind); ``PersistenceError/storeFailure(_:)`` or a `SQLiteError` when
  ///   the store cannot be read.
  public func fetch<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [Result] {
    let objects = try fetchObjects(request, plan: QueryPlan(request: request, context: self))
    // The same type: no cast of each element (`as? [Result]` would check every one).
    if Result.self == ManagedObject.self { return unsafeBitCast(objects, to: [Result].self) }
    // Objects of a generated class are made as that class: comparing each one's class with the
    // result type is a pointer comparison, where a dynamic cast walks the class hierarchy.
    let resultClass = ObjectIdentifier(Result.self)
    if objects.allSatisfy({ ObjectIdentifier(type(of: $0)) == resultClass }) {
      return unsafeBitCast(objects, to: [Result].self)
    }
    return objects.compactMap { $0 as? Result }
  }

  /// How many objects a request selects; counted in SQL unless pending changes or a
  /// predicate that does not compile require loading them.
  ///
  /// ```swift
  /// let open = try context.count(for: FetchRequest<ManagedObject>(
  ///   entityName: "Task", predicate: try FetchPredicate(format: "completedAt == nil")))
  /// ```
  ///
  /// - Throws: What ``fetch(_:)`` throws.
  public func count<Result: ManagedObject>(for request: FetchRequest<Result>) throws -> Int {
    let plan = try QueryPlan(request: request, context: self)
    if plan.isFilterCompiled && !(request.includesPendingChanges && plan.hasPendingChanges(in: self)) {
      return try store.countRows(plan)
    }
    return try fetchObjects(request, plan: plan).count
  }

  /// The IDs of the objects a request selects, in order; read in SQL without loading objects
  /// unless pending changes or a part that does not compile require them.
  ///
  /// - Throws: What ``fetch(_:)`` throws.
  public func fetchObjectIDs<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [ObjectID] {
    let plan = try QueryPlan(request: request, context: self)
    if plan.isFullyCompiled && !(request.includesPendingChanges && plan.hasPendingChanges(in: self)) {
      return try store.fetchIDs(plan)
    }
    return try fetchObjects(request, plan: plan).map(\.objectID)
  }

  /// Iterates a large result a batch at a time (`fetchBatchSize`, default 500): the IDs are
  /// fetched first, then each batch's rows in one query, and only one batch of objects is held
  /// at once, as long as the caller does not keep them.
  ///
  /// - Throws: What ``fetch(_:)`` throws, for reading the IDs; each batch is read as it is
  ///   iterated.
  public func fetchBatches<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> FetchBatchSequence<Result>
  {
    let ids = try fetchObjectIDs(request)
    return FetchBatchSequence(context: self, ids: ids, batchSize: max(1, request.fetchBatchSize ?? 500))
  }

  // MARK: - The fetch itself

  func fetchObjects<Result: ManagedObject>(_ request: FetchRequest<Result>, plan: QueryPlan) throws
    -> [ManagedObject]
  {
    let pending = request.includesPendingChanges && plan.hasPendingChanges(in: self)
    var objects: [ManagedObject]
    if !pending && plan.isFullyCompiled {
      // Every object made here is held by the result, so pruning during the loop would only
      // scan; the threshold moves past the end of the fetch instead.
      let threshold = pruneThreshold
      pruneThreshold = .max
      defer { pruneThreshold = max(threshold, registry.count * 2) }
      objects = []
      if registry.holdsSavedObjects(ofAnyOf: plan.coveredEntities) {
        try store.forEachCursor(plan, applyingSlice: true) { objects.append(try object(at: $0)) }
      } else {
        // None of the rows can have an object yet: skip looking each one up.
        try store.forEachCursor(plan, applyingSlice: true) { objects.append(try unregisteredObject(at: $0)) }
      }
    } else if !request.includesPendingChanges {
      objects = try fetchStoredObjects(request, plan: plan)
    } else {
      objects = try fetchWithPendingChanges(request, plan: plan)
    }
    if !request.relationshipKeyPathsForPrefetching.isEmpty {
      prefetchRelationships(request.relationshipKeyPathsForPrefetching, of: objects)
    }
    return objects
  }

  /// The store's rows (filtered in SQL as far as the predicate compiled) merged with the
  /// pending objects, judged in memory by their current values, sorted and sliced.
  private func fetchWithPendingChanges<Result: ManagedObject>(_ request: FetchRequest<Result>, plan: QueryPlan)
    throws -> [ManagedObject]
  {
    // The compiled condition can pre-filter the stored rows unless it reads objects (through
    // relationships) whose pending changes the store does not know.
    let filtered = plan.whereClause != nil && plan.storeFilterHolds(in: self)
    var candidates: [ManagedObject] = []
    var seen = Set<ObjectIdentifier>()
    for row in try store.fetchRows(plan, applyingSlice: false, filtered: filtered) {
      let object = object(for: row)
      if seen.insert(ObjectIdentifier(object)).inserted { candidates.append(object) }
    }
    let selectedByStore = seen
    for object in changedObjects.values where plan.covers(object.layout.entity) {
      if object.lifecycle != .deleted, seen.insert(ObjectIdentifier(object)).inserted { candidates.append(object) }
    }
    candidates.removeAll { $0.lifecycle == .deleted || $0.lifecycle == .gone }
    if let predicate = request.predicate {
      // Unchanged rows the compiled condition selected match as they are.
      candidates = try candidates.filter { object in
        if filtered && !object.hasChanges && selectedByStore.contains(ObjectIdentifier(object)) { return true }
        return try predicate.evaluate(with: object)
      }
    }
    let sorted = try FetchSortDescriptor.sorted(candidates, using: request.sortDescriptors) { lhs, rhs in
      Self.primaryKeyOrder(lhs, rhs)
    }
    return Self.slice(sorted, offset: request.fetchOffset, limit: request.fetchLimit)
  }

  /// The store's rows judged by their saved values only, for requests that exclude pending
  /// changes but do not compile fully: the predicate and sort are evaluated in memory over
  /// snapshots of the rows.
  private func fetchStoredObjects<Result: ManagedObject>(_ request: FetchRequest<Result>, plan: QueryPlan) throws
    -> [ManagedObject]
  {
    let loader = StoredSnapshotLoader(context: self)
    var snapshots = try store.fetchRows(plan, applyingSlice: false).map { loader.snapshot(of: $0) }
    if let predicate = request.predicate, plan.whereClause == nil {
      snapshots = try snapshots.filter { try predicate.evaluate(with: $0) }
    }
    let sorted = try FetchSortDescriptor.sorted(snapshots, using: request.sortDescriptors) { lhs, rhs in
      lhs.row.objectID.key < rhs.row.objectID.key
        ? .orderedAscending : (lhs.row.objectID.key > rhs.row.objectID.key ? .orderedDescending : .orderedSame)
    }
    return Self.slice(sorted, offset: request.fetchOffset, limit: request.fetchLimit).map { object(for: $0.row) }
  }

  static func slice<Element>(_ elements: [Element], offset: Int, limit: Int?) -> [Element] {
    let start = min(max(0, offset), elements.count)
    let end = limit.map { min(elements.count, start + max(0, $0)) } ?? elements.count
    return Array(elements[start..<end])
  }

  /// Saved objects by primary key, then unsaved ones in insertion order: the order of rows in
  /// the store with the pending ones after them.
  static func primaryKeyOrder(_ lhs: ManagedObject, _ rhs: ManagedObject) -> ComparisonResult {
    let left = lhs.objectID.key
    let right = rhs.objectID.key
    switch (left > 0, right > 0) {
    case (true, false): return .orderedAscending
    case (false, true): return .orderedDescending
    case (true, true): return left < right ? .orderedAscending : (left > right ? .orderedDescending : .orderedSame)
    case (false, false): return left > right ? .orderedAscending : (left < right ? .orderedDescending : .orderedSame)
    }
  }

  /// Loads the destinations of relationships (key paths through relationships) for many
  /// objects at once: one query per relationship and level for to-many relationships, one per
  /// chunk of destinations for their rows.
  func prefetchRelationships(_ keyPaths: [String], of objects: [ManagedObject]) {
    for keyPath in keyPaths {
      var level = objects
      for component in keyPath.split(separator: ".").map(String.init) {
        loadToManyInBulk(component, of: level)
        var next: [ObjectID] = []
        var seen = Set<ObjectID>()
        var destinations: [(ManagedObject, [ObjectID])] = []
        for object in level {
          if object.isFaultStorage { fulfillFault(object) }
          guard let slot = object.layout.relationshipSlots[component] else { continue }
          let ids: [ObjectID]
          if object.layout.relationships[slot].relationship.isToMany {
            ids = loadedToMany(of: object, slot: slot)?.ids ?? []
          } else {
            ids = object.toOneValues[slot].map { [$0] } ?? []
          }
          destinations.append((object, ids))
          for id in ids where seen.insert(id).inserted { next.append(id) }
        }
        let missing = next.filter { !$0.isTemporary && (registry[$0]?.isFault ?? true) }
        var loaded: [ObjectID: ManagedObject] = [:]
        if !missing.isEmpty {
          do {
            for row in try store.loadRows(missing) {
              let object = object(for: row)
              loaded[object.objectID] = object
            }
          } catch {
            lastAccessError = error
          }
        }
        for (object, ids) in destinations {
          object.prefetched += ids.compactMap { loaded[$0] ?? registry[$0] }
        }
        level = next.compactMap { loaded[$0] ?? self.object(with: $0) }
      }
    }
  }

  /// Loads a to-many relationship of every object that has not loaded it, grouped by entity.
  ///
  /// Deleting a fetch result loads the relationships its deletion rules follow through here,
  /// for every object: the slot is looked up once per layout (the objects of a result share
  /// one), and an object whose relationship values were all unloaded shares one storage for
  /// its current and committed values, as they are equal.
  func loadToManyInBulk(_ name: String, of objects: [ManagedObject]) {
    var groups: [(entity: EntityID, slot: Int, objects: [ManagedObject])] = []
    var lastLayout: ObjectLayout?
    var lastSlot: Int?
    var lastGroup = -1
    for object in objects {
      let layout = object.layout
      if layout !== lastLayout {
        lastLayout = layout
        lastSlot = layout.relationshipSlots[name].flatMap { layout.relationships[$0].relationship.isToMany ? $0 : nil }
        lastGroup = lastSlot == nil ? -1 : (groups.firstIndex { $0.entity == layout.entity } ?? -1)
        if let lastSlot, lastGroup < 0 {
          groups.append((layout.entity, lastSlot, []))
          lastGroup = groups.count - 1
        }
      }
      guard let slot = lastSlot, object.toManyValues[slot] == nil, object.objectID.primaryKey != nil else { continue }
      groups[lastGroup].objects.append(object)
    }
    for group in groups where !group.objects.isEmpty {
      let relationship = layouts[group.entity].relationships[group.slot]
      do {
        let destinations = try store.loadToMany(
          entity: group.entity, primaryKeys: group.objects.compactMap(\.objectID.primaryKey), relationship: relationship
        )
        for object in group.objects where object.toManyValues[group.slot] == nil {
          let value = ToManyValue(destinations[object.objectID.key] ?? [])
          let bothUnloaded = object.toManyValues.isAllNil && object.committedToManyValues.isAllNil
          object.toManyValues[group.slot] = value
          if bothUnloaded {
            object.committedToManyValues = object.toManyValues
          } else {
            object.committedToManyValues[group.slot] = value
          }
        }
      } catch {
        lastAccessError = error
      }
    }
  }
}

/// A large fetch result, loaded one batch at a time.
public struct FetchBatchSequence<Result: ManagedObject>: Sequence {
  let context: ObjectContext
  let ids: [ObjectID]
  let batchSize: Int

  /// How many objects the result has.
  public var count: Int { ids.count }

  public func makeIterator() -> Iterator {
    Iterator(sequence: self)
  }

  /// Yields the objects, loading each batch's rows in one query.
  public struct Iterator: IteratorProtocol {
    let sequence: FetchBatchSequence
    var position = 0
    var batch: [Result] = []
    var batchPosition = 0

    public mutating func next() -> Result? {
      if batchPosition >= batch.count {
        guard position < sequence.ids.count else { return nil }
        let end = Swift.min(sequence.ids.count, position + sequence.batchSize)
        let slice = Array(sequence.ids[position..<end])
        position = end
        batch = []
        sequence.context.pruneRegistry()
        sequence.context.prefetch(slice.filter { sequence.context.registry[$0]?.isFault ?? true })
        batch = slice.compactMap { sequence.context.object(with: $0) as? Result }
        batchPosition = 0
        if batch.isEmpty { return next() }
      }
      defer { batchPosition += 1 }
      return batch[batchPosition]
    }
  }
}
