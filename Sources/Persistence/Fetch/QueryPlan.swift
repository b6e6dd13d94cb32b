/// A fetch request resolved against the store's layout: the table, the entity numbers, and as
/// much of the predicate and sort as compiles to SQL.
struct QueryPlan {
  let entity: EntityID
  let mapping: EntityMapping
  /// `Z_ENT` values to select.
  let entityNumbers: [Int]
  /// The compiled WHERE condition (with its bound values), when the predicate compiled.
  let whereClause: SQLiteSQL?
  /// The compiled ORDER BY terms, when every sort descriptor compiled.
  let orderBy: SQLiteSQL?
  let hasPredicate: Bool
  let hasSort: Bool
  let limit: Int?
  let offset: Int
  let coveredEntities: Set<Int>

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
    let covered = request.includesSubentities ? [entity] + model.descendants(of: entity) : [entity]
    self.coveredEntities = Set(covered.map(\.index))
    let compiler = QuerySQLCompiler(model: model, schema: schema, entity: entity)
    if let predicate = request.predicate {
      try compiler.checkKeyPaths(predicate, entityName: request.entityName)
      self.whereClause = compiler.compile(predicate)
    } else {
      self.whereClause = nil
    }
    self.orderBy = compiler.compile(request.sortDescriptors)
    self.hasPredicate = request.predicate != nil
    self.hasSort = !request.sortDescriptors.isEmpty
    self.limit = request.fetchLimit
    self.offset = request.fetchOffset
  }

  /// Whether SQL alone answers the request exactly.
  var isFullyCompiled: Bool {
    (!hasPredicate || whereClause != nil) && (!hasSort || orderBy != nil)
  }

  /// Whether an object of this entity falls under the request's entity.
  func covers(_ entity: EntityID) -> Bool { coveredEntities.contains(entity.index) }

  /// Whether the context has unsaved changes that could change the result.
  func hasPendingChanges(in context: ObjectContext) -> Bool {
    context.changedObjects.values.contains { covers($0.layout.entity) && $0.hasChanges }
  }

  /// `WHERE …` for the table (alias `t`), without slicing.
  var condition: SQLiteSQL {
    var sql = SQLiteSQL(
      verbatim: "t.Z_ENT IN (\(entityNumbers.map { _ in "?" }.joined(separator: ", ")))",
      arguments: entityNumbers.map { .integer(Int64($0)) })
    if let whereClause {
      sql += " AND ("
      sql += whereClause
      sql += ")"
    }
    return sql
  }
}

extension StoreConnection {
  /// The rows a plan selects, sorted and sliced in SQL when `applyingSlice` and the plan
  /// compiled fully.
  func fetchRows(_ plan: QueryPlan, applyingSlice: Bool) throws -> [StoredRow] {
    let statements = rootStatements(of: plan.entity)
    var sql = SQLiteSQL(verbatim: statements.selectPrefix)
    sql += " WHERE "
    sql += plan.condition
    if applyingSlice {
      sql += " ORDER BY "
      if let orderBy = plan.orderBy {
        sql += orderBy
        sql += ", "
      }
      sql += "t.Z_PK"
      if plan.limit != nil || plan.offset > 0 {
        sql += SQLiteSQL(
          verbatim: " LIMIT ? OFFSET ?", arguments: [.integer(Int64(plan.limit ?? -1)), .integer(Int64(plan.offset))])
      }
    } else {
      sql += " ORDER BY t.Z_PK"
    }
    let connection = try connection()
    var rows: [StoredRow] = []
    try connection.forEachRow(sql) { statement in
      rows.append(try decodeRow(statement, tableName: statements.tableName))
    }
    return rows
  }

  /// Object IDs only.
  func fetchIDs(_ plan: QueryPlan) throws -> [ObjectID] {
    if !plan.isFullyCompiled {
      return try fetchRows(plan, applyingSlice: false).map(\.objectID)
    }
    var sql = SQLiteSQL(
      verbatim: "SELECT t.Z_PK, t.Z_ENT FROM \(SQLiteIdentifier.quote(plan.mapping.tableName)) AS t WHERE ")
    sql += plan.condition
    sql += " ORDER BY "
    if let orderBy = plan.orderBy {
      sql += orderBy
      sql += ", "
    }
    sql += "t.Z_PK"
    if plan.limit != nil || plan.offset > 0 {
      sql += SQLiteSQL(
        verbatim: " LIMIT ? OFFSET ?", arguments: [.integer(Int64(plan.limit ?? -1)), .integer(Int64(plan.offset))])
    }
    let connection = try connection()
    return try connection.mapRows(sql) { statement in
      let entity = schema.mapping(forEntityNumber: Int(statement.int64(at: 1)))?.entity ?? plan.entity
      return ObjectID(entity: entity, primaryKey: statement.int64(at: 0))
    }
  }

  /// The number of rows a fully compiled plan selects.
  func countRows(_ plan: QueryPlan) throws -> Int {
    guard plan.isFullyCompiled || !plan.hasPredicate else {
      return try fetchIDs(plan).count
    }
    var inner = SQLiteSQL(verbatim: "SELECT t.Z_PK FROM \(SQLiteIdentifier.quote(plan.mapping.tableName)) AS t WHERE ")
    inner += plan.condition
    if plan.limit != nil || plan.offset > 0 {
      inner += SQLiteSQL(
        verbatim: " LIMIT ? OFFSET ?", arguments: [.integer(Int64(plan.limit ?? -1)), .integer(Int64(plan.offset))])
    }
    var sql: SQLiteSQL = "SELECT COUNT(*) FROM ("
    sql += inner
    sql += ")"
    let connection = try connection()
    return try connection.firstRow(sql) { Int($0.int64(at: 0)) } ?? 0
  }

}
