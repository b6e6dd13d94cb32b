import CSQLite
import Foundation

/// Reading the current row's columns and describing the result columns.
///
/// The typed readers follow SQLite's conversion rules when the stored type differs (`NULL`
/// reads as `0`, `0.0`, `""` or empty bytes; text is parsed as a number…), so check
/// ``isNull(at:)`` or ``columnType(at:)`` first when the difference matters. Scalar reads
/// allocate nothing.
extension SQLiteStatement {
  /// The number of result columns (0 for statements that return no rows).
  public var columnCount: Int { Int(sqlite3_column_count(handle)) }

  /// The name of result column `index` (its `AS` alias when it has one).
  public func columnName(at index: Int) -> String {
    sqlite3_column_name(handle, Int32(clamping: index)).map { String(cString: $0) } ?? ""
  }

  /// All result column names, in order.
  public var columnNames: [String] {
    (0..<columnCount).map(columnName(at:))
  }

  /// The index of the first result column called `name`, if any.
  public func columnIndex(named name: String) -> Int? {
    (0..<columnCount).first { columnName(at: $0) == name }
  }

  /// The declared type of result column `index` (`INTEGER`, `VARCHAR`…) when it is a plain
  /// table column; `nil` for expressions.
  public func declaredType(at index: Int) -> String? {
    sqlite3_column_decltype(handle, Int32(clamping: index)).map { String(cString: $0) }
  }

  /// The storage class of column `index` in the current row.
  public func columnType(at index: Int) -> SQLiteStorageClass {
    SQLiteStorageClass(sqliteType: sqlite3_column_type(handle, Int32(clamping: index)))
  }

  /// Whether column `index` of the current row is `NULL`.
  public func isNull(at index: Int) -> Bool {
    sqlite3_column_type(handle, Int32(clamping: index)) == SQLITE_NULL
  }

  /// Column `index` as a 64-bit integer. Inlinable: a fetch reads every row's key, entity and
  /// version through it.
  @inlinable
  public func int64(at index: Int) -> Int64 {
    sqlite3_column_int64(handle, Int32(clamping: index))
  }

  /// Column `index` as an `Int`.
  public func int(at index: Int) -> Int {
    Int(sqlite3_column_int64(handle, Int32(clamping: index)))
  }

  /// Column `index` as a `Double`.
  public func double(at index: Int) -> Double {
    sqlite3_column_double(handle, Int32(clamping: index))
  }

  /// Column `index` as a `Bool`: any non-zero integer is `true`.
  public func bool(at index: Int) -> Bool {
    sqlite3_column_int64(handle, Int32(clamping: index)) != 0
  }

  /// Column `index` as a `String`, decoded with its exact byte length (invalid UTF-8 is
  /// repaired with U+FFFD).
  public func text(at index: Int) -> String {
    column(at: index).text
  }

  /// Column `index` as bytes.
  public func blob(at index: Int) -> [UInt8] {
    column(at: index).withBytes { [UInt8]($0) }
  }

  /// Calls `body` with the bytes of column `index` in place, without copying them (the
  /// buffer is valid only during the call).
  public func withBlob<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
    try column(at: index).withBytes(body)
  }

  /// Column `index` as `Data`.
  public func data(at index: Int) -> Data {
    column(at: index).data
  }

  /// Column `index` as whatever it holds, without conversion.
  public func value(at index: Int) -> SQLiteValue {
    switch columnType(at: index) {
    case .null: return .null
    case .integer: return .integer(int64(at: index))
    case .real: return .real(double(at: index))
    case .text: return .text(text(at: index))
    case .blob: return .blob(blob(at: index))
    }
  }

  /// Every column of the current row, in order.
  public var rowValues: [SQLiteValue] {
    (0..<columnCount).map(value(at:))
  }
}
