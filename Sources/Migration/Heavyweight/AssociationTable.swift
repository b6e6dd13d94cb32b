import Persistence
import SQLite

/// Which destination objects each entity mapping made from which source objects, kept in a
/// table of the new store file while a heavyweight step runs, and dropped before the file is
/// put in place.
///
/// Core Data's migration manager keeps these associations in memory, which is why its memory
/// grows with the store; here they are rows, looked up through two indexes, so that stage 2
/// (relationships) and `destinationInstances…` work across batches that have been saved and
/// released. The SQL fast path fills and reads the table with set-based statements.
///
/// The connection it uses has the store being migrated as `main` and the new file attached
/// as `destination`.
struct AssociationTable {
  /// The table, in the `destination` schema.
  static let name = "MODELC_ASSOCIATION"
  /// `destination.MODELC_ASSOCIATION`, quoted.
  static let qualifiedName = "destination.\(SQLiteIdentifier.quote(name))"

  let connection: SQLiteConnection

  /// Creates the table and its indexes.
  func create() throws {
    try connection.execute(
      SQLiteSQL(
        verbatim:
          "CREATE TABLE \(Self.qualifiedName) (MAPPING INTEGER NOT NULL, SOURCE INTEGER NOT NULL, DESTINATION_ENT INTEGER NOT NULL, DESTINATION INTEGER NOT NULL)"
      ))
    try connection.execute(
      SQLiteSQL(
        verbatim:
          "CREATE INDEX destination.\(SQLiteIdentifier.quote(Self.name + "_SOURCE")) ON \(SQLiteIdentifier.quote(Self.name)) (MAPPING, SOURCE)"
      ))
    try connection.execute(
      SQLiteSQL(
        verbatim:
          "CREATE INDEX destination.\(SQLiteIdentifier.quote(Self.name + "_DESTINATION")) ON \(SQLiteIdentifier.quote(Self.name)) (DESTINATION_ENT, DESTINATION)"
      ))
  }

  /// Drops the table (and its indexes).
  func drop() throws {
    try connection.execute(SQLiteSQL(verbatim: "DROP TABLE IF EXISTS \(Self.qualifiedName)"))
  }

  /// Adds associations, in one transaction.
  func insert(_ rows: [(mapping: Int, source: Int64, entity: Int, destination: Int64)]) throws {
    guard !rows.isEmpty else { return }
    try connection.transaction(.immediate) {
      for row in rows {
        try connection.execute(
          SQLiteSQL(
            verbatim:
              "INSERT INTO \(Self.qualifiedName) (MAPPING, SOURCE, DESTINATION_ENT, DESTINATION) VALUES (?, ?, ?, ?)",
            arguments: [
              .integer(Int64(row.mapping)), .integer(row.source), .integer(Int64(row.entity)),
              .integer(row.destination),
            ]))
      }
    }
  }

  /// The destination objects (entity number, key) made from one source object by one mapping.
  func destinationKeys(mapping: Int, sourceKey: Int64) throws -> [(entity: Int, key: Int64)] {
    try connection.mapRows(
      SQLiteSQL(
        verbatim:
          "SELECT DESTINATION_ENT, DESTINATION FROM \(Self.qualifiedName) WHERE MAPPING = ? AND SOURCE = ? ORDER BY rowid",
        arguments: [.integer(Int64(mapping)), .integer(sourceKey)])
    ) { (Int($0.int64(at: 0)), $0.int64(at: 1)) }
  }

  /// The source objects (keys) one mapping made a destination object from.
  func sourceKeys(mapping: Int, destinationEntity: Int, destinationKey: Int64) throws -> [Int64] {
    try connection.mapRows(
      SQLiteSQL(
        verbatim:
          "SELECT SOURCE FROM \(Self.qualifiedName) WHERE DESTINATION_ENT = ? AND DESTINATION = ? AND MAPPING = ? ORDER BY rowid",
        arguments: [.integer(Int64(destinationEntity)), .integer(destinationKey), .integer(Int64(mapping))])
    ) { $0.int64(at: 0) }
  }

  /// The associations of one mapping in source-key order, `limit` at a time after `afterSource`
  /// (and, within one source object, after `afterRow`): stage 2 walks them batch by batch.
  func associations(mapping: Int, after position: (source: Int64, row: Int64), limit: Int) throws
    -> [(row: Int64, source: Int64, entity: Int, destination: Int64)]
  {
    try connection.mapRows(
      SQLiteSQL(
        verbatim:
          "SELECT rowid, SOURCE, DESTINATION_ENT, DESTINATION FROM \(Self.qualifiedName) WHERE MAPPING = ? AND (SOURCE > ? OR (SOURCE = ? AND rowid > ?)) ORDER BY SOURCE, rowid LIMIT ?",
        arguments: [
          .integer(Int64(mapping)), .integer(position.source), .integer(position.source), .integer(position.row),
          .integer(Int64(limit)),
        ])
    ) { ($0.int64(at: 0), $0.int64(at: 1), Int($0.int64(at: 2)), $0.int64(at: 3)) }
  }

  /// How many associations a mapping made.
  func count(mapping: Int) throws -> Int {
    try connection.firstRow(
      SQLiteSQL(
        verbatim: "SELECT COUNT(*) FROM \(Self.qualifiedName) WHERE MAPPING = ?",
        arguments: [.integer(Int64(mapping))])
    ) { Int($0.int64(at: 0)) } ?? 0
  }
}
