import CSQLite

/// UTF-8 bytes handed to SQLite as text, with their exact length.
///
/// Passing the byte count (instead of relying on a NUL terminator) keeps text with embedded
/// NULs intact, and the non-`nil` pointer for empty text keeps `""` distinct from `NULL`.
/// Statements bind text through ``sqliteTextStart``; functions return it through
/// ``setTextResult(of:)``.
extension UnsafeBufferPointer<UInt8> {
  /// The address of UTF-8 bytes as SQLite takes text: never `nil`, an empty buffer's being a
  /// static empty string's, so that `""` stays distinct from `NULL`.
  var sqliteTextStart: UnsafePointer<CChar> {
    let empty: StaticString = ""
    return UnsafeRawPointer(baseAddress ?? empty.utf8Start).assumingMemoryBound(to: CChar.self)
  }

  /// Makes these bytes, as text, the result of the function call `context` is (SQLite copies
  /// them).
  func setTextResult(of context: OpaquePointer?) {
    sqlite3_result_text64(context, sqliteTextStart, sqlite3_uint64(count), sqliteTransient, UInt8(SQLITE_UTF8))
  }
}
