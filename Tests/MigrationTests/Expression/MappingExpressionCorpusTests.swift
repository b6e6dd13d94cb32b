import Foundation
import Migration
import Persistence
import TestSupport
import Testing

@Suite("Mapping expressions of the corpus's mapping models")
struct MappingExpressionCorpusTests {
  /// Every `valueexpressiondata` of `mappings/**/xcmapping.xml`, with the file it comes from.
  static func corpusExpressions() throws -> [(file: String, data: Data)] {
    guard let corpus = TestPaths.corpus else { return [] }
    let root = corpus.appendingPathComponent("mappings")
    var result: [(String, Data)] = []
    let enumerator = FileManager.default.enumerator(atPath: root.path)
    var files: [String] = []
    while let path = enumerator?.nextObject() as? String {
      if path.hasSuffix("xcmapping.xml") { files.append(path) }
    }
    let pattern = try NSRegularExpression(pattern: #"name="valueexpressiondata" type="binary">([^<]*)<"#)
    for file in files.sorted() {
      let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
      for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
        let base64 = String(text[Range(match.range(at: 1), in: text)!]).filter { !$0.isWhitespace }
        let data = try #require(Data(base64Encoded: base64), "\(file): valueexpressiondata is not base64")
        result.append((file, data))
      }
    }
    return result
  }

  /// A property list with every dictionary's keys sorted, to compare layouts whatever order
  /// the writer put keys in.
  static func normalized(_ value: BinaryPropertyList.Value) -> BinaryPropertyList.Value {
    switch value {
    case .array(let elements): return .array(elements.map(normalized))
    case .dictionary(let pairs):
      return .dictionary(
        pairs.map { (key: $0.key, value: normalized($0.value)) }
          .sorted { "\($0.key)" < "\($1.key)" })
    default: return value
    }
  }

  @Test(
    "Every expression decodes, prints, and writes back to the same objects Apple's archive holds",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func corpus() throws {
    let expressions = try Self.corpusExpressions()
    #expect(expressions.count >= 15)
    var printed: Set<String> = []
    for (file, data) in expressions {
      let expression = try MappingExpression(archive: data)
      printed.insert(expression.description)
      #expect(try MappingExpression(format: expression.description) == expression, "\(file)")
      let written = expression.archiveData()
      #expect(try MappingExpression(archive: written) == expression, "\(file)")
      #expect(written == expression.archiveData())
      let apple = Self.normalized(try BinaryPropertyList.decode(data))
      let ours = Self.normalized(try BinaryPropertyList.decode(written))
      #expect(apple["$objects"] == ours["$objects"], "\(file): \(expression)")
      #expect(apple["$top"] == ours["$top"], "\(file)")
    }
    for expected in [
      "$source.numberOfFlagella", "$source.numberOfFlippers", "YES", "NO", "0", #"" ""#, #""""#, "$source.title",
      "$source.groupName", #"FUNCTION($entityPolicy, "epoch")"#, #"FUNCTION($entityPolicy, "emptyPendingMembers")"#,
    ] {
      #expect(printed.contains(expected), "\(expected) not among \(printed.sorted())")
    }
  }

  @Test("Without the corpus, the corpus test says why it is skipped")
  func skipReason() {
    if TestPaths.corpus == nil { print("skipped: \(TestPaths.corpusAbsentReason)") }
    #expect(!TestPaths.corpusAbsentReason.isEmpty)
  }
}
