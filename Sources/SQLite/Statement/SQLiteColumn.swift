import CSQLite
import Foundation

/// One column of a statement's current row, read in place: its storage class and its value,
/// for code that reads many columns of many rows.
///
/// Each of ``SQLiteStatement``'s column readers (``SQLiteStatement/columnType(at:)``,
/// ``SQLiteStatement/int64(at:)``…) finds the column again and checks the connection's error
/// state again. A column value is found once and then read directly, so checking a column's
/// storage class and reading it costs one lookup instead of two or three.
///
/// Valid only until the statement steps, resets or is finalized; a column belongs to its
/// statement's confinement (it is SQLite's unprotected value, and statements here are used by
/// one thread at a time).
///
/// The readers are inlinable: a fetch calls them for every column of every row, and a call
/// across the module boundary for each cost more than the read itself.
@frozen
public struct SQLiteColumn {
  @usableFromInline let handle: OpaquePointer

  @inlinable
  init(statement: SQLiteStatement, index: Int) {
    // Never nil: out-of-range columns read as NULL.
    handle = sqlite3_column_value(statement.handle, Int32(clamping: index))
  }

  /// The column's storage class.
  @inlinable
  public var storageClass: SQLiteStorageClass {
    SQLiteStorageClass(sqliteType: sqlite3_value_type(handle))
  }

  /// The value as a 64-bit integer (SQLite's conversions apply: NULL reads as 0).
  @inlinable
  public var int64: Int64 { sqlite3_value_int64(handle) }

  /// The value as a `Double` (NULL reads as 0).
  @inlinable
  public var double: Double { sqlite3_value_double(handle) }

  /// The value as a `String`, decoded with its exact byte length (invalid UTF-8 is repaired
  /// with U+FFFD; NULL reads as "").
  @inlinable
  public var text: String {
    guard let bytes = sqlite3_value_text(handle) else { return "" }
    let count = Int(sqlite3_value_bytes(handle))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// Calls `body` with the value's bytes in place, without copying them.
  @inlinable
  public func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    let bytes = sqlite3_value_blob(handle)
    let count = Int(sqlite3_value_bytes(handle))
    return try body(UnsafeRawBufferPointer(start: bytes, count: bytes == nil ? 0 : count))
  }

  /// The value's bytes as `Data`.
  @inlinable
  public var data: Data {
    guard let bytes = sqlite3_value_blob(handle) else { return Data() }
    return Data(bytes: bytes, count: Int(sqlite3_value_bytes(handle)))
  }
}

extension SQLiteStatement {
  /// Column `index` of the current row, read in place (see ``SQLiteColumn``).
  @inlinable
  public func column(at index: Int) -> SQLiteColumn {
    SQLiteColumn(statement: self, index: index)
  }
}
