import CSQLite

/// Keeps a Swift SQL function's closure alive for SQLite and calls it from the C callback.
///
/// Retained once when registered (`Unmanaged.passRetained`) and released by SQLite's destroy
/// callback when the function is replaced, removed or the database closes.
final class SQLiteFunctionBox {
  let name: String
  let body: ([SQLiteValue]) throws -> SQLiteValue

  init(name: String, body: @escaping ([SQLiteValue]) throws -> SQLiteValue) {
    self.name = name
    self.body = body
  }

  /// Converts the C arguments, runs the closure and reports its result or error to SQLite.
  func call(context: OpaquePointer?, argumentCount: Int32, arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    var values: [SQLiteValue] = []
    values.reserveCapacity(Int(argumentCount))
    for index in 0..<Int(argumentCount) {
      values.append(SQLiteValue(sqliteValueHandle: arguments?[index]))
    }
    do {
      try body(values).setResult(of: context)
    } catch let error as SQLiteError {
      sqlite3_result_error(context, "\(name)(): \(error.message)", -1)
      sqlite3_result_error_code(context, error.extendedCode.rawValue)
    } catch {
      sqlite3_result_error(context, "\(name)(): \(error)", -1)
    }
  }
}
