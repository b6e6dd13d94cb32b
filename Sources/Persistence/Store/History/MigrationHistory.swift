import Foundation
import SQLite

/// modelc's record of the migrations a store went through, kept in a table of its own,
/// `MODELC_HISTORY`, which Core Data neither reads nor touches (its tables all start with `Z`,
/// plus its persistent-history tables `A…`).
///
/// The table is created by the first migration; a store never migrated by modelc has none,
/// and its history is empty.
public enum MigrationHistory {
  /// The table's name.
  public static let tableName = "MODELC_HISTORY"

  /// Appends a step, creating the table when needed (inside the caller's transaction).
  ///
  /// - Throws: A `SQLiteError` when the table cannot be created or the row written.
  public static func append(_ record: MigrationRecord, on connection: SQLiteConnection) throws {
    try connection.execute(
      """
      CREATE TABLE IF NOT EXISTS MODELC_HISTORY (ID INTEGER PRIMARY KEY, AT TIMESTAMP, FROM_VERSION VARCHAR, \
      TO_VERSION VARCHAR, FROM_CHECKSUM VARCHAR, TO_CHECKSUM VARCHAR, KIND VARCHAR, DETAIL VARCHAR)
      """)
    try connection.execute(
      """
      INSERT INTO MODELC_HISTORY (AT, FROM_VERSION, TO_VERSION, FROM_CHECKSUM, TO_CHECKSUM, KIND, DETAIL) \
      VALUES (\(record.date.timeIntervalSinceReferenceDate), \(record.fromVersion), \(record.toVersion), \
      \(record.fromChecksum), \(record.toChecksum), \(record.kind), \(record.detail))
      """)
  }

  /// Every recorded step, oldest first; empty when the store was never migrated by modelc.
  ///
  /// - Throws: A `SQLiteError` when the table cannot be read.
  public static func records(on connection: SQLiteConnection) throws -> [MigrationRecord] {
    guard try connection.tableExists(tableName) else { return [] }
    return try connection.mapRows(
      "SELECT AT, FROM_VERSION, TO_VERSION, FROM_CHECKSUM, TO_CHECKSUM, KIND, DETAIL FROM MODELC_HISTORY ORDER BY ID"
    ) { row in
      MigrationRecord(
        date: Date(timeIntervalSinceReferenceDate: row.double(at: 0)), fromVersion: row.text(at: 1),
        toVersion: row.text(at: 2), fromChecksum: row.text(at: 3), toChecksum: row.text(at: 4), kind: row.text(at: 5),
        detail: row.text(at: 6))
    }
  }
}
