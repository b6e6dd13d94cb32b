import CSQLite

/// Conversions between ``SQLiteValue`` and SQLite's C value handles.
///
/// Shared by statement binding, column reads and custom-function arguments and results, so
/// every place that crosses the C boundary follows the same rules (exact byte lengths, empty
/// blobs stay blobs, `SQLITE_TRANSIENT` copies).
extension SQLiteValue {
  /// Reads a protected or unprotected `sqlite3_value` (a function argument).
  init(sqliteValueHandle value: OpaquePointer?) {
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER:
      self = .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT:
      self = .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      let bytes = sqlite3_value_text(value)
      let count = Int(sqlite3_value_bytes(value))
      self = .text(bytes.map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
    case SQLITE_BLOB:
      let bytes = sqlite3_value_blob(value)
      let count = Int(sqlite3_value_bytes(value))
      self = .blob(bytes.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
    default:
      self = .null
    }
  }

  /// Sets this value as the result of a custom SQL function call.
  func setResult(of context: OpaquePointer?) {
    switch self {
    case .null:
      sqlite3_result_null(context)
    case .integer(let value):
      sqlite3_result_int64(context, value)
    case .real(let value):
      sqlite3_result_double(context, value)
    case .text(let value):
      var text = value
      text.withUTF8 { $0.setTextResult(of: context) }
    case .blob(let bytes):
      if bytes.isEmpty {
        sqlite3_result_zeroblob(context, 0)
      } else {
        bytes.withUnsafeBytes { buffer in
          sqlite3_result_blob64(context, buffer.baseAddress, sqlite3_uint64(buffer.count), sqliteTransient)
        }
      }
    }
  }
}
