/// Where one user-perceived character ends and the next begins, for the string operators.
///
/// NSPredicate's `CONTAINS`, `BEGINSWITH`, `ENDSWITH` and `LIKE` work on whole characters
/// (composed character sequences): `"café" CONTAINS[c] "cafe"` is false, because the match
/// would end inside `é`. The operators here compare folded text, which is in canonical
/// decomposition (`é` is `e` + U+0301), so a byte-wise match could end between a letter and its
/// accent and `[c]` would ignore diacritics as `[d]` does. A match therefore has to start and end
/// on a boundary this type finds: between two scalars that the extended grapheme cluster rules
/// keep apart (a combining mark, a Hangul jamo continuing a syllable or a joiner is no boundary).
/// The rules are applied to each pair of neighbouring scalars, which is exact for combining marks
/// and Hangul and close for emoji sequences; every evaluator uses this one definition.
enum PredicateCharacterBoundary {
  /// Whether a character boundary lies between two neighbouring scalars.
  static func between(_ previous: Unicode.Scalar, _ next: Unicode.Scalar) -> Bool {
    if next.isASCII { return !(previous == "\r" && next == "\n") }
    switch next.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .spacingMark: return false
    default: break
    }
    var pair = String.UnicodeScalarView()
    pair.append(previous)
    pair.append(next)
    return String(pair).count == 2
  }

  /// Whether a character boundary lies before the byte at `position` of UTF-8 text (the start
  /// and the end of the text are boundaries; the middle of a scalar is not).
  static func isBoundary(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
    guard position > 0, position < bytes.count else { return true }
    let byte = bytes[position]
    if byte < 0x80 { return !(byte == 0x0A && bytes[position - 1] == 0x0D) }
    guard byte >= 0xC0, let next = scalar(in: bytes, at: position) else { return false }
    var start = position - 1
    while start > 0 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
    guard let previous = scalar(in: bytes, at: start) else { return true }
    return between(previous, next)
  }

  /// For each scalar, whether a character boundary lies before it (the first is always one).
  static func boundaries<Scalars: RandomAccessCollection<Unicode.Scalar>>(_ scalars: Scalars) -> [Bool]
  where Scalars.Index == Int {
    var result = [Bool](repeating: true, count: scalars.count)
    var index = 1
    while index < scalars.count {
      result[index] = between(scalars[index - 1], scalars[index])
      index += 1
    }
    return result
  }

  /// The scalar whose UTF-8 encoding starts at `position`.
  private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Unicode.Scalar? {
    let lead = bytes[position]
    let length: Int
    switch lead {
    case 0..<0x80: return Unicode.Scalar(lead)
    case 0xC0..<0xE0: length = 2
    case 0xE0..<0xF0: length = 3
    case 0xF0..<0xF8: length = 4
    default: return nil
    }
    guard position + length <= bytes.count else { return nil }
    var value = UInt32(lead) & (0x7F >> length)
    for offset in 1..<length { value = value << 6 | UInt32(bytes[position + offset] & 0x3F) }
    return Unicode.Scalar(value)
  }
}
