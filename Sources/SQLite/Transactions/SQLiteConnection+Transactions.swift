/// Transactions and savepoints that commit on return and roll back on throw.
extension SQLiteConnection {
  /// Runs `body` in a transaction: commits when it returns, rolls back when it throws.
  ///
  /// If `COMMIT` itself fails (e.g. `SQLITE_BUSY` under a deferred transaction) the
  /// transaction is rolled back and the commit error is thrown. Transactions don't nest:
  /// calling this inside another transaction throws SQLite's error; use
  /// ``savepoint(name:_:)`` for nested units of work.
  ///
  /// - Returns: What `body` returned.
  public func transaction<Result>(
    _ kind: SQLiteTransactionKind = .deferred, _ body: () throws -> Result
  ) throws -> Result {
    try execute(kind.beginSQL)
    let result: Result
    do {
      result = try body()
    } catch {
      rollbackIgnoringErrors("ROLLBACK TRANSACTION")
      throw error
    }
    do {
      try execute("COMMIT TRANSACTION")
    } catch {
      rollbackIgnoringErrors("ROLLBACK TRANSACTION")
      throw error
    }
    return result
  }

  /// Runs `body` inside a named savepoint: releases it when `body` returns, rolls back to it
  /// (undoing only `body`'s changes) and releases it when `body` throws.
  ///
  /// Savepoints nest, inside or outside a transaction; outside one, the outermost savepoint
  /// behaves like a deferred transaction. The name is quoted, so any string is safe; reusing
  /// a name at several nesting levels is fine (each release or rollback targets the
  /// innermost savepoint of that name).
  public func savepoint<Result>(name: String = "savepoint", _ body: () throws -> Result) throws -> Result {
    try execute("SAVEPOINT \(identifier: name)")
    let result: Result
    do {
      result = try body()
    } catch {
      abandonSavepoint(name)
      throw error
    }
    do {
      try execute("RELEASE SAVEPOINT \(identifier: name)")
    } catch {
      abandonSavepoint(name)
      throw error
    }
    return result
  }

  /// Undoes and removes savepoint `name`, keeping the caller's error as the one reported.
  private func abandonSavepoint(_ name: String) {
    guard isInTransaction else { return }
    try? execute("ROLLBACK TRANSACTION TO SAVEPOINT \(identifier: name)")
    try? execute("RELEASE SAVEPOINT \(identifier: name)")
  }

  /// Rolls back if a transaction is still open; SQLite may already have rolled back after
  /// errors such as `SQLITE_FULL`, and a failed rollback must not hide the original error.
  private func rollbackIgnoringErrors(_ sql: SQLiteSQL) {
    guard isInTransaction else { return }
    try? execute(sql)
  }
}
