import Foundation
import SQLite

/// Writing a save: conflict checks, key allocation, rows, relationship links, all in one
/// transaction.
extension StoreConnection {
  func write(_ changes: StoreChanges, policy: MergePolicy, context: ObjectContext) throws -> StoreWriteOutcome {
    var files = ExternalDataChanges(folder: description.externalDataFolder)
    do {
      let outcome = try writeTransaction("save") { connection in
        try write(changes, policy: policy, context: context, connection: connection, files: &files)
      }
      files.committed()
      return outcome
    } catch {
      files.rolledBack()
      throw error
    }
  }

  /// The work of ``write(_:policy:context:)``, in its transaction; `files` records the external-data files it
  /// writes and the ones it makes obsolete.
  ///
  /// Optimistic locking costs no read: each `UPDATE` and `DELETE` of a row the context read
  /// carries `AND Z_OPT = ?`, and a statement that matches no row is a conflict (its row was
  /// changed or deleted since). Only then is the row's version read, for the error (or, under
  /// ``MergePolicy/contextWins``, to overwrite the row whatever its version). Under
  /// ``MergePolicy/error`` the first conflict does not stop the writes — every conflict is
  /// reported together, and the transaction rolls back.
  private func write(
    _ changes: StoreChanges, policy: MergePolicy, context: ObjectContext, connection: SQLiteConnection,
    files: inout ExternalDataChanges
  ) throws -> StoreWriteOutcome {
    var outcome = StoreWriteOutcome()
    var conflicts = ConflictLedger(policy: policy)
    do {
      try writeRows(
        changes, context: context, connection: connection, files: &files, conflicts: &conflicts, outcome: &outcome)
    } catch  where policy == .error && !conflicts.found.isEmpty {
      // A write that failed after a conflict (a unique value the conflicting row still holds)
      // is the conflict's consequence: report the cause.
    }
    guard !conflicts.found.isEmpty else { return outcome }
    switch policy {
    case .error:
      throw SaveError.conflicts(
        conflicts.found.sorted { $0.object.objectID < $1.object.objectID }.map {
          SaveConflict(
            objectID: $0.object.objectID, entity: $0.object.layout.name, expectedVersion: $0.object.storedVersion,
            storeVersion: $0.storeVersion)
        })
    case .storeWins:
      outcome.discarded = conflicts.found.map(\.object)
    case .contextWins:
      break
    }
    return outcome
  }

  /// The rows of a save, in an order that keeps the store's UNIQUE indexes satisfied after every
  /// statement: deleted rows (and their join rows) first, then the constrained values that
  /// updated rows leave, then new rows, updated rows, and relationship links.
  private func writeRows(
    _ changes: StoreChanges, context: ObjectContext, connection: SQLiteConnection, files: inout ExternalDataChanges,
    conflicts: inout ConflictLedger, outcome: inout StoreWriteOutcome
  ) throws {
    // Column values of externally storable attributes that updates replace and deletions
    // remove, read before the rows change (their files go once the write commits).
    let previous = try storedExternalValues(of: [changes.updated, changes.deleted].joined(), connection: connection)

    // 1. Deleted rows and their links.
    try deleteRows(
      of: changes.deleted, previous: previous, connection: connection, files: &files, conflicts: &conflicts)

    // 2. Constrained values that updated rows leave, freed before other rows take them.
    try releaseUniqueValues(updated: changes.constrainedUpdates, connection: connection, conflicts: &conflicts)

    // 3. Permanent keys for inserted objects, per hierarchy.
    var permanent = PermanentKeys()
    try allocateKeys(for: changes.inserted, connection: connection, into: &permanent)
    outcome.permanentIDs = permanent
    func resolve(_ id: ObjectID) -> Int64? { permanent.primaryKey(of: id) }

    // Objects with to-many values to write (steps 6 and 7), gathered as the rows are written
    // rather than in a pass of their own over every changed object: only objects whose row was
    // written, in the order they were, new ones first. (A new object's relationships are loaded
    // and most often empty; an updated one has values to write only when it changed them.)
    var linked: [ManagedObject] = []

    // 4. New rows. Each entity's INSERT is looked up once per save, not once per object.
    var inserts: [Int: SQLiteStatement] = [:]
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
      var row = SQLiteParameterCursor(statement)
      try row.bind(.integer(resolve(object.objectID) ?? 0))
      try row.bind(.integer(Int64(statements.mapping.entityNumber)))
      try row.bind(.integer(1))
      try bindColumnValues(
        of: object, statements: statements, resolve: resolve, context: context, positions: &positions,
        files: &files, to: &row)
      try row.execute()
      if Self.hasToManyValuesToWrite(object) { linked.append(object) }
    }

    // 5. Updated rows: only the columns that changed, and Z_OPT, checked in the same statement.
    var updates = UpdateStatements()
    for object in changes.updated where !conflicts.skips(object) {
      let statements = description.statements[object.layout.entity.index]
      let changed = statements.changedColumns(of: object)
      let statement = try updates.statement(
        for: object.layout.entity.index, changed: changed, statements: statements, connection: connection)
      var row = SQLiteParameterCursor(statement)
      try bindColumnValues(
        of: object, statements: statements, only: changed, resolve: resolve, context: context,
        positions: &positions, files: &files, previous: previous[ObjectIdentifier(object)], to: &row)
      try row.bind(.integer(object.objectID.primaryKey ?? 0))
      try row.bind(.integer(object.storedVersion))
      try row.execute()
      guard connection.changes == 0 else {
        if Self.hasToManyValuesToWrite(object) { linked.append(object) }
        continue
      }
      // The row changed or went since it was read.
      let storeVersion = try storedVersion(of: object, connection: connection)
      guard conflicts.policy == .contextWins else {
        conflicts.record(object, storeVersion: storeVersion)
        continue
      }
      guard let storeVersion else {
        // Deleted elsewhere: it stays deleted, and the object is reported as deleted.
        outcome.deletedElsewhere.insert(object.objectID)
        conflicts.skip(object)
        continue
      }
      // The context's whole object overwrites the row, values it did not change included.
      let all = statements.allColumns
      var overwrite = SQLiteParameterCursor(
        try connection.cachedStatement(statements.updateSQL(of: all, checked: false)))
      try bindColumnValues(
        of: object, statements: statements, only: all, resolve: resolve, context: context, positions: &positions,
        files: &files, previous: previous[ObjectIdentifier(object)], to: &overwrite)
      try overwrite.bind(.integer(object.objectID.primaryKey ?? 0))
      try overwrite.execute()
      outcome.versions[ObjectIdentifier(object)] = storeVersion + 1
      if Self.hasToManyValuesToWrite(object) { linked.append(object) }
    }

    // 6. Ordering keys of ordered to-many relationships stored through the inverse key.
    for object in linked {
      try writeForeignKeyOrdering(of: object, connection: connection, resolve: resolve, context: context)
    }

    // 7. Join tables.
    for object in linked {
      try writeJoinRows(of: object, connection: connection, resolve: resolve, context: context)
    }
  }

  // MARK: - Conflicts

  struct Conflict {
    var object: ManagedObject
    var storeVersion: Int64?
  }

  /// The rows of a save found changed or deleted since they were read (every statement checks
  /// `Z_OPT`), and the objects whose changes are therefore not written.
  struct ConflictLedger {
    /// What a conflict leads to.
    let policy: MergePolicy
    /// The conflicts a ``MergePolicy/error`` save reports, or a ``MergePolicy/storeWins`` one
    /// discards; none under ``MergePolicy/contextWins``, which overwrites.
    private(set) var found: [Conflict] = []
    private var skipped: Set<ObjectIdentifier> = []

    init(policy: MergePolicy) {
      self.policy = policy
    }

    /// Whether the object's remaining writes are left out.
    func skips(_ object: ManagedObject) -> Bool {
      !skipped.isEmpty && skipped.contains(ObjectIdentifier(object))
    }

    /// Leaves the object's remaining writes out.
    mutating func skip(_ object: ManagedObject) {
      skipped.insert(ObjectIdentifier(object))
    }

    /// A conflict on the object's row (once per object), whose remaining writes are left out.
    mutating func record(_ object: ManagedObject, storeVersion: Int64?) {
      guard skipped.insert(ObjectIdentifier(object)).inserted else { return }
      found.append(Conflict(object: object, storeVersion: storeVersion))
    }
  }

  /// The `Z_OPT` of an object's row as the store holds it now; nil when the row is gone. Read
  /// only when a checked statement matched no row.
  func storedVersion(of object: ManagedObject, connection: SQLiteConnection) throws -> Int64? {
    let table = description.statements[object.layout.entity.index].tableName
    var version: Int64?
    try connection.forEachRow(
      "SELECT Z_OPT FROM \(identifier: table) WHERE Z_PK = \(object.objectID.primaryKey ?? 0)"
    ) { version = $0.int64(at: 0) }
    return version
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

  /// Binds the values of an object's own columns (those in `changed` when given), in the order
  /// of `statements.columns`, to the next parameters of `row`.
  ///
  /// A Binary value of an attribute that allows external storage goes to a new file of `files`
  /// when it is long; `previous` holds the object's stored values of such attributes (for an
  /// update): an unchanged value keeps its file, a replaced one's file is discarded.
  func bindColumnValues(
    of object: ManagedObject, statements: EntityStatements, only changed: ColumnSet? = nil,
    resolve: (ObjectID) -> Int64?, context: ObjectContext, positions: inout OrderPositions,
    files: inout ExternalDataChanges, previous: StoredExternalValues? = nil, to row: inout SQLiteParameterCursor
  ) throws {
    for (index, column) in statements.columns.enumerated() {
      if let changed, !changed.contains(index) { continue }
      switch column.source {
      case .attribute(let slot, let kind):
        if kind.storesExternally {
          try row.bind(try externalColumnValue(of: object, slot: slot, files: &files, previous: previous))
          continue
        }
        try object.bindAttributeValue(at: slot, kind: kind, to: &row)
      case .toOneKey(let slot):
        try row.bind(object.toOneValues[slot].flatMap(resolve).map { .integer($0) } ?? .null)
      case .toOneEntity(let slot):
        try row.bind(object.toOneValues[slot].map { .integer(Int64(schema[$0.entity].entityNumber)) } ?? .null)
      case .toOneOrder(let slot):
        try row.bind(
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
      guard let value = Self.toManyValueToWrite(of: object, slot: slot) else { continue }
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

  /// Whether a to-many relationship of an object has something to write: a new object's that
  /// is not empty, or a saved object's that changed. `writeForeignKeyOrdering` and
  /// `writeJoinRows` skip every relationship that has not, so an object without one is not
  /// passed to them (each walks the entity's relationship descriptions).
  static func hasToManyValuesToWrite(_ object: ManagedObject) -> Bool {
    object.toManyValues.indices.contains { toManyValueToWrite(of: object, slot: $0) != nil }
  }

  /// The value of a to-many slot when it has something to write (nil for an empty relationship
  /// of a new object, an unchanged one, or one not loaded).
  static func toManyValueToWrite(of object: ManagedObject, slot: Int) -> ToManyValue? {
    guard let value = object.toManyValues[slot],
      object.isInserted ? !value.ids.isEmpty : value != object.committedToManyValues[slot]
    else { return nil }
    return value
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
      guard let value = Self.toManyValueToWrite(of: object, slot: slot) else { continue }
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
