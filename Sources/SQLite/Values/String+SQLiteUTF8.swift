/// Hands a string's UTF-8 bytes to SQLite with an exact length.
///
/// Passing the byte count (instead of relying on a NUL terminator) keeps text with embedded
/// NULs intact, and the non-`nil` pointer for empty strings keeps `""` distinct from `NULL`.
extension String {
  func withSQLiteUTF8<Result>(_ body: (UnsafePointer<CChar>, Int) throws -> Result) rethrows -> Result {
    var contiguous = self
    return try contiguous.withUTF8 { buffer in
      let empty: StaticString = ""
      let base = UnsafeRawPointer(buffer.baseAddress ?? empty.utf8Start)
      return try body(base.assumingMemoryBound(to: CChar.self), buffer.count)
    }
  }
}
