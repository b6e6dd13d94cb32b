import CSQLite

/// Receives the text of each statement that writes, with its bound values written in as literals.
final class SQLiteWriteTraceBox {
  let body: (String) -> Void

  init(body: @escaping (String) -> Void) {
    self.body = body
  }
}

extension SQLiteConnection {
  /// Runs `body` while every statement it makes this connection run that can change the
  /// database is reported to `record`, as SQL with the bound values written in as literals
  /// (`sqlite3_expanded_sql`) — the exact text the `sqlite3` shell can run to do the same.
  /// Reads and transaction control (`BEGIN`, `COMMIT`) are not reported.
  ///
  /// - Throws: what `body` throws, or ``SQLiteError`` when tracing cannot be set up.
  package func recordingWrites<Result>(to record: @escaping (String) -> Void, _ body: () throws -> Result) throws
    -> Result
  {
    let handle = try database.open()
    let box = Unmanaged.passRetained(SQLiteWriteTraceBox(body: record))
    defer {
      sqlite3_trace_v2(handle, 0, nil, nil)
      box.release()
    }
    let status = sqlite3_trace_v2(
      handle, UInt32(SQLITE_TRACE_STMT),
      { _, context, statement, text in
        guard let context, let statement else { return 0 }
        // A statement run by a trigger is reported with its trigger's text as a `--` comment;
        // only the statements the connection was asked to run count.
        if let text, String(cString: text.assumingMemoryBound(to: CChar.self)).hasPrefix("--") { return 0 }
        let prepared = OpaquePointer(statement)
        guard sqlite3_stmt_readonly(prepared) == 0 else { return 0 }
        guard let expanded = sqlite3_expanded_sql(prepared) else { return 0 }
        defer { sqlite3_free(expanded) }
        Unmanaged<SQLiteWriteTraceBox>.fromOpaque(context).takeUnretainedValue().body(String(cString: expanded))
        return 0
      }, box.toOpaque())
    guard status == SQLITE_OK else {
      throw SQLiteError(code: SQLiteResultCode(rawValue: status), message: "cannot trace statements")
    }
    return try body()
  }
}
