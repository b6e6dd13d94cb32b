import CSQLite

extension SQLiteConnection {
  /// Resets every cached statement and tells whether the connection is now idle: open, outside
  /// any transaction, and with no statement in the middle of its rows.
  ///
  /// A connection handed from one user to another must be idle: a transaction left open, or a
  /// statement left stepping (which holds a read snapshot in WAL mode), would carry over to a
  /// user who knows nothing of it.
  package func resetForReuse() -> Bool {
    statementCache.resetAll()
    guard let pointer = database.pointer, sqlite3_get_autocommit(pointer) != 0 else { return false }
    var statement = sqlite3_next_stmt(pointer, nil)
    while let current = statement {
      if sqlite3_stmt_busy(current) != 0 { return false }
      statement = sqlite3_next_stmt(pointer, current)
    }
    return true
  }
}
