import SQLite

/// Deleting the rows of a save: one prepared `DELETE` per row (checked against the row's
/// version), then the join rows of every deleted object, one statement per join table and side.
extension StoreConnection {
  /// Deletes the rows of `deleted`, and every join row that refers to one of them.
  ///
  /// A row changed or deleted since it was read is a conflict and stays; under
  /// ``MergePolicy/contextWins`` it is deleted whatever its version. The files of
  /// the rows' external values (`previous`) are discarded when the write commits.
  func deleteRows(
    of deleted: [ManagedObject], previous: [ObjectIdentifier: StoredExternalValues], connection: SQLiteConnection,
    files: inout ExternalDataChanges, conflicts: inout ConflictLedger
  ) throws {
    guard !deleted.isEmpty else { return }
    var statements: [Int: SQLiteStatement] = [:]
    var keys: [Int: [Int64]] = [:]
    for object in deleted {
      guard let key = object.objectID.primaryKey else { continue }
      let entity = object.layout.entity.index
      let statement: SQLiteStatement
      if let known = statements[entity] {
        statement = known
      } else {
        let table = description.statements[entity].tableName
        statement = try connection.cachedStatement("DELETE FROM \(identifier: table) WHERE Z_PK = ? AND Z_OPT = ?")
        statements[entity] = statement
      }
      try statement.execute([.integer(key), .integer(object.storedVersion)])
      if connection.changes == 0 {
        if conflicts.policy == .contextWins {
          // Changed elsewhere, deleted anyway (or already gone).
          let table = description.statements[entity].tableName
          try connection.execute("DELETE FROM \(identifier: table) WHERE Z_PK = \(key)")
        } else {
          conflicts.record(object, storeVersion: try storedVersion(of: object, connection: connection))
          continue
        }
      }
      if let stored = previous[ObjectIdentifier(object)] {
        for value in stored.values.values { files.discard(value) }
      }
      keys[entity, default: []].append(key)
    }
    try deleteJoinRows(referringTo: keys, connection: connection)
  }

  /// Deletes the join rows whose source or destination is one of the rows `keys` names (by
  /// entity index): for each join table and each side whose entity a deleted row is of,
  /// ``SQLiteConnection/deleteRows(from:where:in:)``.
  ///
  /// A side is matched by entity, not only by key: keys are numbered per table, so the same
  /// number on the other side of a join table is another entity's row.
  func deleteJoinRows(referringTo keys: [Int: [Int64]], connection: SQLiteConnection) throws {
    guard !keys.isEmpty else { return }
    let model = description.model
    for join in schema.joinTables {
      let owner = join.relationship
      let destination = model[owner].destination
      var sources: [Int64] = []
      var destinations: [Int64] = []
      for (entity, rows) in keys.sorted(by: { $0.key < $1.key }) {
        let id = EntityID(entity)
        if model.entity(id, isKindOf: owner.entity) { sources += rows }
        if let destination, model.entity(id, isKindOf: destination) { destinations += rows }
      }
      for (column, rows) in [(join.sourceColumn, sources), (join.destinationColumn, destinations)] where !rows.isEmpty {
        try connection.deleteRows(from: join.name, where: column, in: rows)
      }
    }
  }
}
