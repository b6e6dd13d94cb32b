import Foundation

/// Settings of a benchmark run.
struct BenchmarkConfiguration {
  /// Rows for the store scenarios.
  var rows: Int
  /// Timed repetitions per side (after one warm-up).
  var repetitions: Int
  /// A scratch folder for stores.
  var directory: URL
  /// The package root (for Models/ and the corpus next to it).
  var packageRoot: URL
  /// Whether the heavyweight scenarios also measure their peak memory at ten times the rows
  /// (`--tenfold-memory`: slow, as the stores are built and migrated at that size).
  var measuresTenfoldMemory = false
}

/// One named benchmark.
protocol Scenario {
  /// The fixed name results are compared by.
  var name: String { get }
  /// Runs the warm-up and the repetitions of both sides.
  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult
}

extension Scenario {
  /// The usual shape: fresh state for every repetition (not timed), then our side and the
  /// baseline, alternating so that drift affects both; medians after a warm-up round.
  func measure<State>(
    _ configuration: BenchmarkConfiguration, setUp: (_ forBaseline: Bool) throws -> State,
    ours: (State) throws -> Void, baseline: ((State) throws -> Void)?, note: String? = nil
  ) throws -> ScenarioResult {
    var ourTimes: [Double] = []
    var baselineTimes: [Double] = []
    var peak = 0
    for round in 0...configuration.repetitions {
      let state = try setUp(false)
      Measure.resetPeakMemory()
      let time = try Measure.seconds { try ours(state) }
      peak = max(peak, Measure.peakMemory())
      if round > 0 { ourTimes.append(time) }
      if let baseline {
        let baselineState = try setUp(true)
        let baselineTime = try Measure.seconds { try baseline(baselineState) }
        if round > 0 { baselineTimes.append(baselineTime) }
      }
    }
    return ScenarioResult(
      name: name, seconds: Measure.median(ourTimes),
      baselineSeconds: baseline == nil ? nil : Measure.median(baselineTimes), peakMemoryBytes: peak, note: note)
  }
}
