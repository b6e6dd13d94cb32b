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
    "migrate-add-attribute", "migrate-rebuild", "model-load", "codegen-500",
  ]

  @Test("Every scenario runs once and reports the fields of the JSON format")
  func tinyRun() throws {
    let process = Process()
    process.executableURL = TestPaths.executable(named: "modelc-bench")
    process.arguments = ["--rows", "60", "--repetitions", "1", "--format", "json"]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
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
    let process = Process()
    process.executableURL = TestPaths.executable(named: "modelc-bench")
    process.arguments = ["--only", "nonsense"]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
  }
}
