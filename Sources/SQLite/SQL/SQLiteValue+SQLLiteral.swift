/// Rendering values as SQL literals, for DDL where SQLite accepts no bound parameters.
extension SQLiteValue {
  /// This value as SQL literal text that SQLite reads back as the same value.
  ///
  /// Text is single-quoted with quotes doubled, blobs are `X'hex'`, reals use the shortest
  /// representation that round-trips (with `.0` kept so they stay reals), infinities are
  /// `9e999`/`-9e999` (SQLite's spelling of overflow to infinity) and NaN is `NULL`.
  /// Only ``SQLiteSQL``'s `\(literal:)` interpolation should need this; bind values otherwise.
  public var sqlLiteral: String {
    switch self {
    case .null:
      return "NULL"
    case .integer(let value):
      return String(value)
    case .real(let value):
      if value.isNaN { return "NULL" }
      if value.isInfinite { return value < 0 ? "-9e999" : "9e999" }
      let text = "\(value)"
      return text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) ? text : text + ".0"
    case .text(let value):
      precondition(!value.utf8.contains(0), "SQL text literals cannot contain NUL characters; bind the value")
      var literal = "'"
      literal.reserveCapacity(value.utf8.count + 2)
      for scalar in value.unicodeScalars {
        if scalar == "'" { literal += "''" } else { literal.unicodeScalars.append(scalar) }
      }
      return literal + "'"
    case .blob(let bytes):
      let digits: [Character] = Array("0123456789ABCDEF")
      var hex = "X'"
      hex.reserveCapacity(bytes.count * 2 + 3)
      for byte in bytes {
        hex.append(digits[Int(byte >> 4)])
        hex.append(digits[Int(byte & 0x0f)])
      }
      return hex + "'"
    }
  }
}
