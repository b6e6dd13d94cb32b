import Foundation
import Persistence
import Testing

@Suite("Predicate string folding")
struct PredicateStringFoldingTests {
  @Test(
    "folds case and diacritics deterministically",
    arguments: [
      // (input, [c], [d], expected)
      ("Hello", true, false, "hello"),
      ("Hello", false, true, "Hello"),
      ("Hello", false, false, "Hello"),
      ("Café", false, false, "Café"),
      ("Café", true, false, "cafe\u{301}"),
      ("Cafe\u{301}", true, false, "cafe\u{301}"),
      ("Café", false, true, "Cafe"),
      ("Café", true, true, "cafe"),
      ("Straße", true, false, "strasse"),
      ("Straße", false, true, "Straße"),
      ("ẞ", true, false, "ss"),
      ("ΟΔΟΣ", true, false, "οδοσ"),
      ("ς", true, false, "σ"),
      ("ﬁle", true, false, "file"),
      ("ﬁle", false, true, "ﬁle"),
      ("İstanbul", true, false, "i\u{307}stanbul"),
      ("İstanbul", false, true, "Istanbul"),
      ("İstanbul", true, true, "istanbul"),
      ("ı", true, false, "i"),
      ("ı", false, true, "ı"),
      ("øre", true, true, "øre"),
      ("Łódź", true, true, "łodz"),
      ("Ñandú", false, true, "Nandu"),
      ("a\u{20DD}", false, true, "a"),
      ("कि", true, true, "कि"),
      ("ｆｕｌｌ", true, true, "ｆｕｌｌ"),
      ("Ǆ", true, false, "ǆ"),
      ("", true, true, ""),
    ])
  func fold(_ input: String, _ caseInsensitive: Bool, _ diacriticInsensitive: Bool, _ expected: String) {
    let folded = PredicateStringFolding.fold(
      input, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
    #expect(Array(folded.unicodeScalars) == Array(expected.unicodeScalars))
  }

  @Test func foldingIsIdempotentAndMatchesTheOptionsOverload() {
    for input in ["Café au LAIT", "Straße", "İı", "ΟΔΟΣ", "Ñandú", "plain", "😀Ünïcödé"] {
      for options: PredicateComparisonOptions in [
        [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
      ] {
        let once = PredicateStringFolding.fold(input, options: options)
        #expect(PredicateStringFolding.fold(once, options: options) == once)
        #expect(
          once
            == PredicateStringFolding.fold(
              input, caseInsensitive: options.contains(.caseInsensitive),
              diacriticInsensitive: options.contains(.diacriticInsensitive)))
      }
    }
    #expect(PredicateStringFolding.fold("ÀB", options: .normalized) == "ÀB")
  }

  @Test func stringMatchingFunctions() throws {
    #expect(PredicateStringMatching.contains("Café", "FÉ", options: .caseInsensitive))
    #expect(!PredicateStringMatching.contains("Café", ""))
    #expect(PredicateStringMatching.beginsWith("Café", "CAFE", options: [.caseInsensitive, .diacriticInsensitive]))
    #expect(PredicateStringMatching.endsWith("Café", "fé"))
    #expect(!PredicateStringMatching.endsWith("Cafe\u{301}", "fé"))
    #expect(PredicateStringMatching.like("Café", pattern: "c?f*", options: .caseInsensitive))
    #expect(try PredicateStringMatching.matches("Café", regex: "caf.", options: .caseInsensitive))
    #expect(throws: PredicateEvaluationError.invalidRegularExpression("[")) {
      try PredicateStringMatching.matches("x", regex: "[")
    }
  }
}
