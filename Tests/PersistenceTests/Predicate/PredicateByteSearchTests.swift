import Foundation
import SQLite
import Testing

@testable import Persistence

/// The byte kernels behind `CONTAINS` and the SQL functions read eight bytes at a time; these
/// tests hold them to a plain byte-by-byte search at every length and alignment.
@Suite("Predicate byte searches")
struct PredicateByteSearchTests {
  /// Letters in both cases, and the bytes that equal a letter once bit 5 is set (`@`, `[`,
  /// `` ` ``, `{`…), which the eight-byte skip must not take for matches.
  static let alphabet = Array("aArRzZ@`[{ 0p".utf8)

  /// A plain search: `needle` at some position of `haystack`, lower-cased first when asked.
  static func plainFind(_ needle: [UInt8], in haystack: [UInt8], lowercasing: Bool) -> Bool {
    let text = lowercasing ? haystack.map(PredicateStringFolding.asciiLowercase) : haystack
    guard !needle.isEmpty, needle.count <= text.count else { return false }
    return (0...(text.count - needle.count)).contains { Array(text[$0..<($0 + needle.count)]) == needle }
  }

  static func find(_ needle: [UInt8], in haystack: [UInt8], lowercasing: Bool) -> Bool {
    needle.withUnsafeBufferPointer { needle in
      haystack.withUnsafeBufferPointer {
        PredicateStringMatching.find(needle, in: $0, lowercasingHaystack: lowercasing)
      }
    }
  }

  @Test("CONTAINS's search agrees with a plain search, with and without lower-casing")
  func findAgreesWithPlainSearch() {
    var generator = SeedRandom(seed: 20)
    var found = 0
    for _ in 0..<20_000 {
      let haystack = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
        Self.alphabet.randomElement(using: &generator)!
      }
      let needle = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
        Self.alphabet.randomElement(using: &generator)!
      }
      for lowercasing in [false, true] {
        // With lower-casing the search string is folded already: it holds no capital.
        let searched = lowercasing ? needle.map(PredicateStringFolding.asciiLowercase) : needle
        let expected = Self.plainFind(searched, in: haystack, lowercasing: lowercasing)
        #expect(Self.find(searched, in: haystack, lowercasing: lowercasing) == expected)
        if expected { found += 1 }
      }
    }
    #expect(found > 1_000)
  }

  @Test("A match is found at every position of a long text, and a near miss is not")
  func everyPosition() {
    let needle = Array("report".utf8)
    for length in 6...40 {
      for position in 0...(length - 6) {
        var haystack = [UInt8](repeating: UInt8(ascii: "x"), count: length)
        haystack.replaceSubrange(position..<(position + 6), with: "RePoRt".utf8)
        #expect(Self.find(needle, in: haystack, lowercasing: true))
        #expect(!Self.find(needle, in: haystack, lowercasing: false))
        // The last letter changed: every `r` is a candidate and none matches.
        haystack[position + 5] = UInt8(ascii: "s")
        #expect(!Self.find(needle, in: haystack, lowercasing: true))
      }
    }
  }

  @Test("isASCII finds a non-ASCII byte at any position of any length")
  func isASCIIAtEveryPosition() {
    for length in 0...40 {
      let ascii = [UInt8](repeating: 0x7F, count: length)
      #expect(ascii.withUnsafeBufferPointer(PredicateStringFolding.isASCII))
      for position in 0..<length {
        var bytes = ascii
        bytes[position] = 0x80
        #expect(!bytes.withUnsafeBufferPointer(PredicateStringFolding.isASCII))
      }
    }
  }

  @Test("modelc_contains agrees with the evaluator on long texts, ASCII or not")
  func sqlFunctionOnLongTexts() throws {
    let connection = try SQLiteConnection(.inMemory)
    try QueryFunctions.register(on: connection)
    let statement = try connection.prepare("SELECT modelc_contains(?, ?, ?)")
    let haystacks = [
      "Task 12345 REPORT 12", "Task 12345 rEpOrT", "report", "Task 1 r3port @`[{ REPOR", "Résumé of the REPORT",
      "Café report", "Cafe\u{301} REPORT and more text after it", String(repeating: "R", count: 33) + "report",
    ]
    for haystack in haystacks {
      for needle in ["REPORT", "report", "é", "e", "@", "`", "REPORTS"] {
        for flags: Int64 in [0, 1, 2, 3] {
          try statement.bind([.text(haystack), .text(needle), .integer(flags)])
          _ = try statement.step()
          let expected = PredicateStringMatching.contains(haystack, needle, options: QueryFunctions.options(flags))
          #expect((statement.int64(at: 0) == 1) == expected, "\(haystack) CONTAINS[\(flags)] \(needle)")
          statement.reset()
        }
      }
    }
  }

  @Test("The folded-runs cache gives the reference folding of every two-byte scalar, folded or cached")
  func twoByteScalarsFoldAsTheReference() {
    let runs = PredicateFoldedRuns()
    for (caseInsensitive, diacriticInsensitive) in [(true, false), (false, true), (true, true), (false, false)] {
      for value in UInt32(0x80)...0x7FF {
        guard let scalar = Unicode.Scalar(value) else { continue }
        let text = "a" + String(Character(scalar)) + "b"
        let expected = Array(
          PredicateStringFolding.referenceFold(
            text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive
          ).utf8)
        // Twice: the first folds the scalar and fills its entry, the second reads the entry.
        for _ in 0..<2 {
          var folded = FoldedBytes()
          Array(text.utf8).withUnsafeBufferPointer {
            PredicateStringFolding.fold(
              utf8: $0, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, into: &folded,
              runs: runs)
          }
          #expect(
            Array(folded.bytes) == expected,
            "U+\(String(value, radix: 16)) [c] \(caseInsensitive) [d] \(diacriticInsensitive)")
        }
      }
    }
  }
}
