import Foundation
import TestSupport
import Testing

/// The benchmark harness runs end to end with a tiny row count (its figures mean nothing in a
/// debug build; they are never asserted).
@Suite(
  "Benchmark harness",
  .enabled(if: TestPaths.executable(named: "modelc-bench") != nil, "the modelc-bench executable is not built"))
struct BenchmarkHarnessTests {
  static let names = [
    "insert", "fetch-all", "fetch-indexed", "search-contains-cd", "update", "delete", "batch-update", "batch-delete",
    "migrate-add-attribute", "migrate-rebuild", "heavyweight-sql", "heavyweight-policy", "model-load", "codegen-500",
  ]

  @Test("Every scenario runs once and reports the fields of the JSON format")
  func tinyRun() throws {
    let run = try ProcessRun.run(
      try #require(TestPaths.executable(named: "modelc-bench")),
      ["--rows", "60", "--repetitions", "1", "--format", "json"])
    #expect(run.status == 0, "\(run.error)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    let scenarios = try #require(object["scenarios"] as? [[String: Any]])
    #expect(scenarios.compactMap { $0["name"] as? String } == Self.names)
    for scenario in scenarios {
      #expect(scenario["seconds"] is NSNumber, "\(scenario["name"] ?? "")")
      #expect(scenario.keys.contains("baselineSeconds") && scenario.keys.contains("ratio"))
      #expect(scenario["peakMemoryBytes"] is NSNumber)
    }
  }

  @Test("An unknown scenario is a usage error")
  func unknownScenario() throws {
    let run = try ProcessRun.run(try #require(TestPaths.executable(named: "modelc-bench")), ["--only", "nonsense"])
    #expect(run.status == 2)
    #expect(run.error.contains("unknown scenario 'nonsense'"))
  }
}
