import CSQLite

/// Owns one `sqlite3*` and closes it when the last owner lets go.
///
/// Both the ``SQLiteConnection`` and every ``SQLiteStatement`` prepared on it hold a strong
/// reference, so a statement can never outlive its database (no dangling handle, no zombie
/// connection) and the connection's cache of statements forms no reference cycle.
final class SQLiteDatabase {
  /// The open handle; `nil` after an explicit, successful ``close()``.
  private(set) var pointer: OpaquePointer?
  /// Shared with callers who need to interrupt from another thread.
  let interruptHandle: SQLiteInterruptHandle

  init(pointer: OpaquePointer) {
    self.pointer = pointer
    self.interruptHandle = SQLiteInterruptHandle(connection: pointer)
  }

  /// The open handle, or a misuse error once the connection has been closed.
  func open() throws -> OpaquePointer {
    guard let pointer else {
      throw SQLiteError(code: .misuse, message: "the SQLite connection is closed")
    }
    return pointer
  }

  /// Closes now; fails with `SQLITE_BUSY` (and stays open) while statements are still alive.
  func close() throws {
    guard let pointer else { return }
    interruptHandle.invalidate()
    let resultCode = sqlite3_close(pointer)
    guard resultCode == SQLITE_OK else {
      let error = SQLiteError(resultCode: resultCode, connection: pointer, sql: nil)
      interruptHandle.revalidate(connection: pointer)
      throw error
    }
    self.pointer = nil
  }

  deinit {
    if let pointer {
      interruptHandle.invalidate()
      sqlite3_close_v2(pointer)
    }
  }
}
