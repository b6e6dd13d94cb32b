import Foundation

extension ObjectContext {
  /// Runs `body` with this context's reads of the store in one read transaction.
  ///
  /// Outside one, every read the context makes — a fault fulfilled, a to-many relationship
  /// loaded, a fetch or a count — is a transaction of its own, for which SQLite locks the store
  /// file and its shared memory and unlocks them again: a handful of system calls per read,
  /// which code walking objects one by one (a migration policy, an export) pays for every
  /// object. Inside, the locks are taken once, and every read sees the same snapshot of the
  /// store: changes other connections commit meanwhile are not seen until `body` returns.
  ///
  /// ```swift
  /// try context.withReadTransaction {
  ///   for task in tasks { total += task.tags.count }  // each fault read in the same snapshot
  /// }
  /// ```
  ///
  /// A save or a batch request inside is refused with
  /// ``PersistenceError/writeInsideReadTransaction(operation:)`` (a save throws it wrapped in
  /// ``SaveError/store(_:)``): it would join the transaction, to be committed or undone with
  /// the reads rather than when it returns. Save after `body`. Calls nest; the outermost one
  /// ends the transaction.
  ///
  /// - Throws: What `body` throws, or a `SQLiteError` if the transaction cannot begin or end
  ///   (the reads inside have then been made already).
  public func withReadTransaction<Result>(_ body: () throws -> Result) throws -> Result {
    try store.readTransaction(body)
  }
}
