import Foundation
import Testing

@testable import Persistence

/// The piecewise, cached folding must be the whole-string reference folding, byte for byte.
@Suite("Fast folding")
struct FoldingAgreementTests {
  static let pieces: [String] = [
    "a", "Z", "e", "I", "i", " ", "*", "1", "\u{301}", "\u{308}", "\u{323}", "\u{20DD}", "\u{345}", "é", "É", "ß", "ẞ",
    "İ", "ı", "Σ", "ς", "σ", "ΐ", "ﬁ", "Ǆ", "ǅ", "ø", "Å", "Å", "한", "ᄀ", "\u{F73}", "\u{F71}", "\u{F72}", "ཱི", "😀",
    "日", "ｆ", "Ω", "K", "ŉ", "ǰ", "\u{1E9E}", "ᾳ", "ᾼ", "\u{0345}\u{0301}", "a\u{0323}\u{0302}",
  ]

  @Test("Random strings fold the same piecewise and whole")
  func randomStrings() {
    var random = SeedRandom(seed: 31)
    for _ in 0..<3000 {
      let string = (0..<Int.random(in: 0...8, using: &random)).map { _ in random.pick(Self.pieces) }.joined()
      for (c, d) in [(true, false), (false, true), (true, true)] {
        let fast = PredicateStringFolding.fold(string, caseInsensitive: c, diacriticInsensitive: d)
        let reference = PredicateStringFolding.referenceFold(string, caseInsensitive: c, diacriticInsensitive: d)
        #expect(
          Array(fast.utf8) == Array(reference.utf8),
          "\(string.unicodeScalars.map { String($0.value, radix: 16) }) c=\(c) d=\(d)")
      }
    }
  }
}
