/// The store's migration history (modelc's `MODELC_HISTORY` table).
extension PersistentContainer {
  /// Every migration step recorded in the store, oldest first; empty when there is none (a
  /// store Core Data wrote, or one never migrated by modelc).
  public func migrationHistory() throws -> [MigrationRecord] {
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    return try MigrationHistory.records(on: connection)
  }

  /// Records a migration step in the store, in a transaction of its own. (A migration records
  /// its steps with ``MigrationHistory/append(_:on:)`` inside its own transaction instead.)
  public func recordMigration(_ record: MigrationRecord) throws {
    guard !options.isReadOnly else {
      throw PersistenceError.storeFailure("the store is open read-only; its history cannot change")
    }
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    try connection.transaction(.immediate) { try MigrationHistory.append(record, on: connection) }
  }
}
