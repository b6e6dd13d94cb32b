import CSQLite

/// SQL functions that work on their arguments in place, for the per-row helpers of compiled
/// queries.
extension SQLiteConnection {
  /// Registers (or replaces) a scalar SQL function whose body reads its arguments and sets its
  /// result through a ``SQLiteFunctionCall``.
  ///
  /// Unlike ``createFunction(name:argumentCount:deterministic:_:)`` no argument is converted
  /// up front, so a function called for every row of a table can look at text bytes without
  /// copying them. The body must set a result (or an error); one that sets none returns NULL.
  ///
  /// - Parameters:
  ///   - name: The SQL name (case-insensitive in SQL).
  ///   - argumentCount: The exact number of arguments, or `nil` for any number.
  ///   - deterministic: Whether the result depends only on the arguments, which lets SQLite
  ///     factor calls out of loops and use the function in indexes.
  ///   - body: The implementation, run on the connection's thread.
  public func createFunction(
    name: String, argumentCount: Int?, deterministic: Bool = true, call body: @escaping (SQLiteFunctionCall) -> Void
  ) throws {
    let pointer = try database.open()
    let box = Unmanaged.passRetained(SQLiteFunctionBox(body: body))
    var flags = SQLITE_UTF8
    if deterministic { flags |= SQLITE_DETERMINISTIC }
    // On failure SQLite calls the destroy callback itself, releasing the box.
    let resultCode = sqlite3_create_function_v2(
      pointer, name, Int32(clamping: argumentCount ?? -1), flags, box.toOpaque(),
      { context, count, arguments in
        guard let userData = sqlite3_user_data(context) else { return }
        Unmanaged<SQLiteFunctionBox>.fromOpaque(userData).takeUnretainedValue()
          .body(SQLiteFunctionCall(context: context, argumentCount: count, arguments: arguments))
      },
      nil, nil,
      { userData in
        guard let userData else { return }
        Unmanaged<SQLiteFunctionBox>.fromOpaque(userData).release()
      })
    guard resultCode == SQLITE_OK else {
      throw SQLiteError(resultCode: resultCode, connection: pointer, sql: nil)
    }
  }
}
