import CSQLite
import Foundation

extension RawSQLite {
  /// How many rows a query returns and a checksum of every value they hold (FNV-1a over each
  /// value's storage class and content), to check that two sides of a scenario produced the
  /// same data.
  func checksum(of sql: String) throws -> (rows: Int, checksum: UInt64) {
    let statement = try prepare(sql)
    defer { finalize(statement) }
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    func mix(_ bytes: UnsafeRawBufferPointer) {
      for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
      }
    }
    var rows = 0
    let columns = sqlite3_column_count(statement)
    while try step(statement) {
      rows += 1
      for column in 0..<columns {
        let type = sqlite3_column_type(statement, column)
        withUnsafeBytes(of: type) { mix($0) }
        switch type {
        case SQLITE_INTEGER: withUnsafeBytes(of: sqlite3_column_int64(statement, column)) { mix($0) }
        case SQLITE_FLOAT: withUnsafeBytes(of: sqlite3_column_double(statement, column).bitPattern) { mix($0) }
        case SQLITE_TEXT, SQLITE_BLOB:
          let count = Int(sqlite3_column_bytes(statement, column))
          if let bytes = sqlite3_column_blob(statement, column) {
            mix(UnsafeRawBufferPointer(start: bytes, count: count))
          }
        default: break
        }
      }
    }
    return (rows, hash)
  }

  /// The first column of the first row of a query, as an integer (0 when there is no row).
  func integer(_ sql: String) throws -> Int {
    let statement = try prepare(sql)
    defer { finalize(statement) }
    guard try step(statement) else { return 0 }
    return Int(sqlite3_column_int64(statement, 0))
  }
}
