import SQLite

/// A fetch request resolved against the store's layout: the table, the entity numbers, and as
/// much of the predicate and sort as compiles to SQL.
struct QueryPlan {
  let entity: EntityID
  let mapping: EntityStoreLayout
  /// `Z_ENT` values to select.
  let entityNumbers: [Int]
  /// Whether the table holds rows of other entities than those selected (so `Z_ENT` must be
  /// tested).
  let filtersEntities: Bool
  /// The compiled WHERE condition (with its bound values), when the predicate compiled.
  let whereClause: SQLiteSQL?
  /// The compiled ORDER BY terms, when every sort descriptor compiled.
  let orderBy: SQLiteSQL?
  let hasPredicate: Bool
  let hasSort: Bool
  let limit: Int?
  let offset: Int
  let coveredEntities: Set<Int>
  /// Entities whose rows the compiled SQL reads besides the fetched rows themselves.
  let relatedEntities: Set<EntityID>
  /// Whether the compiled condition reads nothing but the row it tests (no subquery): an
  /// `UPDATE` can then test and change each row in turn, as no change can alter another row's
  /// outcome.
  let conditionReadsOnlyItsRow: Bool

  init<Result: ManagedObject>(request: FetchRequest<Result>, context: ObjectContext) throws {
    let model = context.model
    guard let entity = model.entityID(named: request.entityName) else {
      throw PersistenceError.unknownEntity(
        request.entityName,
        suggestion: EditDistance.suggestion(for: request.entityName, among: model.entities.map(\.name)))
    }
    self.entity = entity
    let schema = context.store.schema
    self.mapping = schema[entity]
    self.entityNumbers = request.includesSubentities ? mapping.entityNumbersInHierarchy : [mapping.entityNumber]
    let tableEntities = schema[mapping.rootEntity].entityNumbersInHierarchy
    self.filtersEntities = Set(entityNumbers) != Set(tableEntities)
    let covered = request.includesSubentities ? [entity] + model.descendants(of: entity) : [entity]
    self.coveredEntities = Set(covered.map(\.index))
    let compiler = QuerySQLCompiler(model: model, schema: schema, entity: entity)
    if let predicate = request.predicate {
      try compiler.checkKeyPaths(predicate, entityName: request.entityName)
      self.whereClause = compiler.compile(predicate)
    } else {
      self.whereClause = nil
    }
    self.conditionReadsOnlyItsRow = !compiler.readsOtherTables
    for descriptor in request.sortDescriptors {
      try compiler.resolve(descriptor.keyPath, from: entity)
    }
    for keyPath in request.relationshipKeyPathsForPrefetching {
      try compiler.checkRelationshipPath(PredicateKeyPath(keyPath))
    }
    self.orderBy = compiler.compile(request.sortDescriptors)
    self.relatedEntities = compiler.relatedEntities
    self.hasPredicate = request.predicate != nil
    self.hasSort = !request.sortDescriptors.isEmpty
    self.limit = request.fetchLimit.map { max(0, $0) }
    self.offset = max(0, request.fetchOffset)
  }

  /// Whether SQL alone answers the request exactly.
  var isFullyCompiled: Bool {
    (!hasPredicate || whereClause != nil) && (!hasSort || orderBy != nil)
  }

  /// Whether SQL alone selects the right rows (the order may still need the evaluator).
  var isFilterCompiled: Bool {
    !hasPredicate || whereClause != nil
  }

  /// Whether an object of this entity falls under the request's entity.
  func covers(_ entity: EntityID) -> Bool { coveredEntities.contains(entity.index) }

  /// Whether the context has unsaved changes that could change the result: changes to objects
  /// of the fetched entity, or to objects the predicate or sort reads through relationships.
  func hasPendingChanges(in context: ObjectContext) -> Bool {
    context.changedObjects.values.contains { $0.hasChanges && (covers($0.layout.entity) || isRelated($0, context)) }
  }

  /// Whether the compiled WHERE condition still selects a superset of the unchanged stored
  /// objects that match: no object it reads through a relationship has pending changes.
  func storeFilterHolds(in context: ObjectContext) -> Bool {
    relatedEntities.isEmpty || !context.changedObjects.values.contains { $0.hasChanges && isRelated($0, context) }
  }

  private func isRelated(_ object: ManagedObject, _ context: ObjectContext) -> Bool {
    relatedEntities.contains { context.model.entity(object.layout.entity, isKindOf: $0) }
  }

  /// `WHERE …` for the table (alias `t`), without slicing; without the compiled predicate
  /// when `filtered` is false.
  func condition(filtered: Bool = true) -> SQLiteSQL {
    var terms: [SQLiteSQL] = []
    if filtersEntities {
      terms.append(
        SQLiteSQL(
          verbatim: entityNumbers.count == 1
            ? "t.Z_ENT = ?" : "t.Z_ENT IN (\(SQLiteSQL.placeholders(count: entityNumbers.count)))",
          arguments: entityNumbers.map { .integer(Int64($0)) }))
    }
    if filtered, let whereClause {
      terms.append("(" + whereClause + ")")
    }
    return terms.isEmpty ? "1" : terms.joined(separator: " AND ")
  }

  /// ` ORDER BY …, t.Z_PK` and the slice, for a fully compiled plan.
  var orderAndSlice: SQLiteSQL {
    var sql: SQLiteSQL = " ORDER BY "
    if let orderBy {
      sql += orderBy
      sql += ", "
    }
    sql += "t.Z_PK"
    sql += slice
    return sql
  }

  /// ` LIMIT ? OFFSET ?`, or nothing without a limit or offset.
  var slice: SQLiteSQL {
    guard limit != nil || offset > 0 else { return "" }
    return SQLiteSQL(
      verbatim: " LIMIT ? OFFSET ?", arguments: [.integer(Int64(limit ?? -1)), .integer(Int64(offset))])
  }
}

extension StoreConnection {
  /// The rows a plan selects: sorted and sliced in SQL when `applyingSlice` (for a fully
  /// compiled plan), else every candidate row in primary-key order, filtered by the compiled
  /// predicate when `filtered`.
  func fetchRows(_ plan: QueryPlan, applyingSlice: Bool, filtered: Bool = true) throws -> [StoredRow] {
    var rows: [StoredRow] = []
    try forEachRow(plan, applyingSlice: applyingSlice, filtered: filtered) { rows.append($0) }
    return rows
  }

  /// Calls `body` with each row a plan selects, as ``fetchRows(_:applyingSlice:filtered:)``
  /// would return them, without collecting them first.
  func forEachRow(
    _ plan: QueryPlan, applyingSlice: Bool, filtered: Bool = true, _ body: (StoredRow) throws -> Void
  ) throws {
    try forEachCursor(plan, applyingSlice: applyingSlice, filtered: filtered) { try body(try $0.decode()) }
  }

  /// Calls `body` on each row a plan selects, with the row's identity and version read and its
  /// values not yet decoded: a row whose object the context holds with these values already
  /// costs no decoding.
  func forEachCursor(
    _ plan: QueryPlan, applyingSlice: Bool, filtered: Bool = true, _ body: (StoredRowCursor) throws -> Void
  ) throws {
    let statements = rootStatements(of: plan.entity)
    var sql = SQLiteSQL(verbatim: statements.selectPrefix)
    sql += " WHERE "
    sql += plan.condition(filtered: filtered)
    sql += applyingSlice ? plan.orderAndSlice : " ORDER BY t.Z_PK"
    let statement = try connection().cachedStatement(sql)
    let cursor = StoredRowCursor(statement, store: self, entity: plan.entity, tableName: statements.tableName)
    try statement.forEachRow { _ in
      try cursor.readIdentity()
      try body(cursor)
    }
  }

  /// The IDs a fully compiled plan selects, in order.
  func fetchIDs(_ plan: QueryPlan) throws -> [ObjectID] {
    // Without sub-entities every row is of the fetched entity: reading Z_PK alone lets an index
    // answer without visiting the table.
    let hasSubentities = plan.entityNumbers.count > 1
    var sql = SQLiteSQL(
      verbatim:
        "SELECT t.Z_PK\(hasSubentities ? ", t.Z_ENT" : "") FROM \(SQLiteIdentifier.quote(plan.mapping.tableName)) AS t WHERE "
    )
    sql += plan.condition()
    // Without a sort or a slice, the keys are put in order here: `ORDER BY t.Z_PK` after an
    // index search makes SQLite sort the rows through a temporary B-tree, which cost about
    // 1,100 instructions a row (the selection of a batch request). Keys are unique in the
    // table, so the order is the same.
    let ordersKeys = plan.orderBy == nil && plan.slice.isEmpty
    if !ordersKeys { sql += plan.orderAndSlice }
    let connection = try connection()
    let ids = try connection.mapRows(sql) { statement in
      let entity = hasSubentities ? description.entity(number: Int(statement.int64(at: 1))) ?? plan.entity : plan.entity
      return ObjectID(entity: entity, primaryKey: statement.int64(at: 0))
    }
    return ordersKeys ? Self.inKeyOrder(ids, entity: hasSubentities ? nil : plan.entity) : ids
  }

  /// IDs of one table's rows (unique keys) in ascending key order.
  ///
  /// IDs all of `entity` whose keys fill at least an eighth of their range (a batch request's
  /// selection over an index, which lists the keys in its own order) are put in order through
  /// a bitmap of the range: one pass over the keys and one over the range's words. A sort
  /// compares each key about log₂ n times: 300 instructions a key for 6,667 keys. Other IDs
  /// (of several entities, or sparse keys) are sorted.
  static func inKeyOrder(_ ids: [ObjectID], entity: EntityID?) -> [ObjectID] {
    guard ids.count > 1 else { return ids }
    if let entity {
      var low = Int64.max
      var high = Int64.min
      for id in ids {
        low = min(low, id.key)
        high = max(high, id.key)
      }
      // Stored keys are positive, and then the span cannot overflow; a store with a key of
      // zero or below (not written by Core Data or modelc) has its keys sorted.
      let span = low > 0 ? high - low : .max
      if span / 8 < Int64(ids.count) {
        var words = [UInt64](repeating: 0, count: Int(span / 64) + 1)
        for id in ids {
          let offset = Int(id.key - low)
          words[offset >> 6] |= 1 << UInt64(offset & 63)
        }
        var ordered: [ObjectID] = []
        ordered.reserveCapacity(ids.count)
        for (index, word) in words.enumerated() {
          var remaining = word
          while remaining != 0 {
            ordered.append(
              ObjectID(entity: entity, primaryKey: low + Int64(index << 6 + remaining.trailingZeroBitCount)))
            remaining &= remaining - 1
          }
        }
        // A key listed twice would be listed once: keys are unique, but the sort keeps them all.
        if ordered.count == ids.count { return ordered }
      }
    }
    return ids.sorted { $0.key < $1.key }
  }

  /// The number of rows a plan whose predicate compiled selects (the order does not matter).
  func countRows(_ plan: QueryPlan) throws -> Int {
    var inner = SQLiteSQL(verbatim: "SELECT 1 FROM \(SQLiteIdentifier.quote(plan.mapping.tableName)) AS t WHERE ")
    inner += plan.condition()
    inner += plan.slice
    let sql: SQLiteSQL = "SELECT COUNT(*) FROM (" + inner + ")"
    let connection = try connection()
    return try connection.firstRow(sql) { Int($0.int64(at: 0)) } ?? 0
  }
}

extension ObjectContext {
  /// SQLite's `EXPLAIN QUERY PLAN` for the query a request runs when nothing is pending (one
  /// line per step, such as `SEARCH t USING INDEX …`), or nil when part of the request does not
  /// compile to SQL and is evaluated in memory. For checking that a fetch uses an index.
  ///
  /// ```swift
  /// let steps = try context.explainQueryPlan(for: FetchRequest<ManagedObject>(
  ///   entityName: "Task", predicate: try FetchPredicate(format: "dueDate < %@", Date())))
  /// ```
  ///
  /// - Throws: ``PersistenceError`` for an unknown entity or key path; a `SQLiteError` when the
  ///   store cannot be read.
  public func explainQueryPlan<Result: ManagedObject>(for request: FetchRequest<Result>) throws -> [String]? {
    let plan = try QueryPlan(request: request, context: self)
    guard plan.isFullyCompiled else { return nil }
    let statements = store.rootStatements(of: plan.entity)
    var sql = SQLiteSQL(verbatim: "EXPLAIN QUERY PLAN " + statements.selectPrefix)
    sql += " WHERE "
    sql += plan.condition()
    sql += plan.orderAndSlice
    return try store.connection().mapRows(sql) { $0.text(at: 3) }
  }

  /// The `WHERE` condition that selects a request's objects in the table of its entity's
  /// hierarchy, with the table aliased `t` (entity numbers and the compiled predicate, with
  /// their bound values), or nil when the predicate does not compile to SQL. Sort, limit and
  /// offset are not part of it. For code that selects the same rows in its own statements,
  /// such as a migration reading a mapping's source objects.
  ///
  /// - Throws: ``PersistenceError`` for an unknown entity or key path.
  public func storeCondition<Result: ManagedObject>(for request: FetchRequest<Result>) throws -> SQLiteSQL? {
    let plan = try QueryPlan(request: request, context: self)
    guard plan.isFilterCompiled else { return nil }
    return plan.condition()
  }

  /// The SQL a request's predicate and sort compile to (`WHERE` condition and `ORDER BY`
  /// terms, with their arguments), nil for the parts that do not compile; for diagnostics.
  ///
  /// - Throws: ``PersistenceError`` for an unknown entity or key path.
  public func compiledSQL<Result: ManagedObject>(for request: FetchRequest<Result>) throws
    -> (condition: String?, order: String?)
  {
    let plan = try QueryPlan(request: request, context: self)
    return (plan.whereClause?.description, plan.orderBy?.description)
  }
}
