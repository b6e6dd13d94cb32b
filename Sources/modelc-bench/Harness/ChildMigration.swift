import Foundation
import Persistence

/// A scenario whose migration can also run alone in a child process: so that its peak memory
/// is its own (not the harness's heap, grown by the scenarios before it, nor the setup's), and
/// so that a run at ten times the rows measures the same thing.
protocol ChildMigrationScenario: Scenario {
  /// A store to migrate with `rows` tasks, in the scratch folder (made by the parent).
  func sourceStore(rows: Int, _ configuration: BenchmarkConfiguration) throws -> URL
  /// Runs the scenario's migration of the store at `url` (in the child).
  func migrate(_ url: URL, _ configuration: BenchmarkConfiguration) throws
}

/// What one migration run in a child process cost: its peak resident set, its time, and the
/// time of each phase of the migration (from the phase trace, `MODELC_PHASE_TRACE`).
struct ChildMeasurement {
  var peakMemoryBytes: Int
  var seconds: Double
  /// Seconds spent in each phase, in the order the phases first ran; phases that repeat per
  /// entity mapping (`heavyweight stage 1 (TaskToTask)`) are added up under their name
  /// without the mapping.
  var phases: [(name: String, seconds: Double)]

  /// The hidden first argument that makes `modelc-bench` the child: not in `--help`, as it is
  /// only for the harness itself.
  static let subcommand = "measure-migration"

  /// The phase the child records before it starts the migration (planning, reading the
  /// store's metadata) and after it has returned.
  static let startPhase = "migrate: plan"
  static let endPhase = "bench: end"

  /// Re-runs this executable as a child that migrates the store at `store` as scenario `name`
  /// does, and reads what it measured.
  ///
  /// - Throws: ``BenchmarkError`` with the child's standard error when it fails.
  static func measure(_ name: String, store: URL, _ configuration: BenchmarkConfiguration) throws -> ChildMeasurement {
    let trace = configuration.directory.appendingPathComponent("trace-\(UUID().uuidString).txt")
    defer { try? FileManager.default.removeItem(at: trace) }
    let process = Process()
    process.executableURL = URL(
      fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0])
    process.arguments = [subcommand, name, store.path]
    var environment = ProcessInfo.processInfo.environment
    environment["MODELC_PHASE_TRACE"] = trace.path
    process.environment = environment
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let fields = printed.split(whereSeparator: \.isWhitespace)
    guard process.terminationStatus == 0, fields.count == 2, let peak = Int(fields[0]), let seconds = Double(fields[1])
    else {
      throw BenchmarkError(
        "the child migration of \(name) failed (status \(process.terminationStatus)): \(complaint)\(printed)")
    }
    let lines = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
    return ChildMeasurement(peakMemoryBytes: peak, seconds: seconds, phases: phases(ofTrace: lines))
  }

  /// The seconds of each phase of a trace: each line's time until the next line's.
  static func phases(ofTrace text: String) -> [(name: String, seconds: Double)] {
    let entries: [(time: Double, name: String)] = text.split(separator: "\n").compactMap { line in
      guard let space = line.firstIndex(of: " "), let time = Double(line[..<space]) else { return nil }
      var name = String(line[line.index(after: space)...])
      if name.hasPrefix("migrate: ") { name.removeFirst("migrate: ".count) }
      if let open = name.firstIndex(of: "("), name.hasSuffix(")"), !name.hasSuffix("(validation)") {
        name = String(name[..<open]).trimmingCharacters(in: .whitespaces)
      }
      return (time, name)
    }
    var result: [(name: String, seconds: Double)] = []
    for (entry, next) in zip(entries, entries.dropFirst()) {
      let seconds = next.time - entry.time
      if let index = result.firstIndex(where: { $0.name == entry.name }) {
        result[index].seconds += seconds
      } else {
        result.append((entry.name, seconds))
      }
    }
    return result
  }

  /// The child's side: migrates the store named in `arguments` (`SCENARIO STORE`) as the
  /// scenario does, then prints its peak resident set in bytes (`VmHWM`, over the child's whole
  /// life) and the migration's seconds. Returns the exit code.
  static func serve(
    _ arguments: [String], scenarios: [any Scenario], _ configuration: BenchmarkConfiguration
  ) -> Int32 {
    guard arguments.count == 2,
      let scenario = scenarios.first(where: { $0.name == arguments[0] }) as? any ChildMigrationScenario
    else {
      FileHandle.standardError.write(Data("usage: modelc-bench \(subcommand) SCENARIO STORE\n".utf8))
      return 2
    }
    do {
      PhaseTrace.record(startPhase)
      let seconds = try Measure.seconds { try scenario.migrate(URL(fileURLWithPath: arguments[1]), configuration) }
      PhaseTrace.record(endPhase)
      print(Measure.peakMemory(), seconds)
      return 0
    } catch {
      FileHandle.standardError.write(Data("\(scenario.name): \(error)\n".utf8))
      return 1
    }
  }
}

extension ChildMeasurement {
  /// `1.23 s at 100000 rows (plan 0.01, heavyweight setup 0.02, …)`: the phases, in order,
  /// each with its share.
  var timeSummary: String {
    let parts = phases.map { phase in
      phase.name + String(format: " %.3f s (%.0f%%)", phase.seconds, seconds > 0 ? phase.seconds / seconds * 100 : 0)
    }
    return String(format: "%.3f s: ", seconds) + parts.joined(separator: ", ")
  }
}
