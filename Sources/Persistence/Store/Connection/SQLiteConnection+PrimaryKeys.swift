import SQLite

/// Primary keys for new rows, allocated as Core Data allocates them.
extension SQLiteConnection {
  /// Reserves `count` consecutive primary keys for new rows of the hierarchy whose root is
  /// `root`, and returns the first.
  ///
  /// Core Data keeps one counter per entity in `Z_PRIMARYKEY.Z_MAX`, and every entity of an
  /// inheritance hierarchy shares its root's table; keys start after both the largest counter
  /// of the hierarchy and the largest key already in the table (a store written by another
  /// tool may have rows its counter does not account for), and every counter of the hierarchy
  /// moves past the reserved keys. Must run inside the transaction that inserts the rows.
  func reservePrimaryKeys(_ count: Int, forHierarchyOf root: EntityStoreLayout) throws -> Int64 {
    let numbers = root.entityNumbersInHierarchy.map { SQLiteValue.integer(Int64($0)) }
    let placeholders = SQLiteSQL.placeholders(count: numbers.count)
    let recorded =
      try firstRow(
        SQLiteSQL(
          verbatim: "SELECT MAX(Z_MAX) FROM Z_PRIMARYKEY WHERE Z_ENT IN (\(placeholders))", arguments: numbers)
      ) { $0.isNull(at: 0) ? 0 : $0.int64(at: 0) } ?? 0
    let present =
      try firstRow("SELECT MAX(Z_PK) FROM \(identifier: root.tableName)") {
        $0.isNull(at: 0) ? 0 : $0.int64(at: 0)
      } ?? 0
    let first = max(recorded, present) + 1
    try execute(
      SQLiteSQL(
        verbatim: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT IN (\(placeholders))",
        arguments: [.integer(first + Int64(count) - 1)] + numbers))
    return first
  }
}
