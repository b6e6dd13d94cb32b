/// The store's migration history (modelc's `MODELC_HISTORY` table).
extension PersistentContainer {
  /// Every migration step recorded in the store, oldest first; empty when there is none (a
  /// store Core Data wrote, or one never migrated by modelc).
  ///
  /// ```swift
  /// for record in try container.migrationHistory() { print(record.fromVersion, "→", record.toVersion) }
  /// ```
  ///
  /// - Throws: ``PersistenceError`` or a `SQLiteError` when the store cannot be opened or read.
  public func migrationHistory() throws -> [MigrationRecord] {
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    return try MigrationHistory.records(on: connection)
  }

  /// Records a migration step in the store, in a transaction of its own. (A migration records
  /// its steps with ``MigrationHistory/append(_:on:)`` inside its own transaction instead.)
  ///
  /// - Throws: ``PersistenceError/storeFailure(_:)`` when the store is open read-only;
  ///   ``PersistenceError`` or a `SQLiteError` when it cannot be written (nothing is then).
  public func recordMigration(_ record: MigrationRecord) throws {
    guard !options.isReadOnly else {
      throw PersistenceError.storeFailure("the store is open read-only; its history cannot change")
    }
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    try connection.transaction(.immediate) { try MigrationHistory.append(record, on: connection) }
  }
}
