/// An object as the store holds it, ignoring the context's pending changes: what a fetch with
/// ``FetchRequest/includesPendingChanges`` off judges by when its predicate or sort did not
/// compile to SQL. Relationships are read from the store too.
struct StoredSnapshot: PredicateEvaluable {
  /// The row.
  let row: StoredRow
  let loader: StoredSnapshotLoader

  func predicateValue(forKey key: String) throws -> PredicateRuntimeValue {
    let layout = loader.layouts[row.objectID.entity]
    if let slot = layout.attributeSlots[key] {
      if layout.attributes[slot].attributeType == .composite {
        let attributes = row.attributes
        return .object(CompositePredicateValue(layout: layout, path: key) { attributes[$0] })
      }
      return .scalar(PredicateValue(row.attributes[slot]))
    }
    guard let slot = layout.relationshipSlots[key] else { throw PredicateEvaluationError.unknownKey(key) }
    let relationship = layout.relationships[slot]
    if relationship.relationship.isToMany {
      guard let key = row.objectID.primaryKey else { return .objects([]) }
      let ids = try loader.store.loadToMany(entity: row.objectID.entity, primaryKey: key, relationship: relationship)
      return .objects(try loader.snapshots(of: ids))
    }
    guard let id = row.toOne[slot], let snapshot = try loader.snapshots(of: [id]).first else { return .null }
    return .object(snapshot)
  }

  /// The object's ID, as for managed objects.
  var predicateIdentity: PredicateValue? { row.objectID.predicateValue }
}

/// Reads stored rows as snapshots, each row once per fetch.
final class StoredSnapshotLoader {
  let store: StoreConnection
  let layouts: ObjectLayouts
  private var rows: [ObjectID: StoredRow] = [:]

  init(context: ObjectContext) {
    self.store = context.store
    self.layouts = context.layouts
  }

  /// The snapshot of a row read already.
  func snapshot(of row: StoredRow) -> StoredSnapshot {
    rows[row.objectID] = row
    return StoredSnapshot(row: row, loader: self)
  }

  /// The snapshots of stored objects, in the order of `ids` (missing ones left out).
  func snapshots(of ids: [ObjectID]) throws -> [StoredSnapshot] {
    let missing = ids.filter { rows[$0] == nil && !$0.isTemporary }
    if !missing.isEmpty {
      for row in try store.loadRows(missing) { rows[row.objectID] = row }
    }
    return ids.compactMap { rows[$0].map { StoredSnapshot(row: $0, loader: self) } }
  }
}
