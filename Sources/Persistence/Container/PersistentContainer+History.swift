/// The store's migration history (modelc's `MODELC_HISTORY` table).
extension PersistentContainer {
  /// Every migration step recorded in the store, oldest first; empty when there is none (a
  /// store Core Data wrote, or one never migrated by modelc).
  public func migrationHistory() throws -> [MigrationRecord] {
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    return try MigrationHistory.records(on: connection)
  }

  /// Records a migration step in the store, in a transaction of its own; returns its `id`.
  @discardableResult
  public func recordMigration(_ record: MigrationRecord) throws -> Int64 {
    guard !options.isReadOnly else {
      throw PersistenceError.storeFailure("the store is open read-only; its history cannot change")
    }
    let connection = try StoreConnection.open(storeDescription)
    defer { try? connection.close() }
    return try connection.transaction(.immediate) { try MigrationHistory.append(record, on: connection) }
  }
}
