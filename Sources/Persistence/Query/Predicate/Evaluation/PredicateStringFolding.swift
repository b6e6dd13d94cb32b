import Foundation

/// The one string folding behind `[c]` and `[d]`, shared by every evaluator.
///
/// The in-memory evaluator, the sort comparator and the SQLite store (which registers this
/// function as an SQL function) all fold through ``fold(_:caseInsensitive:diacriticInsensitive:)``,
/// so they agree on which strings are equal under `[c]`/`[d]`. The folding is deterministic and
/// locale-independent (it depends only on the Unicode tables of the Swift runtime):
///
/// - With neither option the string is returned unchanged (comparisons are exact, by Unicode
///   scalar, like SQLite's binary collation).
/// - Case-insensitive: every character is mapped to lower case, upper case, then lower case
///   again, with the standard library's full, locale-independent mappings. This approximates
///   Unicode full case folding: `ß`, `ẞ` and `SS` all become `ss`, final `ς` and `Σ` become `σ`,
///   `ﬁ` becomes `fi`. Turkish letters get no locale treatment: `I` folds to `i`, dotless `ı` to
///   `i`, and dotted `İ` to `i` followed by U+0307 COMBINING DOT ABOVE (so `İ` equals `i` only
///   with `[cd]`).
/// - Then, whenever either option is given, the string is put in Unicode canonical
///   decomposition (NFD), so precomposed and decomposed spellings of a character fold alike.
/// - Diacritic-insensitive: nonspacing and enclosing combining marks (general categories Mn and
///   Me) are removed after decomposition, so `é` becomes `e` and `ñ` becomes `n`. Letters that
///   do not decompose keep their identity (`ø`, `ł`, `æ`, `đ` stay as they are), and spacing
///   marks (Mc, such as Indic vowel signs) are kept because they are not diacritics.
///
/// Compatibility forms (full-width letters, superscripts) are not folded. The result of a
/// folding is in NFD, not NFC; ordering folded strings compares their scalars in that form.
public enum PredicateStringFolding {
  /// Folds a string for `[c]` (case-insensitive) and/or `[d]` (diacritic-insensitive) comparison.
  public static func fold(_ string: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
    guard caseInsensitive || diacriticInsensitive else { return string }
    var text = string
    return text.withUTF8 { bytes in
      if isASCII(bytes) { return caseInsensitive ? asciiLowercased(string) : string }
      var folded = FoldedBytes(capacity: bytes.count + 8)
      fold(utf8: bytes, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, into: &folded)
      return String(decoding: folded.bytes, as: UTF8.self)
    }
  }

  /// Appends the folding of UTF-8 text to `output`.
  ///
  /// The folding works scalar by scalar except for canonical reordering, which only moves
  /// combining marks among themselves; an ASCII character is never touched by its neighbours.
  /// So the text is folded piecewise: ASCII bytes directly (lower-cased for `[c]`), each run
  /// of non-ASCII scalars by ``referenceFold(_:caseInsensitive:diacriticInsensitive:)``, with
  /// the runs' foldings cached in `runs` (or a cache shared by all threads). The result is the
  /// reference folding of the whole text, byte for byte.
  static func fold(
    utf8 bytes: UnsafeBufferPointer<UInt8>, caseInsensitive: Bool, diacriticInsensitive: Bool,
    into output: inout FoldedBytes, runs: PredicateFoldedRuns? = nil
  ) {
    output.reserve(bytes.count + 8)
    var index = 0
    while index < bytes.count {
      var end = asciiEnd(bytes, from: index)
      if end > index {
        let ascii = UnsafeBufferPointer(rebasing: bytes[index..<end])
        if caseInsensitive { output.appendLowercased(ascii) } else { output.append(ascii) }
        index = end
      }
      while end < bytes.count && bytes[end] >= 0x80 { end += 1 }
      if end > index {
        let run = UnsafeBufferPointer(rebasing: bytes[index..<end])
        if let runs {
          runs.append(run, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, to: &output)
        } else {
          PredicateFoldedRuns.appendShared(
            run, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, to: &output)
        }
        index = end
      }
    }
  }

  /// The position of the first non-ASCII byte at or after `start` (the end when there is none),
  /// found eight bytes at a time.
  @inline(__always)
  private static func asciiEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    guard let base = bytes.baseAddress else { return start }
    let raw = UnsafeRawPointer(base)
    var index = start
    while index &+ 8 <= bytes.count {
      let high = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self).littleEndian & 0x8080_8080_8080_8080
      if high != 0 { return index &+ high.trailingZeroBitCount >> 3 }
      index &+= 8
    }
    while index < bytes.count && base[index] < 0x80 { index &+= 1 }
    return index
  }

  /// The folding of a whole string in one go, as defined above: the definition that
  /// ``fold(_:caseInsensitive:diacriticInsensitive:)`` computes piecewise.
  static func referenceFold(_ string: String, caseInsensitive: Bool, diacriticInsensitive: Bool) -> String {
    guard caseInsensitive || diacriticInsensitive else { return string }
    var folded = string
    if caseInsensitive {
      folded = folded.lowercased().uppercased().lowercased()
    }
    folded = folded.decomposedStringWithCanonicalMapping
    if diacriticInsensitive {
      var scalars = String.UnicodeScalarView()
      for scalar in folded.unicodeScalars {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: continue
        default: scalars.append(scalar)
        }
      }
      folded = String(scalars)
    }
    return folded
  }

  /// Folds a string for the `[c]`/`[d]` members of `options` (`[n]` changes nothing).
  public static func fold(_ string: String, options: PredicateComparisonOptions) -> String {
    fold(
      string, caseInsensitive: options.contains(.caseInsensitive),
      diacriticInsensitive: options.contains(.diacriticInsensitive))
  }

  /// Whether every byte is ASCII. Folding an ASCII string is at most lower-casing its ASCII
  /// letters (``asciiLowercase(_:)``), the fast path that the SQL functions share with
  /// ``fold(_:caseInsensitive:diacriticInsensitive:)``.
  /// Contiguous bytes (a native string's, a buffer's) are read eight at a time, below.
  static func isASCII(_ bytes: some Sequence<UInt8>) -> Bool {
    if let contiguous = bytes.withContiguousStorageIfAvailable({ isASCII($0) }) { return contiguous }
    var combined: UInt8 = 0
    for byte in bytes { combined |= byte }
    return combined < 0x80
  }

  /// Whether every byte is ASCII, read eight bytes at a time: the SQL functions ask this of
  /// every row's text before searching it.
  static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = bytes.baseAddress else { return true }
    let raw = UnsafeRawPointer(base)
    let count = bytes.count
    var combined: UInt64 = 0
    guard count >= 8 else {
      for index in 0..<count { combined |= UInt64(base[index]) }
      return combined < 0x80
    }
    var index = 0
    while index &+ 8 <= count {
      combined |= raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      index &+= 8
    }
    // The last eight bytes, overlapping the words already read, instead of a byte at a time.
    combined |= raw.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
    return combined & 0x8080_8080_8080_8080 == 0
  }

  /// An ASCII byte lower-cased (`A`…`Z` to `a`…`z`); every other byte unchanged.
  @inline(__always)
  static func asciiLowercase(_ byte: UInt8) -> UInt8 {
    byte &- 0x41 < 26 ? byte | 0x20 : byte
  }

  private static func asciiLowercased(_ string: String) -> String {
    String(decoding: string.utf8.map(asciiLowercase), as: UTF8.self)
  }
}
