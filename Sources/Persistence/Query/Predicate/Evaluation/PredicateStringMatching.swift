import Foundation

/// The string operators of predicates (`CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`),
/// as plain functions the in-memory evaluator uses and the SQLite store registers as SQL
/// functions, so that both evaluators match identically.
///
/// Every function first folds both strings with ``PredicateStringFolding`` when `[c]` or `[d]`
/// is given; without options they compare Unicode scalars exactly. Following NSString, an empty
/// search string is found nowhere: `CONTAINS ""`, `BEGINSWITH ""` and `ENDSWITH ""` are false,
/// and a match starts and ends on a character boundary (`PredicateCharacterBoundary`): folded
/// text is decomposed, and `"café" CONTAINS[c] "cafe"` must not match the `e` of `é` — only
/// `[d]` ignores diacritics.
public enum PredicateStringMatching {
  /// `string CONTAINS[options] substring`: whether `substring` (non-empty) occurs in `string`.
  public static func contains(
    _ string: String, _ substring: String, options: PredicateComparisonOptions = []
  ) -> Bool {
    let (haystack, needle) = folded(string, substring, options)
    return withBytes(haystack, needle) { find($1, in: $0, lowercasingHaystack: false) }
  }

  /// `string BEGINSWITH[options] prefix`: whether `string` starts with `prefix` (non-empty).
  public static func beginsWith(_ string: String, _ prefix: String, options: PredicateComparisonOptions = []) -> Bool {
    let (haystack, needle) = folded(string, prefix, options)
    return withBytes(haystack, needle) { hasPrefix($1, in: $0, lowercasingHaystack: false) }
  }

  /// `string ENDSWITH[options] suffix`: whether `string` ends with `suffix` (non-empty).
  public static func endsWith(_ string: String, _ suffix: String, options: PredicateComparisonOptions = []) -> Bool {
    let (haystack, needle) = folded(string, suffix, options)
    return withBytes(haystack, needle) { hasSuffix($1, in: $0, lowercasingHaystack: false) }
  }

  /// `string LIKE[options] pattern`: whether the whole `string` matches a wildcard pattern.
  ///
  /// `*` matches any run of characters (including none), `?` exactly one character — a letter
  /// with its combining marks counts as one, so `?` matches `é` precomposed or not — both on
  /// character boundaries of the folded text. A backslash makes the next character literal
  /// (`\*`, `\?`, `\\`); a trailing backslash is literal.
  public static func like(_ string: String, pattern: String, options: PredicateComparisonOptions = []) -> Bool {
    let (subject, folded) = folded(string, pattern, options)
    return PredicateLikePattern(folded).matches(Array(subject.unicodeScalars))
  }

  /// `string MATCHES[options] regex`: whether the whole `string` matches an ICU regular
  /// expression (the pattern is anchored at both ends).
  ///
  /// `[c]` matches case-insensitively (ICU's own case-insensitive mode, not the folding, so
  /// that character classes in the pattern keep their meaning); `[d]` removes diacritics from
  /// both the string and the pattern before matching. Compiled expressions are cached.
  ///
  /// - Throws: ``PredicateEvaluationError/invalidRegularExpression(_:)`` for an invalid pattern.
  public static func matches(_ string: String, regex pattern: String, options: PredicateComparisonOptions = [])
    throws(PredicateEvaluationError) -> Bool
  {
    let diacritics = options.contains(.diacriticInsensitive)
    let subject = PredicateStringFolding.fold(string, caseInsensitive: false, diacriticInsensitive: diacritics)
    let source = PredicateStringFolding.fold(pattern, caseInsensitive: false, diacriticInsensitive: diacritics)
    let expression = try PredicateRegexCache.shared.expression(
      for: source, caseInsensitive: options.contains(.caseInsensitive))
    return expression.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) != nil
  }

  private static func folded(_ a: String, _ b: String, _ options: PredicateComparisonOptions) -> (String, String) {
    guard options.requiresFolding else { return (a, b) }
    return (PredicateStringFolding.fold(a, options: options), PredicateStringFolding.fold(b, options: options))
  }

  private static func withBytes(
    _ a: String, _ b: String, _ body: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool
  ) -> Bool {
    var first = a
    var second = b
    return first.withUTF8 { x in second.withUTF8 { y in body(x, y) } }
  }

  // MARK: - Byte kernels

  // The searches behind CONTAINS, BEGINSWITH and ENDSWITH, on UTF-8 bytes of strings already
  // folded. The SQL functions call them too, on the store's text in place: with
  // `lowercasingHaystack` an ASCII haystack is lower-cased byte by byte as it is compared, which
  // is exactly what folding an ASCII string for `[c]` does (see `PredicateStringFolding`).

  /// Whether `needle` (non-empty) occurs in `haystack`.
  static func find(
    _ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, lowercasingHaystack: Bool
  ) -> Bool {
    let count = needle.count
    guard count > 0, count <= haystack.count, let base = haystack.baseAddress else { return false }
    let first = needle[0]
    let last = haystack.count - count
    // Positions are skipped eight at a time while none of the eight bytes can start a match:
    // with lower-casing, a byte can only match a lower-case letter when it is that letter or
    // its capital, both equal to the letter once bit 5 is set (other bytes equal under that
    // mask are checked one by one below, and fail there).
    let mask: UInt64 = lowercasingHaystack && first &- 0x61 < 26 ? 0x2020_2020_2020_2020 : 0
    let pattern = UInt64(first) &* 0x0101_0101_0101_0101
    let raw = UnsafeRawPointer(base)
    var start = 0
    while start <= last {
      if start &+ 8 <= haystack.count {
        // A zero byte in `difference` is a byte equal to `first` (under the mask).
        let difference = (raw.loadUnaligned(fromByteOffset: start, as: UInt64.self) | mask) ^ pattern
        let zeros = (difference &- 0x0101_0101_0101_0101) & ~difference & 0x8080_8080_8080_8080
        if zeros == 0 {
          start &+= 8
          continue
        }
        // The lowest flag marks the first such byte exactly (only flags above a zero byte can
        // be false): go straight to it.
        start &+= zeros.littleEndian.trailingZeroBitCount >> 3
        if start > last { return false }
      }
      let byte = lowercasingHaystack ? PredicateStringFolding.asciiLowercase(haystack[start]) : haystack[start]
      if byte == first && matchesAt(start + 1, needle, 1, haystack, lowercasingHaystack)
        && PredicateCharacterBoundary.isBoundary(in: haystack, at: start)
        && PredicateCharacterBoundary.isBoundary(in: haystack, at: start + count)
      {
        return true
      }
      start += 1
    }
    return false
  }

  /// Whether `haystack` starts with `needle` (non-empty).
  static func hasPrefix(
    _ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, lowercasingHaystack: Bool
  ) -> Bool {
    guard needle.count > 0, needle.count <= haystack.count else { return false }
    return matchesAt(0, needle, 0, haystack, lowercasingHaystack)
      && PredicateCharacterBoundary.isBoundary(in: haystack, at: needle.count)
  }

  /// Whether `haystack` ends with `needle` (non-empty).
  static func hasSuffix(
    _ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, lowercasingHaystack: Bool
  ) -> Bool {
    guard needle.count > 0, needle.count <= haystack.count else { return false }
    return matchesAt(haystack.count - needle.count, needle, 0, haystack, lowercasingHaystack)
      && PredicateCharacterBoundary.isBoundary(in: haystack, at: haystack.count - needle.count)
  }

  /// Whether `needle[from...]` equals the bytes of `haystack` from `position`.
  @inline(__always)
  private static func matchesAt(
    _ position: Int, _ needle: UnsafeBufferPointer<UInt8>, _ from: Int, _ haystack: UnsafeBufferPointer<UInt8>,
    _ lowercasing: Bool
  ) -> Bool {
    var offset = from
    var index = position
    while offset < needle.count {
      let byte = lowercasing ? PredicateStringFolding.asciiLowercase(haystack[index]) : haystack[index]
      if byte != needle[offset] { return false }
      offset += 1
      index += 1
    }
    return true
  }
}
