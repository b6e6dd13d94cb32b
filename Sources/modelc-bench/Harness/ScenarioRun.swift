import Foundation

/// Each scenario's timed rounds, run in a child process of their own.
///
/// In the harness's process, a scenario ran after the others had grown and fragmented its heap
/// (100,000-object inserts, updates and deletes leave the allocator's free lists long and
/// scattered), which our side, allocating an object per row, paid and the baseline mostly did
/// not: the same binary read `fetch-all` at 1.77–1.97 alone and 1.95–2.77 inside full runs. A
/// fresh process per scenario is what a user's process is when it starts the same work, and
/// makes a scenario's figures independent of which scenarios ran before it. For the same
/// reason each side of a scenario runs in a process of its own (``ScenarioSide``): in one, the
/// baseline paid for what our side left behind in the allocator.
enum ScenarioRun {
  /// The hidden first argument that makes `modelc-bench` this child: not in `--help`, as it is
  /// only for the harness itself.
  static let subcommand = "run-scenario"

  /// Runs scenario `name` (warm-up, checks and timed rounds of both sides) in child processes
  /// and returns its result: our side in one and, for a scenario with a baseline, the baseline
  /// in another (see ``ScenarioSide``), the two taking turns round by round, in
  /// `configuration.processPairs` such pairs (``TakingTurns``), their results checked against
  /// each other.
  ///
  /// - Throws: ``BenchmarkError`` with the child's standard error when the scenario fails (its
  ///   two sides disagreed, or it could not run).
  static func measure(_ name: String, _ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    try TakingTurns.measure(name, pairs: configuration.processPairs) { side in
      var arguments = [subcommand, name, String(configuration.rows), String(configuration.repetitions)]
      if configuration.measuresTenfoldMemory { arguments.append("--tenfold-memory") }
      return arguments + ["--side", side.rawValue, "--take-turns", configuration.directory.path]
    }
  }

  /// The child's side: `NAME ROWS REPETITIONS [--tenfold-memory] [--side SIDE] [--take-turns]
  /// FOLDER`. Runs the scenario (both sides unless `--side` names one; with `--take-turns`, each
  /// round when the harness says, see ``TakingTurns``) and prints its result as JSON on one
  /// line. Returns the exit code.
  static func serve(_ arguments: [String], scenarios: [any Scenario], packageRoot: URL) -> Int32 {
    func usage() -> Int32 {
      FileHandle.standardError.write(
        Data(
          "usage: modelc-bench \(subcommand) SCENARIO ROWS REPETITIONS [--tenfold-memory] [--side ours|baseline] [--take-turns] FOLDER\n"
            .utf8))
      return 2
    }
    guard arguments.count >= 4, let scenario = scenarios.first(where: { $0.name == arguments[0] }),
      let rows = Int(arguments[1]), rows > 0, let repetitions = Int(arguments[2]), repetitions > 0,
      !arguments[arguments.count - 1].hasPrefix("-")
    else { return usage() }
    var tenfold = false
    var side = ScenarioSide.both
    var takesTurns = false
    var options = arguments[3..<(arguments.count - 1)]
    while let option = options.popFirst() {
      switch option {
      case "--tenfold-memory": tenfold = true
      case "--take-turns": takesTurns = true
      case "--side":
        guard let name = options.popFirst(), let named = ScenarioSide(rawValue: name) else { return usage() }
        side = named
      default: return usage()
      }
    }
    let directory = URL(fileURLWithPath: arguments[arguments.count - 1])
      .appendingPathComponent("run-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      let configuration = BenchmarkConfiguration(
        rows: rows, repetitions: repetitions, directory: directory, packageRoot: packageRoot,
        measuresTenfoldMemory: tenfold, side: side, takesTurns: takesTurns && side != .both)
      let result = try scenario.run(configuration)
      FileHandle.standardOutput.write(try JSONEncoder().encode(result) + Data("\n".utf8))
      return 0
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      return 1
    }
  }
}
