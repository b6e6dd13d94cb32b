import CSQLite
import Foundation

/// The baseline of every store scenario: the same work done the fastest plain way, with SQLite's
/// C API directly — prepared statements, one transaction, every result column read.
///
/// This is the one place outside the SQLite layer that calls SQLite's C functions: a baseline
/// measured through our own wrapper would hide the wrapper's cost.
final class RawSQLite {
  private var database: OpaquePointer?

  init(path: String) throws {
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK else {
      throw BenchmarkError("cannot open \(path)")
    }
    sqlite3_busy_timeout(database, 5000)
  }

  deinit {
    sqlite3_close_v2(database)
  }

  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(database, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "?"
      sqlite3_free(message)
      throw BenchmarkError("\(text) in \(sql)")
    }
  }

  func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
      let statement
    else {
      throw BenchmarkError(String(cString: sqlite3_errmsg(database)) + " in \(sql)")
    }
    return statement
  }

  func step(_ statement: OpaquePointer) throws -> Bool {
    let code = sqlite3_step(statement)
    if code == SQLITE_ROW { return true }
    if code == SQLITE_DONE { return false }
    throw BenchmarkError(String(cString: sqlite3_errmsg(database)))
  }

  func finalize(_ statement: OpaquePointer) {
    sqlite3_finalize(statement)
  }

  /// Reads every column of the current row into Swift values, as a fetch must.
  func readRow(_ statement: OpaquePointer, into sink: inout Int) {
    let count = sqlite3_column_count(statement)
    for index in 0..<count {
      switch sqlite3_column_type(statement, index) {
      case SQLITE_INTEGER: sink &+= Int(sqlite3_column_int64(statement, index))
      case SQLITE_FLOAT: sink &+= Int(sqlite3_column_double(statement, index))
      case SQLITE_TEXT:
        let text = String(cString: sqlite3_column_text(statement, index))
        sink &+= text.utf8.count
      case SQLITE_BLOB:
        let bytes = Int(sqlite3_column_bytes(statement, index))
        if let pointer = sqlite3_column_blob(statement, index) {
          let data = Data(bytes: pointer, count: bytes)
          sink &+= data.count
        }
      default: break
      }
    }
  }

  func bind(_ statement: OpaquePointer, _ index: Int32, int value: Int64) {
    sqlite3_bind_int64(statement, index, value)
  }

  func bind(_ statement: OpaquePointer, _ index: Int32, double value: Double?) {
    if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
  }

  func bind(_ statement: OpaquePointer, _ index: Int32, text value: String) {
    sqlite3_bind_text(statement, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
  }

  func bind(_ statement: OpaquePointer, _ index: Int32, blob value: [UInt8]) {
    value.withUnsafeBytes { buffer in
      _ = sqlite3_bind_blob(
        statement, index, buffer.baseAddress, Int32(buffer.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }
  }

  func reset(_ statement: OpaquePointer) {
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
  }
}

/// A benchmark that could not run.
struct BenchmarkError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}
