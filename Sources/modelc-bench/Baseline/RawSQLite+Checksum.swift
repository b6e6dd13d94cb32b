import CSQLite
import Foundation

extension RawSQLite {
  /// The rows a query returns and a checksum of every value they hold (each value's storage
  /// class and content), to check that two sides of a scenario produced the same data.
  func digest(of sql: String) throws -> ResultDigest {
    let statement = try prepare(sql)
    defer { finalize(statement) }
    var digest = ResultDigest()
    let columns = sqlite3_column_count(statement)
    while try step(statement) {
      digest.nextRow()
      for column in 0..<columns {
        let type = sqlite3_column_type(statement, column)
        withUnsafeBytes(of: type) { digest.mix(bytes: $0) }
        switch type {
        case SQLITE_INTEGER: digest.mix(sqlite3_column_int64(statement, column))
        case SQLITE_FLOAT: digest.mix(sqlite3_column_double(statement, column))
        case SQLITE_TEXT, SQLITE_BLOB:
          let count = Int(sqlite3_column_bytes(statement, column))
          if let bytes = sqlite3_column_blob(statement, column) {
            digest.mix(bytes: UnsafeRawBufferPointer(start: bytes, count: count))
          }
        default: break
        }
      }
    }
    return digest
  }

  /// The digest of every task row of a store at Tasks 3 and of its tag links, in key order:
  /// what the store scenarios compare after both sides wrote.
  static func taskDigest(_ url: URL) throws -> ResultDigest {
    let raw = try RawSQLite(path: url.path)
    var digest = try raw.digest(of: "SELECT \(taskColumns) FROM ZTASK ORDER BY Z_PK")
    let links = try raw.digest(of: "SELECT * FROM Z_2TASKS ORDER BY 1, 2")
    withUnsafeBytes(of: links.checksum) { digest.mix(bytes: $0) }
    digest.mix(Int64(links.rows))
    return digest
  }

  /// The first column of the first row of a query, as an integer (0 when there is no row).
  func integer(_ sql: String) throws -> Int {
    let statement = try prepare(sql)
    defer { finalize(statement) }
    guard try step(statement) else { return 0 }
    return Int(sqlite3_column_int64(statement, 0))
  }
}

extension RawSQLite {
  /// A column of the current row as text (empty for NULL).
  func text(_ statement: OpaquePointer, _ index: Int32) -> String {
    sqlite3_column_text(statement, index).map { String(cString: $0) } ?? ""
  }
}
