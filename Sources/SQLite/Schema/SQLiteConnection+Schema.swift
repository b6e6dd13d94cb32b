/// Schema introspection and consistency checks.
///
/// Table names are passed to SQLite's table-valued pragma functions as bound parameters
/// (`pragma_table_info(?)`), so any name, quotes included, is safe.
extension SQLiteConnection {
  /// The names of the main database's tables, sorted, excluding SQLite's internal
  /// `sqlite_…` tables.
  public func tableNames() throws -> [String] {
    try mapRows(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
    ) { $0.text(at: 0) }
  }

  /// Whether a table named `name` exists (names compare case-insensitively, as in SQL).
  public func tableExists(_ name: String) throws -> Bool {
    try firstRow("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = \(name) COLLATE NOCASE") { _ in true }
      ?? false
  }

  /// The columns of table `table` in declaration order; empty if there is no such table.
  public func columns(in table: String) throws -> [SQLiteColumnInfo] {
    try mapRows("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(\(table))") {
      SQLiteColumnInfo(
        name: $0.text(at: 0), declaredType: $0.text(at: 1), isNotNull: $0.bool(at: 2),
        defaultValueSQL: $0.isNull(at: 3) ? nil : $0.text(at: 3), primaryKeyPosition: $0.int(at: 4))
    }
  }

  /// Every table's column names in declaration order, keyed by table name, SQLite's internal
  /// `sqlite_…` tables left out: what ``tableNames()`` and then ``columns(in:)`` of each table
  /// give, read in one query (a store's open reads its whole layout).
  public func columnNamesByTable() throws -> [String: [String]] {
    var tables: [String: [String]] = [:]
    try forEachRow(
      """
      SELECT s.name, c.name FROM sqlite_schema AS s JOIN pragma_table_info(s.name) AS c
      WHERE s.type = 'table' AND s.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY s.name, c.cid
      """
    ) { row in
      tables[row.text(at: 0), default: []].append(row.text(at: 1))
    }
    return tables
  }

  /// Every table's `CREATE TABLE` text as SQLite keeps it (`sqlite_schema.sql`), keyed by table
  /// name, SQLite's internal `sqlite_…` tables left out.
  ///
  /// SQLite keeps the statement that made the table, from `CREATE TABLE` on, and rewrites it
  /// with each `ALTER TABLE` since; it reads a table's columns from this text. So two tables
  /// with the same text have the same columns, and comparing the text with the statement one
  /// would write costs a scan of `sqlite_schema`, where ``columnNamesByTable()`` asks SQLite
  /// for each table's columns (a store's open does the first, and the second only when the text
  /// differs).
  public func tableStatements() throws -> [String: String] {
    var statements: [String: String] = [:]
    try forEachRow(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ) { row in
      statements[row.text(at: 0)] = row.isNull(at: 1) ? "" : row.text(at: 1)
    }
    return statements
  }

  /// The indexes on table `table`, sorted by name; empty if there is no such table.
  public func indexes(on table: String) throws -> [SQLiteIndexInfo] {
    let listed = try mapRows(
      """
      SELECT il.name, il."unique", il.origin, il.partial, s.sql
      FROM pragma_index_list(\(table)) AS il
      LEFT JOIN sqlite_schema AS s ON s.type = 'index' AND s.name = il.name
      ORDER BY il.name
      """
    ) { row in
      (
        name: row.text(at: 0), isUnique: row.bool(at: 1), origin: row.text(at: 2), isPartial: row.bool(at: 3),
        sql: row.isNull(at: 4) ? nil : row.text(at: 4)
      )
    }
    return try listed.map { index in
      let columns = try mapRows("SELECT name FROM pragma_index_info(\(index.name)) ORDER BY seqno") {
        $0.isNull(at: 0) ? nil : $0.text(at: 0)
      }
      let origin: SQLiteIndexInfo.Origin =
        switch index.origin {
        case "u": .uniqueConstraint
        case "pk": .primaryKey
        default: .createIndex
        }
      return SQLiteIndexInfo(
        name: index.name, isUnique: index.isUnique, origin: origin, isPartial: index.isPartial, columns: columns,
        sql: index.sql)
    }
  }

  /// Runs `PRAGMA integrity_check`: `["ok"]` for a sound database, otherwise one message
  /// per problem found (at most `maximumErrors`).
  public func integrityCheck(maximumErrors: Int = 100) throws -> [String] {
    try mapRows("PRAGMA integrity_check(\(literal: .integer(Int64(max(1, maximumErrors)))))") { $0.text(at: 0) }
  }

  /// Runs `PRAGMA foreign_key_check` over every table: empty when all references resolve.
  ///
  /// Works whether or not foreign key enforcement is on.
  public func foreignKeyCheck() throws -> [SQLiteForeignKeyViolation] {
    try mapRows("PRAGMA foreign_key_check") {
      SQLiteForeignKeyViolation(
        table: $0.text(at: 0), rowID: $0.isNull(at: 1) ? nil : $0.int64(at: 1), parentTable: $0.text(at: 2),
        foreignKeyID: $0.int(at: 3))
    }
  }
}
