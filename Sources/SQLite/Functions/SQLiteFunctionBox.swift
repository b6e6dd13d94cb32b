/// Keeps a Swift SQL function's body alive for SQLite.
///
/// Retained once when registered (`Unmanaged.passRetained`) and released by SQLite's destroy
/// callback when the function is replaced, removed or the database closes.
final class SQLiteFunctionBox {
  let body: (SQLiteFunctionCall) -> Void

  init(body: @escaping (SQLiteFunctionCall) -> Void) {
    self.body = body
  }
}
