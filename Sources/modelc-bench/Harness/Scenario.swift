import Foundation

/// Settings of a benchmark run.
struct BenchmarkConfiguration {
  /// The defaults of `--rows`, `--repetitions` and `--process-pairs`: the command's options
  /// and the run's settings read them here, so that the help and the run cannot disagree.
  static let defaultRows = 100_000
  static let defaultRepetitions = 5
  static let defaultProcessPairs = 5

  /// Rows for the store scenarios.
  var rows: Int
  /// Timed repetitions per side (after one warm-up), in each of a two-sided scenario's
  /// processes.
  var repetitions: Int
  /// A scratch folder for stores.
  var directory: URL
  /// The package root (for Models/ and the corpus next to it).
  var packageRoot: URL
  /// Whether the heavyweight scenarios also measure their peak memory at ten times the rows
  /// (`--tenfold-memory`: slow, as the stores are built and migrated at that size).
  var measuresTenfoldMemory = false
  /// Whether this run is the child process that measures one scenario's peak memory
  /// (``ScenarioMemory``): our side runs once, without the baseline and the checks.
  var measuresMemoryOnly = false
  /// Which side of a two-sided scenario this process runs (``ScenarioRun``).
  var side = ScenarioSide.both
  /// Whether this side's process waits for its turn before each round (``TakingTurns``).
  var takesTurns = false
  /// Pairs of processes (one per side, taking turns) that time a two-sided scenario; its
  /// figures are the medians over the pairs (``TakingTurns``).
  var processPairs = BenchmarkConfiguration.defaultProcessPairs
}

/// The sides of a scenario a process runs.
///
/// The harness runs each side of a scenario in a child process of its own: in one process,
/// what a side leaves behind when it finishes (the allocator's free lists, long after our side
/// frees 100,000 objects, merged on the next large allocation) was paid by whichever side ran
/// next — the baseline, in the round after ours. Each side now pays for its own.
enum ScenarioSide: String, Codable {
  /// Both, one after the other in each round (tests, and `--side` left out).
  case both
  /// Our side's rounds only; the result carries its digest for the harness to compare.
  case ours
  /// The baseline's rounds only; the result's seconds are the baseline's.
  case baseline
}

/// One named benchmark.
protocol Scenario {
  /// The fixed name results are compared by.
  var name: String { get }
  /// Whether the scenario measures its peak memory itself (in a child process of its own);
  /// otherwise the harness runs it again in a child process for it (``ScenarioMemory``).
  var measuresOwnMemory: Bool { get }
  /// Runs the warm-up and the repetitions of both sides.
  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult
}

extension Scenario {
  var measuresOwnMemory: Bool { false }

  /// The usual shape: fresh state for every repetition (not timed), then our side and the
  /// baseline; medians after a warm-up round. The harness runs each side in a process of its
  /// own (`configuration.side`, see ``ScenarioSide``); with both, they alternate.
  ///
  /// The warm-up round also checks that both sides produced the same result: each side is
  /// called with `checking` true and returns the digest of what it made (computed after its
  /// work; a side that wrote a store may return nil, and `result` digests the store it wrote).
  /// The timed rounds call the sides with `checking` false. The scenario fails when the two
  /// digests differ; with one side, the harness compares the digests of the two processes.
  func measure<State>(
    _ configuration: BenchmarkConfiguration, setUp: (_ forBaseline: Bool) throws -> State,
    ours: (State, _ checking: Bool) throws -> ResultDigest?,
    baseline: (State, _ checking: Bool) throws -> ResultDigest?,
    result: ((State) throws -> ResultDigest)? = nil, note: String? = nil
  ) throws -> ScenarioResult {
    func digest(_ state: State, _ returned: ResultDigest?) throws -> ResultDigest {
      if let returned { return returned }
      guard let result else { throw BenchmarkError("\(name): a side returned no result to check") }
      return try result(state)
    }
    if configuration.measuresMemoryOnly {
      return try measureMemory(configuration, setUp: { try setUp(false) }, ours: { _ = try ours($0, false) })
    }
    var ourTimes: [Double] = []
    var baselineTimes: [Double] = []
    var ourDigest = ResultDigest()
    var baselineDigest = ResultDigest()
    /// One round of one side: its state set up, its work timed, then its digest kept (the
    /// warm-up round) or its time.
    func round(
      _ side: (State, Bool) throws -> ResultDigest?, forBaseline: Bool, checking: Bool,
      digest kept: inout ResultDigest, times: inout [Double]
    ) throws {
      // Taking turns, the wait comes before the setup, which would otherwise run while the
      // other side's process is timed.
      if configuration.takesTurns { try TakingTurns.awaitTurn() }
      let state = try setUp(forBaseline)
      var returned: ResultDigest?
      let faultsBefore = Measure.minorPageFaults()
      let time = try Measure.seconds { returned = try side(state, checking) }
      let pageFaults = Measure.minorPageFaults() - faultsBefore
      if checking { kept = try digest(state, returned) } else { times.append(time) }
      if configuration.takesTurns { TakingTurns.report(seconds: time, pageFaults: pageFaults) }
    }
    for index in 0...configuration.repetitions {
      let checking = index == 0
      if configuration.side != .baseline {
        try round(ours, forBaseline: false, checking: checking, digest: &ourDigest, times: &ourTimes)
      }
      if configuration.side != .ours {
        try round(baseline, forBaseline: true, checking: checking, digest: &baselineDigest, times: &baselineTimes)
      }
    }
    switch configuration.side {
    case .both:
      try ResultDigest.check(name, ours: ourDigest, baseline: baselineDigest)
      return ScenarioResult(
        name: name, seconds: Measure.median(ourTimes), baselineSeconds: Measure.median(baselineTimes),
        peakMemoryBytes: 0, note: note)
    case .ours:
      return ScenarioResult(
        name: name, seconds: Measure.median(ourTimes), baselineSeconds: nil, peakMemoryBytes: 0, note: note,
        sideDigest: ourDigest)
    case .baseline:
      return ScenarioResult(
        name: name, seconds: Measure.median(baselineTimes), baselineSeconds: nil, peakMemoryBytes: 0, note: note,
        sideDigest: baselineDigest)
    }
  }

  /// A scenario without a baseline: fresh state for every repetition (not timed), our side
  /// timed; medians after a warm-up round.
  func measure<State>(
    _ configuration: BenchmarkConfiguration, setUp: () throws -> State, ours: (State) throws -> Void,
    note: String? = nil
  ) throws -> ScenarioResult {
    if configuration.measuresMemoryOnly {
      return try measureMemory(configuration, setUp: setUp, ours: ours)
    }
    var ourTimes: [Double] = []
    for round in 0...configuration.repetitions {
      let state = try setUp()
      let time = try Measure.seconds { try ours(state) }
      if round > 0 { ourTimes.append(time) }
    }
    return ScenarioResult(
      name: name, seconds: Measure.median(ourTimes), baselineSeconds: nil, peakMemoryBytes: 0, note: note)
  }

  /// The child process's run (``ScenarioMemory``): our side once, its peak resident set from
  /// just before it started (the setup's state included, as our side holds it too).
  private func measureMemory<State>(
    _ configuration: BenchmarkConfiguration, setUp: () throws -> State, ours: (State) throws -> Void
  ) throws -> ScenarioResult {
    let state = try setUp()
    Measure.resetPeakMemory()
    let time = try Measure.seconds { try ours(state) }
    return ScenarioResult(
      name: name, seconds: time, baselineSeconds: nil, peakMemoryBytes: Measure.peakMemory(), note: nil)
  }
}
