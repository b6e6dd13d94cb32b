import ArgumentParsing
import DataModel
import Foundation

// `modelc-bench`: every hot path of the toolkit measured against the same work done the
// fastest plain way (raw SQLite C calls, hand-written SQL) in the same run. Build it in release:
//   swift run -c release modelc-bench [--rows N] [--process-pairs N] [--only NAME] [--tenfold-memory] [--format text|json]
// Exit codes: 0 ok, 1 a scenario failed, 2 usage error.
// `modelc-bench run-scenario SCENARIO ROWS REPETITIONS FOLDER`, `modelc-bench measure-migration
// SCENARIO STORE` and `modelc-bench measure-memory SCENARIO ROWS FOLDER` are the harness's own
// child processes (see `ScenarioRun`, `ChildMeasurement` and `ScenarioMemory`),
// and `modelc-bench print-tasks STORE` the `cold-start` scenario's raw SQLite program, not for
// users: they are not in the help.

let scenarios: [any Scenario] = [
  InsertScenario(), InsertSlotsScenario(), FetchAllScenario(), FetchAllSlotsScenario(), FetchIndexedScenario(),
  SearchScenario(), UpdateScenario(), DeleteScenario(), BatchUpdateScenario(), BatchDeleteScenario(),
  MigrateAddAttributeScenario(keepsBackup: true), MigrateAddAttributeScenario(keepsBackup: false),
  MigrateRebuildScenario(keepsBackup: true), MigrateRebuildScenario(keepsBackup: false), HeavyweightSQLScenario(),
  HeavyweightPolicyScenario(), ColdStartScenario(), ModelLoadScenario(), CodegenScenario(),
]

enum OutputFormat: String, CaseIterable {
  case text, json
}

let spec = CommandSpec(
  "modelc-bench", abstract: "Measure modelc's hot paths against raw SQLite in the same run.",
  discussion: "Run a release build: swift run -c release modelc-bench. Scenarios: "
    + scenarios.map(\.name).joined(separator: ", ") + ".",
  options: [
    OptionSpec(
      "--rows", value: "N", type: .integer(1...10_000_000), default: "\(BenchmarkConfiguration.defaultRows)",
      help: "Rows for the store scenarios."),
    OptionSpec(
      "--repetitions", value: "N", type: .integer(1...100), default: "\(BenchmarkConfiguration.defaultRepetitions)",
      help: "Timed repetitions per side, after a warm-up."),
    OptionSpec(
      "--process-pairs", value: "N", type: .integer(1...20), default: "\(BenchmarkConfiguration.defaultProcessPairs)",
      help: "Pairs of processes, one per side taking turns, that time each two-sided scenario."),
    OptionSpec("--only", value: "NAME", repeatable: true, help: "Run only this scenario (repeatable)."),
    OptionSpec(
      "--format", value: "FORMAT", type: .choice(of: OutputFormat.self), default: "text", help: "Output format."),
  ],
  flags: [
    FlagSpec(
      "--tenfold-memory",
      help: "Also measure the heavyweight scenarios' peak memory at 10 × --rows, each in a child process (slow).")
  ])

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == ChildMeasurement.subcommand {
  let arguments = Array(CommandLine.arguments.dropFirst(2))
  let folder = URL(fileURLWithPath: arguments.last ?? ".").deletingLastPathComponent()
  exit(
    ChildMeasurement.serve(
      arguments, scenarios: scenarios,
      BenchmarkConfiguration(rows: 0, repetitions: 0, directory: folder, packageRoot: packageRoot)))
}

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == ScenarioMemory.subcommand {
  exit(
    ScenarioMemory.serve(Array(CommandLine.arguments.dropFirst(2)), scenarios: scenarios, packageRoot: packageRoot))
}

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == ScenarioRun.subcommand {
  exit(ScenarioRun.serve(Array(CommandLine.arguments.dropFirst(2)), scenarios: scenarios, packageRoot: packageRoot))
}

if CommandLine.arguments.count > 1 && CommandLine.arguments[1] == RawTaskListing.subcommand {
  exit(RawTaskListing.serve(Array(CommandLine.arguments.dropFirst(2))))
}

// A child process that fails ends while the harness may still be writing it its next turn
// (`TakingTurns`): the write fails with an error the harness reports, rather than a signal
// ending the harness.
signal(SIGPIPE, SIG_IGN)

let terminal = Terminal.current()
let arguments: ParsedArguments
switch spec.parse(Array(CommandLine.arguments.dropFirst()), reportingTo: terminal) {
case .exit(let code): exit(code.rawValue)
case .run(let parsed): arguments = parsed
}

let only = Set(arguments.values("--only"))
for name in only where !scenarios.contains(where: { $0.name == name }) {
  terminal.writeLine(
    "modelc-bench: unknown scenario '\(name)'; scenarios: \(scenarios.map(\.name).joined(separator: ", "))",
    to: .standardError)
  exit(ExitCode.usage.rawValue)
}

let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-bench-\(UUID().uuidString)")
try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
var configuration = BenchmarkConfiguration(
  rows: arguments.integer("--rows") ?? BenchmarkConfiguration.defaultRows,
  repetitions: arguments.integer("--repetitions") ?? BenchmarkConfiguration.defaultRepetitions,
  directory: directory, packageRoot: packageRoot, measuresTenfoldMemory: arguments.flag("--tenfold-memory"))
configuration.processPairs = arguments.integer("--process-pairs") ?? BenchmarkConfiguration.defaultProcessPairs

var results: [ScenarioResult] = []
var failed = false
for scenario in scenarios where only.isEmpty || only.contains(scenario.name) {
  terminal.progress("running \(scenario.name)…")
  do {
    // The timed rounds in a fresh process, so that no earlier scenario's heap is in the figures.
    var result = try ScenarioRun.measure(scenario.name, configuration)
    if !scenario.measuresOwnMemory {
      result.peakMemoryBytes = try ScenarioMemory.measure(scenario.name, rows: configuration.rows, configuration)
    }
    results.append(result)
  } catch {
    failed = true
    terminal.endProgress()
    terminal.writeLine("modelc-bench: \(scenario.name) failed: \(error)", to: .standardError)
  }
  // Each scenario's stores go once it is done.
  for file in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
    try? FileManager.default.removeItem(at: directory.appendingPathComponent(file))
  }
}
terminal.endProgress()

if arguments.value("--format", as: OutputFormat.self) == .json {
  let items: [JSONValue] = results.map { result in
    var object = JSONObjectBuilder()
    object.add("name", .string(result.name))
    object.add("seconds", .double(result.seconds))
    object.add("baselineSeconds", result.baselineSeconds.map { JSONValue.double($0) } ?? .null)
    object.add("ratio", result.ratio.map { JSONValue.double($0) } ?? .null)
    object.add("peakMemoryBytes", .integer(result.peakMemoryBytes))
    if let pairRatios = result.pairRatios { object.add("pairRatios", .array(pairRatios.map { .double($0) })) }
    if let pageFaults = result.pageFaults { object.add("pageFaults", .double(pageFaults)) }
    if let pageFaults = result.baselinePageFaults { object.add("baselinePageFaults", .double(pageFaults)) }
    if let note = result.note { object.add("note", .string(note)) }
    return object.value
  }
  terminal.write(JSONWriter.prettyPrinted(.object([("scenarios", .array(items))])))
} else {
  func format(_ value: Double?) -> String { value.map { String(format: "%.4f", $0) } ?? "-" }
  func faults(_ value: Double?) -> String { value.map { String(Int($0.rounded())) } ?? "-" }
  let header = ["scenario", "seconds", "baseline", "ratio", "peak MiB", "faults", "baseline faults"]
  var rows = [header]
  for result in results {
    rows.append([
      result.name, format(result.seconds), format(result.baselineSeconds),
      result.ratio.map { String(format: "%.2f", $0) } ?? "-",
      String(result.peakMemoryBytes / 1_048_576), faults(result.pageFaults), faults(result.baselinePageFaults),
    ])
  }
  let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
  for row in rows {
    terminal.writeLine(
      row.enumerated().map { index, cell in cell.padding(toLength: widths[index], withPad: " ", startingAt: 0) }
        .joined(separator: "  "))
  }
  terminal.writeLine(
    "rows: \(configuration.rows), repetitions: \(configuration.repetitions) after a warm-up, in each of \(configuration.processPairs) pairs of processes taking turns; two-sided figures are medians over the pairs of each side's best round, other figures medians of the rounds; faults: minor page faults a timed round (medians)"
  )
  for result in results where result.note != nil {
    terminal.writeLine("  \(result.name): \(result.note!)")
  }
}
try? FileManager.default.removeItem(at: directory)
exit(failed ? ExitCode.failure.rawValue : ExitCode.success.rawValue)
