import Foundation

/// Fetching: the store's rows matched in SQL, merged with the context's pending changes
/// (evaluated in memory with the same semantics), sorted and sliced.
extension ObjectContext {
  /// The objects a request selects.
  public func fetch<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [Result] {
    let objects = try fetchObjects(request)
    if Result.self == ManagedObject.self, let same = objects as? [Result] { return same }
    return objects.compactMap { $0 as? Result }
  }

  /// How many objects a request selects (without loading them when nothing is pending).
  public func count<Result: ManagedObject>(for request: FetchRequest<Result>) throws -> Int {
    let plan = try QueryPlan(request: request, context: self)
    if !plan.hasPendingChanges(in: self) || !request.includesPendingChanges {
      return try store.countRows(plan)
    }
    return try fetchObjects(request).count
  }

  /// The IDs of the objects a request selects, in order.
  public func fetchObjectIDs<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [ObjectID] {
    let plan = try QueryPlan(request: request, context: self)
    if !plan.hasPendingChanges(in: self) || !request.includesPendingChanges {
      return try store.fetchIDs(plan)
    }
    return try fetchObjects(request).map(\.objectID)
  }

  /// Dictionaries of the chosen properties (`propertiesToFetch`, or every attribute) of the
  /// objects a request selects; distinct ones when `returnsDistinctResults` is set.
  /// Attributes are ``AttributeValue``s (nil when nil), to-one relationships their destinations'
  /// IDs as ``AttributeValue/string(_:)`` of the ID's description.
  public func fetchDictionaries<Result: ManagedObject>(_ request: FetchRequest<Result>) throws
    -> [[String: AttributeValue?]]
  {
    guard let entity = model.entityID(named: request.entityName) else {
      throw PersistenceError.unknownEntity(
        request.entityName,
        suggestion: EditDistance.suggestion(for: request.entityName, among: model.entities.map(\.name)))
    }
    let names = request.propertiesToFetch ?? layouts[entity].attributes.filter(\.isPersistent).map(\.name)
    for name in names
    where layouts[entity].attributeSlots[name] == nil && layouts[entity].relationshipSlots[name] == nil {
      throw PersistenceError.unknownProperty(
        name, entity: request.entityName,
        suggestion: EditDistance.suggestion(
          for: name, among: Array(layouts[entity].attributeSlots.keys) + Array(layouts[entity].relationshipSlots.keys)))
    }
    var results: [[String: AttributeValue?]] = []
    var seen = Set<[String: AttributeValue?]>()
    for object in try fetchObjects(request) {
      var row: [String: AttributeValue?] = [:]
      for name in names {
        if let slot = object.layout.attributeSlots[name] {
          row[name] = object.attributeValue(at: slot)
        } else if let slot = object.layout.relationshipSlots[name],
          !object.layout.relationships[slot].relationship.isToMany
        {
          row[name] = object.toOneValues[slot].map { .string("\($0)") }
        }
      }
      if request.returnsDistinctResults {
        guard seen.insert(row).inserted else { continue }
      }
      results.append(row)
    }
    return results
  }

  /// Iterates a large result a batch at a time (`fetchBatchSize`, default 500): only one
  /// batch of objects is held at once, as long as the caller does not keep them.
  public func fetchBatches<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> FetchBatchSequence<Result>
  {
    let ids = try fetchObjectIDs(request)
    return FetchBatchSequence(context: self, ids: ids, batchSize: max(1, request.fetchBatchSize ?? 500))
  }

  // MARK: - The fetch itself

  func fetchObjects<Result: ManagedObject>(_ request: FetchRequest<Result>) throws -> [ManagedObject] {
    let plan = try QueryPlan(request: request, context: self)
    let pending = request.includesPendingChanges && plan.hasPendingChanges(in: self)
    var objects: [ManagedObject]
    if !pending && plan.isFullyCompiled {
      objects = try store.fetchRows(plan, applyingSlice: true).map { object(for: $0) }
    } else {
      // Rows from the store (filtered in SQL as far as possible), then the exact predicate in
      // memory over the store's rows and the pending objects together.
      var candidates: [ManagedObject] = []
      var seen = Set<ObjectIdentifier>()
      for row in try store.fetchRows(plan, applyingSlice: false) {
        let object = object(for: row)
        if seen.insert(ObjectIdentifier(object)).inserted { candidates.append(object) }
      }
      if request.includesPendingChanges {
        for object in changedObjects.values where plan.covers(object.layout.entity) {
          if object.lifecycle != .deleted, seen.insert(ObjectIdentifier(object)).inserted { candidates.append(object) }
        }
        candidates.removeAll { $0.lifecycle == .deleted || $0.lifecycle == .gone }
      }
      if let predicate = request.predicate {
        candidates = try candidates.filter { try predicate.evaluate(with: $0) }
      }
      objects = try FetchSortDescriptor.sorted(candidates, using: request.sortDescriptors) { lhs, rhs in
        Self.primaryKeyOrder(lhs, rhs)
      }
      let start = min(request.fetchOffset, objects.count)
      let end = request.fetchLimit.map { min(objects.count, start + $0) } ?? objects.count
      objects = Array(objects[start..<end])
    }
    if !request.relationshipKeyPathsForPrefetching.isEmpty {
      prefetchRelationships(request.relationshipKeyPathsForPrefetching, of: objects)
    }
    return objects
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
  /// objects at once.
  func prefetchRelationships(_ keyPaths: [String], of objects: [ManagedObject]) {
    for keyPath in keyPaths {
      var level = objects
      for component in keyPath.split(separator: ".").map(String.init) {
        var next: [ObjectID] = []
        for object in level {
          guard let slot = object.layout.relationshipSlots[component] else { continue }
          if object.layout.relationships[slot].relationship.isToMany {
            next += loadedToMany(of: object, slot: slot)?.ids ?? []
          } else if let id = object.toOneValues[slot] {
            next.append(id)
          }
        }
        let missing = next.filter { !$0.isTemporary && (registry[$0]?.isFault ?? true) }
        if !missing.isEmpty { prefetch(missing) }
        level = next.compactMap { self.object(with: $0) }
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
