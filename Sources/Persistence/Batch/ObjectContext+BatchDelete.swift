import SQLite

/// The SQL of a batch delete, with deletion rules.
extension ObjectContext {
  /// A relationship of deleted objects whose rule leaves work after the closure is known.
  private struct PendingRule {
    var entity: EntityID
    var slot: Int
    var sources: [Int64]
    /// Destinations by source, for Deny.
    var destinations: [Int64: [ObjectID]]
  }

  /// Deletes the selected rows and, by Cascade rules, their destinations; applies Nullify and
  /// Deny rules. Returns the deleted IDs, the IDs of rows whose keys were cleared, and the
  /// external-data files the deleted rows referred to (to remove once the transaction
  /// commits). Runs inside the caller's transaction.
  func batchDelete(_ request: BatchDeleteRequest) throws -> (
    deleted: [ObjectID], updated: [ObjectID], obsoleteFiles: [String]
  ) {
    _ = try batchEntity(named: request.entityName)
    let (selected, _) = try batchSelection(
      entityName: request.entityName, predicate: request.predicate, includesSubentities: request.includesSubentities)
    var deleting = Set(selected)
    var worklist = selected
    var denied: [PendingRule] = []
    var nullified: [PendingRule] = []
    // The closure of the deletion under Cascade rules, level by level, grouped by entity.
    while !worklist.isEmpty {
      let groups = Dictionary(grouping: worklist, by: \.entity)
      worklist = []
      for (entity, ids) in groups.sorted(by: { $0.key.index < $1.key.index }) {
        let keys = ids.compactMap(\.primaryKey)
        for (slot, item) in layouts[entity].relationships.enumerated() where !item.relationship.isTransient {
          switch item.relationship.deletionRule {
          case .cascade:
            for destination in try destinations(of: entity, keys: keys, slot: slot).values.joined()
            where deleting.insert(destination).inserted {
              worklist.append(destination)
            }
            nullified.append(PendingRule(entity: entity, slot: slot, sources: keys, destinations: [:]))
          case .deny:
            denied.append(
              PendingRule(
                entity: entity, slot: slot, sources: keys,
                destinations: try destinations(of: entity, keys: keys, slot: slot)))
          case .nullify:
            nullified.append(PendingRule(entity: entity, slot: slot, sources: keys, destinations: [:]))
          case .noAction:
            continue
          }
        }
      }
    }
    for rule in denied {
      let holding = rule.destinations.values.filter { $0.contains { !deleting.contains($0) } }.count
      if holding > 0 {
        throw BatchRequestError.deleteDenied(
          entity: layouts[rule.entity].name,
          relationship: layouts[rule.entity].relationships[rule.slot].relationship.name,
          count: holding)
      }
    }
    var updated = Set<ObjectID>()
    for rule in nullified {
      updated.formUnion(try nullify(rule.entity, slot: rule.slot, sources: rule.sources, deleting: deleting))
    }
    // Deny rules passed: their links go with the objects too.
    for rule in denied {
      updated.formUnion(try nullify(rule.entity, slot: rule.slot, sources: rule.sources, deleting: deleting))
    }
    let connection = try store.connection()
    let obsoleteFiles = try store.externalFileNames(of: Array(deleting), connection: connection)
    let byTable = Dictionary(grouping: deleting.compactMap { id in id.primaryKey.map { (id.entity, $0) } }) {
      store.schema[$0.0].tableName
    }
    for (table, rows) in byTable.sorted(by: { $0.key < $1.key }) {
      try connection.deleteRows(from: table, where: "Z_PK", in: rows.map(\.1))
    }
    updated.subtract(deleting)
    return (deleting.sorted(), updated.sorted(), obsoleteFiles)
  }

  /// The destinations of a relationship of stored objects, by source key.
  func destinations(of entity: EntityID, keys: [Int64], slot: Int) throws -> [Int64: [ObjectID]] {
    let item = layouts[entity].relationships[slot]
    if item.relationship.isToMany {
      return try store.loadToMany(entity: entity, primaryKeys: keys, relationship: item)
    }
    guard let columns = store.schema[entity].toOne(named: item.relationship.name) else { return [:] }
    let table = SQLiteIdentifier.quote(store.schema[entity].tableName)
    let key = SQLiteIdentifier.quote(columns.foreignKeyColumn)
    let number = columns.entityColumn.map(SQLiteIdentifier.quote) ?? "NULL"
    var result: [Int64: [ObjectID]] = [:]
    let connection = try store.connection()
    for start in stride(from: 0, to: keys.count, by: 500) {
      let chunk = keys[start..<min(start + 500, keys.count)]
      let sql = SQLiteSQL(
        verbatim:
          "SELECT Z_PK, \(key), \(number) FROM \(table) WHERE \(key) IS NOT NULL AND Z_PK IN (\(SQLiteSQL.placeholders(count: chunk.count)))",
        arguments: chunk.map { .integer($0) })
      try connection.forEachRow(sql) { statement in
        let destination =
          statement.isNull(at: 2) ? item.destination : store.description.entity(number: Int(statement.int64(at: 2)))
        result[statement.int64(at: 0), default: []].append(
          ObjectID(entity: destination ?? item.destination, primaryKey: statement.int64(at: 1)))
      }
    }
    return result
  }

  /// Removes deleted objects from their destinations' inverse: clears the inverse foreign keys
  /// that name them (bumping those rows' versions) and removes their join-table rows. Returns
  /// the rows whose keys were cleared.
  private func nullify(_ entity: EntityID, slot: Int, sources: [Int64], deleting: Set<ObjectID>) throws
    -> [ObjectID]
  {
    let item = layouts[entity].relationships[slot]
    let schema = store.schema
    let connection = try store.connection()
    var cleared: [ObjectID] = []
    // The key column (and its companions) in the destination table that names the source.
    let inverseColumns: (table: String, key: String, others: [String])?
    if item.relationship.isToMany {
      switch schema[entity].toMany(named: item.relationship.name)?.storage {
      case .inverseForeignKey(let foreignKey):
        inverseColumns = (
          foreignKey.table, foreignKey.foreignKeyColumn,
          [foreignKey.entityColumn, foreignKey.orderColumn].compactMap { $0 }
        )
      case .joinTable(let join):
        try connection.deleteRows(from: join.table, where: join.sourceColumn, in: sources)
        return []
      case nil:
        return []
      }
    } else if let inverseName = item.inverseName, !item.inverseIsToMany,
      let inverse = schema[item.destination].toOne(named: inverseName)
    {
      // One-to-one: the destination's own key names the source.
      inverseColumns = (
        inverse.table, inverse.foreignKeyColumn, [inverse.entityColumn, inverse.orderColumn].compactMap { $0 }
      )
    } else {
      // The key lives in the deleted row itself.
      return []
    }
    guard let (table, key, others) = inverseColumns else { return [] }
    let quotedTable = SQLiteIdentifier.quote(table)
    let assignments = ([key] + others).map { "\(SQLiteIdentifier.quote($0)) = NULL" }.joined(separator: ", ")
    for start in stride(from: 0, to: sources.count, by: 500) {
      let chunk = Array(sources[start..<min(start + 500, sources.count)])
      let placeholders = SQLiteSQL.placeholders(count: chunk.count)
      let condition = "\(SQLiteIdentifier.quote(key)) IN (\(placeholders))"
      let rows = try connection.mapRows(
        SQLiteSQL(
          verbatim: "SELECT Z_PK, Z_ENT FROM \(quotedTable) WHERE \(condition)", arguments: chunk.map { .integer($0) })
      ) { statement in
        ObjectID(
          entity: store.description.entity(number: Int(statement.int64(at: 1))) ?? item.destination,
          primaryKey: statement.int64(at: 0))
      }
      let kept = rows.filter { !deleting.contains($0) }
      guard !kept.isEmpty else { continue }
      try connection.execute(
        SQLiteSQL(
          verbatim:
            "UPDATE \(quotedTable) SET \(assignments), Z_OPT = Z_OPT + 1 WHERE Z_PK IN (\(SQLiteSQL.placeholders(count: kept.count)))",
          arguments: kept.map { .integer($0.key) }))
      cleared += kept
    }
    return cleared
  }
}
