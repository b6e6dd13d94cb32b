import DataModel
import Foundation
import Migration
import TestSupport
import Testing

@Suite("Inference over the corpus")
struct InferenceCorpusTests {
  @Test(
    "Every consecutive version pair is either inferred or refused with reasons",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)),
    arguments: TestPaths.corpusModels())
  func consecutivePairs(_ url: URL) throws {
    let bundle = try ModelBundle(contentsOf: url.path)
    for (older, newer) in zip(bundle.versions, bundle.versions.dropFirst()) {
      do {
        let mapping = try LightweightInference.mappingModel(from: older, to: newer)
        #expect(mapping.sourceVersion == older.name)
      } catch {
        #expect(!error.refusals.isEmpty)
        print("[\(url.lastPathComponent)] \(error)")
      }
    }
  }
}
