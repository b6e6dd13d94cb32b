import DataModel
import Foundation

/// `model-load`: reading and validating the largest model of the corpus (no baseline).
struct ModelLoadScenario: Scenario {
  let name = "model-load"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let corpus = configuration.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/models")
    let candidates = [
      "olvid-io__olvid-ios/ObvEngine.xcdatamodeld", "olvid-io__olvid-ios/ObvMessenger.xcdatamodeld",
    ].map { corpus.appendingPathComponent($0) }
    guard
      let largest = candidates.filter({ FileManager.default.fileExists(atPath: $0.path) }).max(by: {
        size($0) < size($1)
      })
    else {
      return ScenarioResult(
        name: name, seconds: 0, baselineSeconds: nil, peakMemoryBytes: 0,
        note: "skipped: the corpus (../shared/corpus) is absent")
    }
    return try measure(
      configuration, setUp: { largest },
      ours: { url in _ = try ModelBundle(contentsOf: url.path) },
      note: "\(largest.lastPathComponent), every version")
  }

  private func size(_ url: URL) -> Int {
    let files = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []
    return files.reduce(0) { total, file in
      let attributes = try? FileManager.default.attributesOfItem(atPath: url.appendingPathComponent(file).path)
      return total + ((attributes?[.size] as? Int) ?? 0)
    }
  }
}
