import Foundation

/// Each scenario's peak memory, measured in a child process of its own: the harness's process
/// has run the scenarios before it (and the baseline), whose freed memory the allocator keeps,
/// so a peak read there is not the scenario's own. The child builds the scenario's state, resets
/// its resident high-water mark (`VmHWM`), runs our side once and prints the peak.
enum ScenarioMemory {
  /// The hidden first argument that makes `modelc-bench` this child: not in `--help`, as it is
  /// only for the harness itself.
  static let subcommand = "measure-memory"

  /// Runs scenario `name` at `rows` in a child process and returns its peak resident set in
  /// bytes.
  ///
  /// - Throws: ``BenchmarkError`` with the child's standard error when it fails.
  static func measure(_ name: String, rows: Int, _ configuration: BenchmarkConfiguration) throws -> Int {
    let run = try ChildProcess.run(
      ChildProcess.benchmarkExecutable, [subcommand, name, String(rows), configuration.directory.path])
    guard run.status == 0, let peak = Int(run.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      throw BenchmarkError(
        "the memory measurement of \(name) failed (status \(run.status)): \(run.error)\(run.output)")
    }
    return peak
  }

  /// The child's side: `NAME ROWS FOLDER`. Runs the scenario's state and our side once and
  /// prints the peak in bytes. Returns the exit code.
  static func serve(_ arguments: [String], scenarios: [any Scenario], packageRoot: URL) -> Int32 {
    guard arguments.count == 3, let scenario = scenarios.first(where: { $0.name == arguments[0] }),
      let rows = Int(arguments[1]), rows > 0
    else {
      FileHandle.standardError.write(Data("usage: modelc-bench \(subcommand) SCENARIO ROWS FOLDER\n".utf8))
      return 2
    }
    let directory = URL(fileURLWithPath: arguments[2]).appendingPathComponent("memory-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    do {
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      var configuration = BenchmarkConfiguration(
        rows: rows, repetitions: 0, directory: directory, packageRoot: packageRoot)
      configuration.measuresMemoryOnly = true
      print(try scenario.run(configuration).peakMemoryBytes)
      return 0
    } catch {
      FileHandle.standardError.write(Data("\(scenario.name): \(error)\n".utf8))
      return 1
    }
  }
}
