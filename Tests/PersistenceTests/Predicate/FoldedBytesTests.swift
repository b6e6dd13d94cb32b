import Testing

@testable import Persistence

/// The buffer the SQL functions fold each row's text into: its word-at-a-time lower-casing, its
/// packed appends and its growth, held to the byte-by-byte definitions.
@Suite("Folded bytes")
struct FoldedBytesTests {
  @Test("Eight bytes lower-cased at once equal each byte lower-cased, for every ASCII byte in every position")
  func wordLowercasingMatchesBytes() {
    for byte in UInt8(0)..<0x80 {
      for position in 0..<8 {
        // The byte among neighbours on both sides of the letter range, so a carry would show.
        var bytes: [UInt8] = [0x40, 0x5B, 0x41, 0x5A, 0x7F, 0x00, 0x60, 0x7B]
        bytes[position] = byte
        let word = bytes.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let lowered = withUnsafeBytes(of: FoldedBytes.asciiLowercased(word)) { Array($0) }
        #expect(lowered == bytes.map(PredicateStringFolding.asciiLowercase), "byte \(byte) at \(position)")
      }
    }
  }

  @Test("Appending lower-cased text of every length gives the text lower-cased, across growth")
  func appendLowercasedAtEveryLength() {
    let source = Array("The QUICK brown Fox @[`{ JUMPS over THE lazy DOG 0123456789 ZzAa".utf8)
    var folded = FoldedBytes(capacity: 1)
    var expected: [UInt8] = []
    for length in 0...source.count {
      let piece = Array(source[0..<length])
      piece.withUnsafeBufferPointer { folded.appendLowercased($0) }
      expected += piece.map(PredicateStringFolding.asciiLowercase)
    }
    #expect(Array(folded.bytes) == expected)
    folded.removeAll()
    #expect(folded.count == 0)
  }

  @Test("Packed appends keep only their own bytes, and the buffer grows under them")
  func packedAppends() {
    var folded = FoldedBytes(capacity: 1)
    var expected: [UInt8] = []
    for round in 0..<100 {
      let length = round % 8
      let bytes = (0..<length).map { UInt8(0x61 + ($0 + round) % 26) }
      // Bytes past the length set, to show that they are dropped.
      var packed: UInt64 = ~0 << (8 * UInt64(length))
      for (index, byte) in bytes.enumerated() { packed |= UInt64(byte) << (8 * UInt64(index)) }
      folded.append(packed: packed, length: length)
      expected += bytes
    }
    #expect(Array(folded.bytes) == expected)
  }

  @Test("Folding into the buffer equals the reference folding, with and without a runs cache")
  func foldingMatchesReference() {
    let texts = [
      "Task 12 Café 3", "résumé RÉSUMÉ", "naïve NAÏVE plan", "ǅ ǈ ǋ Ǆ", "ΐΰ ﬁ ß ẞ İ", "Straße Ǖ ǖ",
      "e\u{301}\u{327} mixed ASCII and ÅÄÖ long enough to cross eight-byte words", "日本語 テキスト", "😀 emoji 👍🏽",
    ]
    let runs = PredicateFoldedRuns()
    for text in texts {
      for (c, d) in [(true, false), (false, true), (true, true)] {
        let reference = Array(
          PredicateStringFolding.referenceFold(text, caseInsensitive: c, diacriticInsensitive: d).utf8)
        for cache in [runs, nil] {
          var folded = FoldedBytes(capacity: 1)
          Array(text.utf8).withUnsafeBufferPointer {
            PredicateStringFolding.fold(
              utf8: $0, caseInsensitive: c, diacriticInsensitive: d, into: &folded, runs: cache)
          }
          #expect(Array(folded.bytes) == reference, "\(text) [c] \(c) [d] \(d)")
        }
      }
    }
  }
}
