import Foundation

/// The two sides of a scenario, each in a process of its own, run their rounds in turn: our
/// side's first round, the baseline's first, our side's second…, each process waiting while the
/// other runs; several such pairs of processes run one after the other.
///
/// On this machine, figures of the same code vary with the process far more than with the
/// round, and drift over seconds:
/// - Each side ran all its rounds, then the other side all of its. The side that ran second was
///   measured, in effect, on another machine than the first.
/// - Of three processes of the `fetch-indexed` baseline, 20 rounds each, the first's median
///   round took 0.013 s; the other two, with the same binary, never went under 0.015 s
///   (medians 0.017 and 0.018 s). A ratio of one process of each side was off by up to half,
///   either way.
/// - Within a process, interference only adds time: the best rounds of the baseline's processes
///   agree within a few percent (0.0102–0.0107 s over five processes) where their medians do not
///   (0.0106–0.0189 s).
///
/// So a pair's two processes take turns, and a pair's figure is each side's best round, which
/// is what the work costs in that process without the machine's interference: the
/// allocator's, page faults' and caches' costs are in every round, the best included. The
/// scenario's figures are the medians over the pairs: of each side's best rounds, and of the
/// pairs' ratios. Each side still has a process (and a heap) of its own (``ScenarioSide``).
///
/// The protocol, on the child's standard input and output, one line each:
/// - the child prints `ready` before each round (its setup included) and waits;
/// - the harness answers `go`; the child sets up and runs the round, and prints `time SECONDS
///   FAULTS` (the minor page faults of the timed part);
/// - after its last round the child prints its result as JSON on one line, and exits.
///
/// A scenario timed in one piece (no baseline, or both sides measured its own way) prints its
/// result at once.
enum TakingTurns {
  static let readyLine = "ready"
  static let goLine = "go"
  static let timePrefix = "time "

  /// The child's side: waits for the harness's go before a round.
  static func awaitTurn() throws {
    FileHandle.standardOutput.write(Data("\(readyLine)\n".utf8))
    guard let line = readLine(), line == goLine else {
      throw BenchmarkError("the harness did not give this side its turn (expected '\(goLine)' on standard input)")
    }
  }

  /// The child's side: reports a round's time and page faults.
  static func report(seconds: Double, pageFaults: Int) {
    FileHandle.standardOutput.write(Data("\(timePrefix)\(seconds) \(pageFaults)\n".utf8))
  }

  /// Runs scenario `name`'s sides in `pairs` pairs of child processes taking turns
  /// (`arguments(side)` makes a child's arguments) and returns our side's result with the
  /// medians over the pairs. A scenario timed in one piece returns its first child's result as
  /// it is.
  static func measure(_ name: String, pairs: Int, arguments: (ScenarioSide) -> [String]) throws -> ScenarioResult {
    var result: ScenarioResult?
    var ourBests: [Double] = []
    var baselineBests: [Double] = []
    var ourFaults: [Double] = []
    var baselineFaults: [Double] = []
    for _ in 0..<max(pairs, 1) {
      let pair = try runPair(name, arguments: arguments)
      guard let rounds = pair.rounds else { return pair.result }
      result = pair.result
      ourBests.append(rounds.ours.best)
      baselineBests.append(rounds.baseline.best)
      ourFaults.append(rounds.ours.pageFaults)
      baselineFaults.append(rounds.baseline.pageFaults)
    }
    guard var result else { throw BenchmarkError("\(name): no pair of processes ran") }
    result.seconds = Measure.median(ourBests)
    result.baselineSeconds = Measure.median(baselineBests)
    let ratios = zip(ourBests, baselineBests).map { $0 / max($1, 1e-9) }
    result.pairedRatio = Measure.median(ratios)
    result.pairRatios = ratios
    result.pageFaults = Measure.median(ourFaults)
    result.baselinePageFaults = Measure.median(baselineFaults)
    return result
  }

  /// One pair of processes taking turns: our side's result (its digest checked against the
  /// baseline's) and each side's rounds; no rounds for a scenario timed in one piece.
  private static func runPair(
    _ name: String, arguments: (ScenarioSide) -> [String]
  ) throws -> (result: ScenarioResult, rounds: (ours: SideRounds, baseline: SideRounds)?) {
    let ours = try TurnTakingChild(arguments(.ours))
    defer { ours.stop() }
    var ourLine = try ours.nextLine(name)
    guard ourLine == readyLine else { return (try ours.result(ourLine, name), nil) }
    let baseline = try TurnTakingChild(arguments(.baseline))
    defer { baseline.stop() }
    var baselineLine = try baseline.nextLine(name)
    var ourRounds: [TurnTakingChild.Round] = []
    var baselineRounds: [TurnTakingChild.Round] = []
    var round = 0
    while ourLine == readyLine {
      guard baselineLine == readyLine else {
        throw BenchmarkError("\(name): the baseline's process ran fewer rounds than ours")
      }
      // Who goes first alternates, so that neither side always runs right after the other.
      let ourTurnFirst = round % 2 == 0
      let first = try (ourTurnFirst ? ours : baseline).runRound(name)
      let second = try (ourTurnFirst ? baseline : ours).runRound(name)
      // Round 0 is the warm-up, which checks the results and is not timed.
      if round > 0 {
        ourRounds.append(ourTurnFirst ? first : second)
        baselineRounds.append(ourTurnFirst ? second : first)
      }
      round += 1
      ourLine = try ours.nextLine(name)
      baselineLine = try baseline.nextLine(name)
    }
    guard baselineLine != readyLine else {
      throw BenchmarkError("\(name): the baseline's process ran more rounds than ours")
    }
    var result = try ours.result(ourLine, name)
    let baselineResult = try baseline.result(baselineLine, name)
    guard let ourDigest = result.sideDigest, let baselineDigest = baselineResult.sideDigest else {
      throw BenchmarkError("\(name): a side's process returned no result to check")
    }
    try ResultDigest.check(name, ours: ourDigest, baseline: baselineDigest)
    guard let ourSide = SideRounds(ourRounds), let baselineSide = SideRounds(baselineRounds) else {
      throw BenchmarkError("\(name): the sides ran no timed round")
    }
    result.sideDigest = nil
    return (result, (ourSide, baselineSide))
  }

  /// What a pair counts of one side's timed rounds: the best time, and the median of the
  /// rounds' page faults (a count, the same in most rounds, where the time varies).
  struct SideRounds {
    var best: Double
    var pageFaults: Double

    init?(_ rounds: [TurnTakingChild.Round]) {
      guard let best = rounds.map(\.seconds).min() else { return nil }
      self.best = best
      self.pageFaults = Measure.median(rounds.map { Double($0.pageFaults) })
    }
  }
}

/// A child process that takes turns (``TakingTurns``): its standard input and output are
/// pipes the harness writes and reads line by line; its errors are collected for the report
/// when it fails.
final class TurnTakingChild {
  private let process = Process()
  private let input = Pipe()
  private let output = Pipe()
  private let errors = Pipe()
  private let errorText = ErrorCollector()
  private var buffered: [UInt8] = []

  init(_ arguments: [String]) throws {
    process.executableURL = ChildProcess.benchmarkExecutable
    process.arguments = arguments
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let errors = errors
    let errorText = errorText
    Thread { errorText.set(errors.fileHandleForReading.readDataToEndOfFile()) }.start()
  }

  /// The child's next line; throws, with what it printed on standard error, when it ended
  /// instead.
  func nextLine(_ name: String) throws -> String {
    let descriptor = output.fileHandleForReading.fileDescriptor
    while true {
      if let end = buffered.firstIndex(of: UInt8(ascii: "\n")) {
        let line = String(decoding: buffered[..<end], as: UTF8.self)
        buffered.removeSubrange(...end)
        return line
      }
      var chunk = [UInt8](repeating: 0, count: 4096)
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        buffered.append(contentsOf: chunk[..<count])
      } else if count == 0 || errno != EINTR {
        process.waitUntilExit()
        let message = String(decoding: errorText.wait(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        throw BenchmarkError(
          message.isEmpty ? "\(name): the child process ended with status \(process.terminationStatus)" : message)
      }
    }
  }

  /// A timed round as the child reported it.
  struct Round {
    var seconds: Double
    var pageFaults: Int
  }

  /// Gives the child its turn and returns the round's time and page faults.
  func runRound(_ name: String) throws -> Round {
    try input.fileHandleForWriting.write(contentsOf: Data("\(TakingTurns.goLine)\n".utf8))
    let line = try nextLine(name)
    let fields =
      line.hasPrefix(TakingTurns.timePrefix)
      ? line.dropFirst(TakingTurns.timePrefix.count).split(separator: " ") : []
    guard fields.count == 2, let seconds = Double(fields[0]), let pageFaults = Int(fields[1]) else {
      throw BenchmarkError(
        "\(name): the child process printed '\(line)' where a round's time and page faults were expected")
    }
    return Round(seconds: seconds, pageFaults: pageFaults)
  }

  /// The child's result, printed as `line`.
  func result(_ line: String, _ name: String) throws -> ScenarioResult {
    do {
      return try JSONDecoder().decode(ScenarioResult.self, from: Data(line.utf8))
    } catch {
      throw BenchmarkError("the child process of \(name) printed no result: \(line)")
    }
  }

  /// Closes the child's input and waits for it to end (it ends on its own after its result).
  func stop() {
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}
