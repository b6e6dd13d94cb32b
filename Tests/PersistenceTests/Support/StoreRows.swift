import Foundation
import Persistence
import SQLite

/// Every row of every table of a store file, as text, to tell whether a store changed.
enum StoreRows {
  /// `table|value|value…` lines, tables in name order, rows in rowid order.
  static func dump(_ url: URL) throws -> [String] {
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    var lines: [String] = []
    for table in try connection.tableNames().sorted() {
      try connection.forEachRow(SQLiteSQL(verbatim: "SELECT * FROM \(SQLiteIdentifier.quote(table)) ORDER BY rowid")) {
        lines.append(([table] + $0.rowValues.map { "\($0)" }).joined(separator: "|"))
      }
    }
    return lines
  }

  /// The rows of one table.
  static func count(_ table: String, in url: URL, where condition: String = "1") throws -> Int {
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    return try connection.firstRow(
      SQLiteSQL(verbatim: "SELECT COUNT(*) FROM \(SQLiteIdentifier.quote(table)) WHERE \(condition)")
    ) { $0.int(at: 0) } ?? 0
  }
}
