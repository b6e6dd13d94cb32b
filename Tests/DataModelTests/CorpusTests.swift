import DataModel
import Foundation
import TestSupport
import Testing

@Suite("Real models from the corpus")
struct CorpusTests {
  static let models = TestPaths.corpusModels()

  @Test(
    "Every corpus model loads and validates without errors",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)),
    arguments: models)
  func loadsAndValidates(_ url: URL) throws {
    let result = ModelReader.read(path: url.path)
    let bundle = try #require(result.bundle, "\(result.diagnostics.map(\.description).joined(separator: "\n"))")
    #expect(!bundle.versions.isEmpty)
    let errors = result.diagnostics.errors
    #expect(errors.isEmpty, "\(errors.map(\.description).joined(separator: "\n"))")
    for diagnostic in result.diagnostics.warnings.prefix(5) {
      print("[\(url.lastPathComponent)] \(diagnostic)")
    }
  }
}
