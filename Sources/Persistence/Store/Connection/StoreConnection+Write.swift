import Foundation
import SQLite

/// Writing a save: conflict checks, key allocation, rows, relationship links, all in one
/// transaction.
extension StoreConnection {
  func write(_ changes: StoreChanges, policy: MergePolicy, context: ObjectContext) throws -> StoreWriteOutcome {
    let connection = try connection()
    var files = ExternalDataChanges(folder: description.externalDataFolder)
    do {
      let outcome = try write(changes, policy: policy, context: context, connection: connection, files: &files)
      files.committed()
      return outcome
    } catch {
      files.rolledBack()
      throw error
    }
  }

  /// The transaction of ``write(_:policy:context:)``; `files` records the external-data files it
  /// writes and the ones it makes obsolete.
  private func write(
    _ changes: StoreChanges, policy: MergePolicy, context: ObjectContext, connection: SQLiteConnection,
    files: inout ExternalDataChanges
  ) throws -> StoreWriteOutcome {
    try connection.transaction(.immediate) { () throws -> StoreWriteOutcome in
      var outcome = StoreWriteOutcome()
      var updated = changes.updated
      var deleted = changes.deleted

      // 1. Optimistic locking: rows changed or deleted since they were read.
      let conflicts = try findConflicts(updated + deleted, connection: connection)
      if !conflicts.isEmpty {
        switch policy {
        case .error:
          throw SaveError.conflicts(
            conflicts.map {
              SaveConflict(
                objectID: $0.object.objectID, entity: $0.object.layout.name, expectedVersion: $0.object.storedVersion,
                storeVersion: $0.storeVersion)
            })
        case .storeWins:
          let losers = Set(conflicts.map { ObjectIdentifier($0.object) })
          outcome.discarded = conflicts.map(\.object)
          updated.removeAll { losers.contains(ObjectIdentifier($0)) }
          deleted.removeAll { losers.contains(ObjectIdentifier($0)) }
        case .contextWins:
          let gone = conflicts.filter { $0.storeVersion == nil }
          let goneIDs = Set(gone.map { ObjectIdentifier($0.object) })
          updated.removeAll { goneIDs.contains(ObjectIdentifier($0)) }
          outcome.deletedElsewhere = Set(gone.map(\.object.objectID))
        }
      }

      // 2. Constrained values that rows leave, freed before other rows take them.
      try releaseUniqueValues(updated: updated, deleted: deleted, connection: connection)

      // 3. Permanent keys for inserted objects, per hierarchy.
      var permanent = PermanentKeys()
      try allocateKeys(for: changes.inserted, connection: connection, into: &permanent)
      outcome.permanentIDs = permanent
      func resolve(_ id: ObjectID) -> Int64? { permanent.primaryKey(of: id) }

      // Column values of externally storable attributes that updates replace and deletions
      // remove, read before the rows change (their files go once the write commits).
      let previous = try storedExternalValues(of: updated + deleted, connection: connection)

      // 4. Rows. Each entity's INSERT is looked up once per save, not once per object.
      var inserts: [Int: SQLiteStatement] = [:]
      var values: [SQLiteValue] = []
      var positions = OrderPositions()
      for object in changes.inserted {
        let statements = description.statements[object.layout.entity.index]
        let statement: SQLiteStatement
        if let cached = inserts[object.layout.entity.index] {
          statement = cached
        } else {
          statement = try connection.cachedStatement(SQLiteSQL(verbatim: statements.insertSQL))
          inserts[object.layout.entity.index] = statement
        }
        values.removeAll(keepingCapacity: true)
        values.append(.integer(resolve(object.objectID) ?? 0))
        values.append(.integer(Int64(statements.mapping.entityNumber)))
        values.append(.integer(1))
        try appendColumnValues(
          of: object, statements: statements, resolve: resolve, context: context, positions: &positions,
          files: &files, to: &values)
        try statement.execute(values)
      }
      for object in updated {
        let statements = description.statements[object.layout.entity.index]
        let checked = policy != .contextWins
        let statement = try connection.cachedStatement(
          SQLiteSQL(verbatim: checked ? statements.updateCheckedSQL : statements.updateSQL))
        values.removeAll(keepingCapacity: true)
        try appendColumnValues(
          of: object, statements: statements, resolve: resolve, context: context, positions: &positions,
          files: &files, previous: previous[ObjectIdentifier(object)], to: &values)
        values.append(.integer(object.objectID.primaryKey ?? 0))
        if checked { values.append(.integer(object.storedVersion)) }
        try statement.execute(values)
        outcome.versions[ObjectIdentifier(object)] = object.storedVersion + 1
      }

      // 5. Ordering keys of ordered to-many relationships stored through the inverse key.
      for object in changes.inserted + updated {
        try writeForeignKeyOrdering(of: object, connection: connection, resolve: resolve, context: context)
      }

      // 6. Join tables.
      for object in changes.inserted + updated {
        try writeJoinRows(of: object, connection: connection, resolve: resolve, context: context)
      }

      // 7. Deleted rows and their links.
      for object in deleted {
        guard let key = object.objectID.primaryKey else { continue }
        if let stored = previous[ObjectIdentifier(object)] {
          for value in stored.values.values { files.discard(value) }
        }
        let mapping = schema[object.layout.entity]
        try connection.execute(
          "DELETE FROM \(identifier: mapping.tableName) WHERE Z_PK = \(key)")
        for join in schema.joinTables where involves(join, entity: object.layout.entity) {
          try connection.execute(
            "DELETE FROM \(identifier: join.name) WHERE \(identifier: join.sourceColumn) = \(key) OR \(identifier: join.destinationColumn) = \(key)"
          )
        }
      }
      return outcome
    }
  }

  // MARK: - Conflicts

  struct Conflict {
    var object: ManagedObject
    var storeVersion: Int64?
  }

  func findConflicts(_ objects: [ManagedObject], connection: SQLiteConnection) throws -> [Conflict] {
    var conflicts: [Conflict] = []
    var byTable: [String: [ManagedObject]] = [:]
    for object in objects where object.objectID.primaryKey != nil {
      byTable[schema[object.layout.entity].tableName, default: []].append(object)
    }
    for (table, group) in byTable.sorted(by: { $0.key < $1.key }) {
      for chunk in stride(from: 0, to: group.count, by: 500).map({ Array(group[$0..<min($0 + 500, group.count)]) }) {
        var versions: [Int64: Int64] = [:]
        let sql = SQLiteSQL(
          verbatim:
            "SELECT Z_PK, Z_OPT FROM \(SQLiteIdentifier.quote(table)) WHERE Z_PK IN (\(chunk.map { _ in "?" }.joined(separator: ", ")))",
          arguments: chunk.map { .integer($0.objectID.primaryKey ?? 0) })
        try connection.forEachRow(sql) { versions[$0.int64(at: 0)] = $0.int64(at: 1) }
        for object in chunk {
          let stored = versions[object.objectID.primaryKey ?? 0]
          if stored != object.storedVersion {
            conflicts.append(Conflict(object: object, storeVersion: stored))
          }
        }
      }
    }
    return conflicts
  }

  // MARK: - Keys

  func allocateKeys(
    for inserted: [ManagedObject], connection: SQLiteConnection, into permanent: inout PermanentKeys
  )
    throws
  {
    var byRoot: [Int: [ManagedObject]] = [:]
    for object in inserted {
      byRoot[schema[object.layout.entity].rootEntity.index, default: []].append(object)
    }
    for (root, objects) in byRoot.sorted(by: { $0.key < $1.key }) {
      var next = try connection.reservePrimaryKeys(objects.count, forHierarchyOf: schema[EntityID(root)])
      for object in objects {
        permanent.set(next, for: object.objectID)
        next += 1
      }
    }
  }

  // MARK: - Column values

  /// Appends the values of an object's own columns, in the order of `statements.columns`.
  ///
  /// A Binary value of an attribute that allows external storage goes to a new file of `files`
  /// when it is long; `previous` holds the object's stored values of such attributes (for an
  /// update): an unchanged value keeps its file, a replaced one's file is discarded.
  func appendColumnValues(
    of object: ManagedObject, statements: EntityStatements, resolve: (ObjectID) -> Int64?, context: ObjectContext,
    positions: inout OrderPositions, files: inout ExternalDataChanges, previous: StoredExternalValues? = nil,
    to values: inout [SQLiteValue]
  ) throws {
    for column in statements.columns {
      switch column.source {
      case .attribute(let slot, let kind):
        if kind.storesExternally {
          values.append(
            try externalColumnValue(of: object, slot: slot, files: &files, previous: previous))
          continue
        }
        values.append(StoredValueCodec.encode(object.attributeValues[slot], kind: kind))
      case .toOneKey(let slot):
        values.append(object.toOneValues[slot].flatMap(resolve).map { .integer($0) } ?? .null)
      case .toOneEntity(let slot):
        values.append(
          object.toOneValues[slot].map { .integer(Int64(schema[$0.entity].entityNumber)) } ?? .null)
      case .toOneOrder(let slot):
        values.append(
          orderKey(of: object, slot: slot, context: context, positions: &positions).map { .integer($0) } ?? .null)
      }
    }
  }

  /// Positions of objects in the ordered to-many lists a save writes, worked out once per list
  /// (a search of the list per object would make large ordered relationships quadratic).
  struct OrderPositions {
    struct List: Hashable {
      var owner: ObjectIdentifier
      var slot: Int
    }

    var lists: [List: [ObjectID: Int]] = [:]
  }

  /// The position (from 1) of an object among its to-one destination's ordered inverse.
  func orderKey(of object: ManagedObject, slot: Int, context: ObjectContext, positions: inout OrderPositions)
    -> Int64?
  {
    guard let destinationID = object.toOneValues[slot], let destination = context.registry[destinationID],
      let inverseName = object.layout.relationships[slot].inverseName,
      let inverseSlot = destination.layout.relationshipSlots[inverseName],
      let list = destination.toManyValues[inverseSlot]
    else { return nil }
    let key = OrderPositions.List(owner: ObjectIdentifier(destination), slot: inverseSlot)
    if positions.lists[key] == nil {
      var indexes: [ObjectID: Int] = [:]
      indexes.reserveCapacity(list.ids.count)
      for (index, id) in list.ids.enumerated() { indexes[id] = index }
      positions.lists[key] = indexes
    }
    return positions.lists[key]?[object.objectID].map { Int64($0 + 1) }
  }

  func writeForeignKeyOrdering(
    of object: ManagedObject, connection: SQLiteConnection, resolve: (ObjectID) -> Int64?, context: ObjectContext
  ) throws {
    var mapping: EntityStoreLayout?
    for (slot, item) in object.layout.relationships.enumerated()
    where item.relationship.isToMany && item.relationship.isOrdered {
      guard let value = object.toManyValues[slot],
        object.isInserted ? !value.ids.isEmpty : value != object.committedToManyValues[slot]
      else { continue }
      if mapping == nil { mapping = schema[object.layout.entity] }
      guard let toMany = mapping?.toMany(named: item.relationship.name),
        case .inverseForeignKey(let key) = toMany.storage,
        let orderColumn = key.orderColumn
      else { continue }
      let statement = try connection.cachedStatement(
        "UPDATE \(identifier: key.table) SET \(identifier: orderColumn) = ? WHERE Z_PK = ?")
      for (index, id) in value.ids.enumerated() {
        guard let primaryKey = resolve(id) else { continue }
        try statement.execute([.integer(Int64(index + 1)), .integer(primaryKey)])
      }
    }
  }

  func involves(_ join: JoinTableMapping, entity: EntityID) -> Bool {
    let model = description.model
    let owner = join.relationship
    if model.entity(entity, isKindOf: owner.entity) { return true }
    if let destination = model[owner].destination, model.entity(entity, isKindOf: destination) { return true }
    return false
  }

  /// Writes the join-table rows of an object's changed to-many relationships. A many-to-many
  /// pair changes on both sides at once, so only the side that owns the table writes.
  func writeJoinRows(
    of object: ManagedObject, connection: SQLiteConnection, resolve: (ObjectID) -> Int64?, context: ObjectContext
  ) throws {
    var mapping: EntityStoreLayout?
    guard let source = resolve(object.objectID) else { return }
    for (slot, item) in object.layout.relationships.enumerated() where item.relationship.isToMany {
      // Nothing to write for an empty relationship of a new object, or an unchanged one.
      guard let value = object.toManyValues[slot],
        object.isInserted ? !value.ids.isEmpty : value != object.committedToManyValues[slot]
      else { continue }
      if mapping == nil { mapping = schema[object.layout.entity] }
      guard let toMany = mapping?.toMany(named: item.relationship.name), case .joinTable(let join) = toMany.storage,
        let table = schema.joinTables.first(where: { $0.name == join.table })
      else { continue }
      // One side writes: the ordered one when only one is ordered, else the table's owner.
      let declared = description.model.relationship(named: item.relationship.name, in: object.layout.entity)?.id
      let inverseOrdered =
        item.inverseName.flatMap {
          description.model.relationship(named: $0, in: item.destination)?.relationship.isOrdered
        }
        ?? false
      let writes: Bool
      if table.isReflexive || table.inverse == nil {
        writes = true
      } else if toMany.isOrdered != inverseOrdered {
        writes = toMany.isOrdered
      } else {
        writes = declared == table.relationship
      }
      guard writes else { continue }
      let committed = object.isInserted ? ToManyValue() : (object.committedToManyValues[slot] ?? ToManyValue())
      if toMany.isOrdered, let orderColumn = join.orderColumn {
        // Rewrite the object's rows in order.
        try connection.execute(
          "DELETE FROM \(identifier: join.table) WHERE \(identifier: join.sourceColumn) = \(source)")
        let statement = try connection.cachedStatement(
          "INSERT INTO \(identifier: join.table) (\(identifier: join.sourceColumn), \(identifier: join.destinationColumn), \(identifier: orderColumn)) VALUES (?, ?, ?)"
        )
        for (index, id) in value.ids.enumerated() {
          guard let destination = resolve(id) else { continue }
          try statement.execute([.integer(source), .integer(destination), .integer(Int64(index + 1))])
        }
        continue
      }
      let insert = try connection.cachedStatement(
        "INSERT OR IGNORE INTO \(identifier: join.table) (\(identifier: join.sourceColumn), \(identifier: join.destinationColumn)) VALUES (?, ?)"
      )
      for id in value.ids where !committed.members.contains(id) {
        guard let destination = resolve(id) else { continue }
        try insert.execute([.integer(source), .integer(destination)])
      }
      let delete = try connection.cachedStatement(
        "DELETE FROM \(identifier: join.table) WHERE \(identifier: join.sourceColumn) = ? AND \(identifier: join.destinationColumn) = ?"
      )
      for id in committed.ids where !value.members.contains(id) {
        guard let destination = resolve(id) else { continue }
        try delete.execute([.integer(source), .integer(destination)])
      }
    }
  }
}
