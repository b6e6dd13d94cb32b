import Foundation
import Testing

@testable import modelc_bench

/// The check every scenario with a baseline runs in its warm-up round: both sides' results
/// reduced to a row count and a checksum, and the scenario failed when they differ.
@Suite("Benchmark result check")
struct BenchmarkResultCheckTests {
  /// A scenario whose sides return the digests it is given.
  struct FixedScenario: Scenario {
    let name = "fixed"
    var ours: ResultDigest
    var baseline: ResultDigest

    func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
      try measure(
        configuration, setUp: { _ in () }, ours: { _, checking in checking ? ours : nil },
        baseline: { _, checking in checking ? baseline : nil })
    }
  }

  static let configuration = BenchmarkConfiguration(
    rows: 1, repetitions: 2, directory: FileManager.default.temporaryDirectory,
    packageRoot: FileManager.default.temporaryDirectory)

  static func digest(_ values: [String?]) -> ResultDigest {
    var digest = ResultDigest()
    for value in values {
      digest.nextRow()
      digest.mix(value)
    }
    return digest
  }

  @Test("A scenario whose sides produced the same rows reports its figures")
  func sameResult() throws {
    let result = try FixedScenario(ours: Self.digest(["a", nil]), baseline: Self.digest(["a", nil])).run(
      Self.configuration)
    #expect(result.baselineSeconds != nil)
  }

  @Test(
    "A scenario whose sides differ in a value, a nil or the row count fails",
    arguments: [[String?]](arrayLiteral: ["a", "b"], ["a", ""], ["a"], ["a", nil, nil]))
  func differentResult(baseline: [String?]) throws {
    #expect(throws: BenchmarkError.self) {
      try FixedScenario(ours: Self.digest(["a", nil]), baseline: Self.digest(baseline)).run(Self.configuration)
    }
  }

  @Test("The cold-start comparison reads the table's fields and the shell's alike")
  func coldStartFields() {
    let table = Array("ID        PRIORITY  DUE  TITLE\n6d6f6465  ✓  high      -    Write it  a,b\n".utf8)
    let shell = Array("6d6f6465 ✓ high - Write it a,b \n".utf8)
    #expect(
      ColdStartScenario.fields(ofLines: table, droppingHeader: true)
        == ColdStartScenario.fields(ofLines: shell, droppingHeader: false))
  }
}
