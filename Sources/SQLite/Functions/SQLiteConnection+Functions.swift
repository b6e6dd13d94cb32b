import CSQLite

/// SQL functions implemented in Swift.
///
/// The query engine registers its helpers here (Unicode case and diacritic folding, regular
/// expressions) so predicates compiled to SQL can call them like built-ins.
extension SQLiteConnection {
  /// Registers (or replaces) a scalar SQL function implemented by `body`.
  ///
  /// `body` runs on the connection's thread, once per call from SQL, with the arguments
  /// converted to ``SQLiteValue``s. An error it throws makes the SQL statement fail with
  /// an ``SQLiteError`` whose message is `name(): ` followed by the error's description
  /// (and, for a thrown ``SQLiteError``, its result code).
  ///
  /// - Parameters:
  ///   - name: The SQL name (case-insensitive in SQL).
  ///   - argumentCount: The exact number of arguments, or `nil` for any number. Functions
  ///     with the same name and different counts are distinct.
  ///   - deterministic: Whether the result depends only on the arguments, which lets SQLite
  ///     factor calls out of loops and use the function in indexes and `CHECK` constraints.
  ///   - body: The implementation. It must not capture the connection strongly (the
  ///     connection keeps `body` alive; capture it `unowned` if needed).
  public func createFunction(
    name: String, argumentCount: Int?, deterministic: Bool = true,
    _ body: @escaping ([SQLiteValue]) throws -> SQLiteValue
  ) throws {
    try createFunction(name: name, argumentCount: argumentCount, deterministic: deterministic) { call in
      let values = (0..<call.argumentCount).map { call.value(at: $0) }
      do {
        call.result(try body(values))
      } catch let error as SQLiteError {
        call.resultError("\(name)(): \(error.message)", code: error.extendedCode.rawValue)
      } catch {
        call.resultError("\(name)(): \(error)")
      }
    }
  }

  /// Unregisters the function `name` with `argumentCount` arguments (`nil`: the variadic one).
  public func removeFunction(name: String, argumentCount: Int?) throws {
    let pointer = try database.open()
    let resultCode = sqlite3_create_function_v2(
      pointer, name, Int32(clamping: argumentCount ?? -1), SQLITE_UTF8, nil, nil, nil, nil, nil)
    guard resultCode == SQLITE_OK else {
      throw SQLiteError(resultCode: resultCode, connection: pointer, sql: nil)
    }
  }
}
