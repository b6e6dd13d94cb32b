import CSQLite

/// Preparing, caching and running SQL on a connection.
extension SQLiteConnection {
  /// Prepares exactly one statement and binds the fragment's arguments.
  ///
  /// The caller owns the result; keep it and re-execute it with new bindings for repeated
  /// work, or use ``cachedStatement(_:)`` to let the connection keep it.
  ///
  /// - Throws: ``SQLiteError`` for syntax errors (with the offset of the offending token),
  ///   and `SQLITE_MISUSE` if `sql` holds no statement or more than one (use ``execute(_:)``
  ///   for scripts).
  public func prepare(_ sql: SQLiteSQL) throws -> SQLiteStatement {
    let statement = try prepareSingle(sql.text, persistent: false)
    if !sql.arguments.isEmpty { try statement.bind(sql.arguments) }
    return statement
  }

  /// The connection's cached statement for this SQL text, prepared on first use, reset, with
  /// bindings cleared and the fragment's arguments bound.
  ///
  /// If the cached statement is still in use (a row loop over the same SQL is running), a
  /// fresh uncached statement is returned instead, so nested use is safe.
  public func cachedStatement(_ sql: SQLiteSQL) throws -> SQLiteStatement {
    let statement: SQLiteStatement
    if let cached = statementCache.statement(for: sql.text) {
      if cached.isBusy {
        statement = try prepareSingle(sql.text, persistent: false)
      } else {
        cached.reset()
        if sql.arguments.isEmpty { cached.clearBindings() }
        statement = cached
      }
    } else {
      statement = try prepareSingle(sql.text, persistent: true)
      statementCache.insert(statement, for: sql.text)
    }
    if !sql.arguments.isEmpty { try statement.bind(sql.arguments) }
    return statement
  }

  /// The most prepared statements the connection keeps (default 128); 0 disables caching.
  public var statementCacheCapacity: Int {
    get { statementCache.capacity }
    set { statementCache.capacity = max(0, newValue) }
  }

  /// The number of statements currently cached.
  package var cachedStatementCount: Int { statementCache.count }

  /// Finalizes every cached statement that no caller holds, e.g. before closing.
  public func clearStatementCache() {
    statementCache.removeAll()
  }

  /// Runs SQL to completion: one statement, or a script of several separated by `;`.
  ///
  /// A single statement goes through the statement cache, so running the same `INSERT`
  /// repeatedly is cheap. In a script, the fragment's arguments are handed out in order,
  /// each statement taking as many as it has parameters; statements run one after another
  /// and the first failure stops the script (earlier statements stay applied unless the
  /// caller wrapped the call in a transaction). Rows returned by queries are ignored.
  ///
  /// - Throws: ``SQLiteError`` carrying the failing statement's SQL, or `SQLITE_RANGE` when
  ///   the arguments don't match the script's parameters.
  public func execute(_ sql: SQLiteSQL) throws {
    if let cached = statementCache.statement(for: sql.text), !cached.isBusy {
      try cached.execute(sql.arguments)
      return
    }
    let pointer = try database.open()
    var arguments = sql.arguments[...]
    try sql.text.withCString { start in
      var next: UnsafePointer<CChar>? = start
      var isFirst = true
      while let current = next, current.pointee != 0 {
        var handle: OpaquePointer?
        let resultCode = sqlite3_prepare_v2(pointer, current, -1, &handle, &next)
        guard resultCode == SQLITE_OK else {
          throw SQLiteError(resultCode: resultCode, connection: pointer, sql: String(cString: current))
        }
        guard let handle else { continue }  // only whitespace or a comment
        let isSingle = isFirst && isBlank(next)
        isFirst = false
        let text = isSingle ? sql.text : String(cString: sqlite3_sql(handle))
        let statement = SQLiteStatement(handle: handle, database: database, sql: text)
        let count = statement.parameterCount
        guard arguments.count >= count else {
          throw SQLiteError(
            code: .range, message: "not enough arguments: \(sql.arguments.count) given for the script", sql: text)
        }
        try statement.execute(Array(arguments.prefix(count)))
        arguments = arguments.dropFirst(count)
        if isSingle { statementCache.insert(statement, for: sql.text) }
      }
    }
    guard arguments.isEmpty else {
      throw SQLiteError(
        code: .range, message: "too many arguments: \(arguments.count) of \(sql.arguments.count) unused",
        sql: sql.text)
    }
  }

  /// Runs a query through the statement cache and calls `body` for each row.
  public func forEachRow(_ sql: SQLiteSQL, _ body: (SQLiteStatement) throws -> Void) throws {
    try cachedStatement(sql).forEachRow(body)
  }

  /// Runs a query through the statement cache and transforms each row (inlinable, as
  /// ``SQLiteStatement/mapRows(_:)`` is, for the element type's sake).
  @inlinable
  public func mapRows<Element>(_ sql: SQLiteSQL, _ transform: (SQLiteStatement) throws -> Element) throws
    -> [Element]
  {
    try cachedStatement(sql).mapRows(transform)
  }

  /// Runs a query through the statement cache and transforms its first row, if any.
  public func firstRow<Element>(_ sql: SQLiteSQL, _ transform: (SQLiteStatement) throws -> Element) throws
    -> Element?
  {
    try cachedStatement(sql).firstRow(transform)
  }

  /// Prepares the one statement in `text`, rejecting empty SQL and trailing statements.
  private func prepareSingle(_ text: String, persistent: Bool) throws -> SQLiteStatement {
    let pointer = try database.open()
    return try text.withCString { start in
      var handle: OpaquePointer?
      var tail: UnsafePointer<CChar>?
      let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
      let resultCode = sqlite3_prepare_v3(pointer, start, -1, flags, &handle, &tail)
      guard resultCode == SQLITE_OK else {
        throw SQLiteError(resultCode: resultCode, connection: pointer, sql: text)
      }
      guard let handle else {
        throw SQLiteError(code: .misuse, message: "no SQL statement to prepare", sql: text)
      }
      let statement = SQLiteStatement(handle: handle, database: database, sql: text)
      if let tail, !isBlank(tail) {
        var extra: OpaquePointer?
        let extraCode = sqlite3_prepare_v2(pointer, tail, -1, &extra, nil)
        defer { sqlite3_finalize(extra) }
        guard extraCode == SQLITE_OK else {
          throw SQLiteError(resultCode: extraCode, connection: pointer, sql: text)
        }
        if extra != nil {
          throw SQLiteError(
            code: .misuse, message: "more than one SQL statement; use execute(_:) to run scripts", sql: text)
        }
      }
      return statement
    }
  }
}

/// Whether the C string at `pointer` holds only whitespace (or nothing).
private func isBlank(_ pointer: UnsafePointer<CChar>?) -> Bool {
  guard var cursor = pointer else { return true }
  while cursor.pointee != 0 {
    switch UInt8(bitPattern: cursor.pointee) {
    case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0c: cursor += 1
    default: return false
    }
  }
  return true
}
