import Foundation

/// modelc's own bookkeeping in a store: the table `MODELC_HISTORY`, one row per migration
/// step.
///
/// Core Data reads only its `Z`-prefixed tables (and `A`-prefixed history tables), so a table of
/// another name is invisible to it, and the store stays a store Core Data opens. The table is
/// created by the first step recorded; stores without it simply have no history. Columns:
/// `id` (INTEGER PRIMARY KEY, the order steps ran), `at` (ISO 8601 UTC with milliseconds),
/// `from_version`, `to_version`, `from_checksum`, `to_checksum`, `kind`, `detail` (all TEXT).
/// See `docs/store-format.md` (“modelc's bookkeeping”).
public enum MigrationHistory {
  /// The table's name.
  public static let tableName = "MODELC_HISTORY"

  /// The statement that creates the table when it is missing.
  public static let createTableSQL =
    "CREATE TABLE IF NOT EXISTS MODELC_HISTORY (id INTEGER PRIMARY KEY, at TEXT NOT NULL, from_version TEXT NOT NULL, to_version TEXT NOT NULL, from_checksum TEXT NOT NULL, to_checksum TEXT NOT NULL, kind TEXT NOT NULL, detail TEXT NOT NULL)"

  /// Every recorded step, oldest first; empty when the store has no history table.
  public static func records(on connection: SQLiteConnection) throws -> [MigrationRecord] {
    guard try connection.tableExists(tableName) else { return [] }
    return try connection.mapRows(
      "SELECT id, at, from_version, to_version, from_checksum, to_checksum, kind, detail FROM MODELC_HISTORY ORDER BY id"
    ) { row in
      let at = row.text(at: 1)
      guard let date = ISO8601Milliseconds.date(from: at) else {
        throw PersistenceError.storeFailure("MODELC_HISTORY row \(row.int64(at: 0)) has the unreadable date '\(at)'")
      }
      return MigrationRecord(
        id: row.int64(at: 0), date: date, kind: row.text(at: 6), fromVersion: row.text(at: 2),
        toVersion: row.text(at: 3), fromChecksum: row.text(at: 4), toChecksum: row.text(at: 5),
        detail: row.text(at: 7))
    }
  }

  /// Appends a step, creating the table first when needed, and returns its `id`. Call it inside
  /// the transaction that makes the step, so the record commits with it or not at all.
  @discardableResult
  public static func append(_ record: MigrationRecord, on connection: SQLiteConnection) throws -> Int64 {
    try connection.execute(SQLiteSQL(verbatim: createTableSQL))
    try connection.execute(
      """
      INSERT INTO MODELC_HISTORY (at, from_version, to_version, from_checksum, to_checksum, kind, detail) \
      VALUES (\(ISO8601Milliseconds.string(from: record.date)), \(record.fromVersion), \(record.toVersion), \
      \(record.fromChecksum), \(record.toChecksum), \(record.kind), \(record.detail))
      """)
    return connection.lastInsertRowID
  }
}
