/// Hands a string's UTF-8 bytes to SQLite with an exact length.
///
/// Passing the byte count (instead of relying on a NUL terminator) keeps text with embedded
/// NULs intact, and the non-`nil` pointer for empty strings keeps `""` distinct from `NULL`.
extension String {
  func withSQLiteUTF8<Result>(_ body: (UnsafePointer<CChar>, Int) throws -> Result) rethrows -> Result {
    var contiguous = self
    return try contiguous.withUTF8 { buffer in try body(buffer.sqliteTextStart, buffer.count) }
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The address of UTF-8 bytes as SQLite takes text: never `nil`, an empty buffer's being a
  /// static empty string's, so that `""` stays distinct from `NULL`.
  var sqliteTextStart: UnsafePointer<CChar> {
    let empty: StaticString = ""
    return UnsafeRawPointer(baseAddress ?? empty.utf8Start).assumingMemoryBound(to: CChar.self)
  }
}
