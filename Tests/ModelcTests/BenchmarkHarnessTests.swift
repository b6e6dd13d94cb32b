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
    "insert", "insert-slots", "fetch-all", "fetch-all-slots", "fetch-indexed", "search-contains-cd", "update", "delete",
    "batch-update", "batch-delete", "migrate-add-attribute", "migrate-add-attribute-nobackup", "migrate-rebuild",
    "migrate-rebuild-nobackup", "heavyweight-sql", "heavyweight-policy", "cold-start", "model-load", "codegen-500",
  ]

  /// Every scenario that has a baseline checks, in its warm-up round, that both sides produced
  /// the same result (the run fails otherwise, so a run that exits 0 has checked them all).
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
      // Each scenario's peak is measured in a process of its own: never zero.
      #expect((scenario["peakMemoryBytes"] as? NSNumber)?.intValue ?? 0 > 0, "\(scenario["name"] ?? "")")
    }
    // A two-sided scenario ran in pairs of processes (five by default), each with its ratio;
    // the scenario's ratio is their median.
    let update = try #require(scenarios.first { $0["name"] as? String == "update" })
    let pairRatios = try #require(update["pairRatios"] as? [NSNumber], "\(update)").map(\.doubleValue).sorted()
    #expect(pairRatios.count == 5)
    #expect((update["ratio"] as? NSNumber)?.doubleValue == pairRatios[2])
    // Two-sided scenarios count each side's page faults a timed round; the others have no sides.
    for scenario in scenarios {
      let name = scenario["name"] as? String ?? ""
      let isTwoSided = scenario["pairRatios"] != nil
      for key in ["pageFaults", "baselinePageFaults"] {
        if isTwoSided {
          #expect(((scenario[key] as? NSNumber)?.doubleValue ?? -1) >= 0, "\(name) \(key)")
        } else {
          #expect(scenario[key] == nil, "\(name) \(key)")
        }
      }
    }
    let notes = Dictionary(
      uniqueKeysWithValues: scenarios.compactMap { scenario in
        (scenario["name"] as? String).map { ($0, scenario["note"] as? String ?? "") }
      })
    #expect(
      notes["cold-start"]?.contains("ms per run of task list (1000 tasks)") == true, "\(notes["cold-start"] ?? "")")
    #expect(notes["migrate-rebuild"]?.contains("s per MiB") == true, "\(notes["migrate-rebuild"] ?? "")")
    #expect(notes["migrate-rebuild-nobackup"]?.contains("backup") == false)
  }

  @Test("The heavyweight scenarios measure peak memory in a child process, at ten times the rows when asked")
  func heavyweightMemory() throws {
    let run = try ProcessRun.run(
      try #require(TestPaths.executable(named: "modelc-bench")),
      [
        "--rows", "20", "--repetitions", "1", "--only", "heavyweight-sql", "--only", "heavyweight-policy",
        "--tenfold-memory", "--format", "json",
      ])
    #expect(run.status == 0, "\(run.error)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    let scenarios = try #require(object["scenarios"] as? [[String: Any]])
    let notes = Dictionary(
      uniqueKeysWithValues: scenarios.compactMap { scenario in
        (scenario["name"] as? String).map { ($0, scenario["note"] as? String ?? "") }
      })
    for name in ["heavyweight-sql", "heavyweight-policy"] {
      let note = try #require(notes[name])
      #expect(note.contains(" MiB at 20 rows") && note.contains(" MiB at 200 rows"), "\(note)")
      #expect(note.contains("heavyweight stage 1"), "the phases of the child's run: \(note)")
    }
    #expect(notes["heavyweight-sql"]?.contains("(1 by SQL)") == true)
    #expect(
      notes["heavyweight-policy"]?.contains("objects/s through the policy (20 tasks read, 40 objects written") == true)
  }

  @Test("The child process of the memory measurements refuses arguments it does not know")
  func childUsage() throws {
    let run = try ProcessRun.run(
      try #require(TestPaths.executable(named: "modelc-bench")), ["measure-migration", "insert", "/nonexistent"])
    #expect(run.status == 2)
    #expect(run.error.contains("usage: modelc-bench measure-migration SCENARIO STORE"))
  }

  @Test("The child process of the per-scenario memory measurement refuses arguments it does not know")
  func memoryChildUsage() throws {
    let run = try ProcessRun.run(
      try #require(TestPaths.executable(named: "modelc-bench")), ["measure-memory", "nonsense", "10", "/tmp"])
    #expect(run.status == 2)
    #expect(run.error.contains("usage: modelc-bench measure-memory SCENARIO ROWS FOLDER"))
  }

  @Test("The child process that times one scenario prints its result, and refuses arguments it does not know")
  func scenarioChild() throws {
    let executable = try #require(TestPaths.executable(named: "modelc-bench"))
    let folder = TestPaths.temporaryDirectory("run-scenario")
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try ProcessRun.run(executable, ["run-scenario", "fetch-indexed", "40", "1", folder.path])
    #expect(run.status == 0, "\(run.error)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
    #expect(object["name"] as? String == "fetch-indexed")
    #expect((object["seconds"] as? NSNumber)?.doubleValue ?? 0 > 0)
    #expect((object["baselineSeconds"] as? NSNumber)?.doubleValue ?? 0 > 0)
    // The child leaves no store behind in the folder it was given.
    #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    for arguments in [
      ["run-scenario", "nonsense", "10", "1", "/tmp"], ["run-scenario", "insert", "10", "/tmp"],
      ["run-scenario", "insert", "10", "1", "--side", "theirs", "/tmp"],
      ["run-scenario", "insert", "10", "1", "--side"],
      ["run-scenario", "insert", "10", "1", "--sides", "ours", "/tmp"],
    ] {
      let refused = try ProcessRun.run(executable, arguments)
      #expect(refused.status == 2)
      #expect(refused.error.contains("usage: modelc-bench run-scenario SCENARIO ROWS REPETITIONS"))
    }
  }

  /// The harness runs the two sides' processes in turn, round by round: a child taking turns
  /// asks before each round (setup included), runs it when told, reports its time and page
  /// faults, and prints its result last.
  @Test("A child process taking turns waits for each round, reports its time, and fails without its turn")
  func takingTurns() throws {
    let executable = try #require(TestPaths.executable(named: "modelc-bench"))
    let folder = TestPaths.temporaryDirectory("run-turns")
    defer { try? FileManager.default.removeItem(at: folder) }
    let arguments = ["run-scenario", "update", "30", "1", "--side", "baseline", "--take-turns", folder.path]
    // A warm-up and one timed round: two turns.
    let run = try ProcessRun.run(executable, arguments, input: "go\ngo\n")
    #expect(run.status == 0, "\(run.error)")
    let lines = run.output.split(separator: "\n").map(String.init)
    try #require(lines.count == 5, "\(run.output)")
    #expect(lines[0] == "ready" && lines[2] == "ready")
    // `time SECONDS FAULTS`: the round's time and the minor page faults of its timed part.
    for line in [lines[1], lines[3]] {
      let fields = line.split(separator: " ")
      #expect(fields.count == 3 && fields[0] == "time", "\(line)")
      #expect(fields.count == 3 && (Double(fields[1]) ?? 0) > 0 && (Int(fields[2]) ?? -1) >= 0, "\(line)")
    }
    let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[4].utf8)) as? [String: Any])
    #expect(object["sideDigest"] is [String: Any])
    // Its input ends before its second turn: it stops there, and says why.
    let cut = try ProcessRun.run(executable, arguments, input: "go\n")
    #expect(cut.status == 1)
    let cutLines = cut.output.split(separator: "\n").map(String.init)
    #expect(cutLines.count == 3 && cutLines.first == "ready" && cutLines.last == "ready", "\(cut.output)")
    #expect(cut.error.contains("the harness did not give this side its turn"), "\(cut.error)")
  }

  /// Each side of a scenario runs in a process of its own; the harness compares the digests the
  /// two processes report (a scenario whose sides disagree fails, see `tinyRun`).
  @Test("A child process runs one side of a scenario when asked, and reports that side's result digest")
  func scenarioSides() throws {
    let executable = try #require(TestPaths.executable(named: "modelc-bench"))
    let folder = TestPaths.temporaryDirectory("run-side")
    defer { try? FileManager.default.removeItem(at: folder) }
    var digests: [[String: Any]] = []
    for side in ["ours", "baseline"] {
      let run = try ProcessRun.run(executable, ["run-scenario", "update", "30", "1", "--side", side, folder.path])
      #expect(run.status == 0, "\(run.error)")
      let object = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
      #expect((object["seconds"] as? NSNumber)?.doubleValue ?? 0 > 0)
      #expect(object["baselineSeconds"] == nil)
      let digest = try #require(object["sideDigest"] as? [String: Any], "\(side): \(run.output)")
      #expect((digest["rows"] as? NSNumber)?.intValue ?? 0 > 0)
      digests.append(digest)
    }
    #expect(digests[0]["rows"] as? NSNumber == digests[1]["rows"] as? NSNumber)
    #expect(digests[0]["checksum"] as? NSNumber == digests[1]["checksum"] as? NSNumber)
    // Both sides in one process: the result is whole, and carries no digest.
    let both = try ProcessRun.run(executable, ["run-scenario", "update", "30", "1", folder.path])
    #expect(both.status == 0, "\(both.error)")
    let object = try #require(try JSONSerialization.jsonObject(with: Data(both.output.utf8)) as? [String: Any])
    #expect((object["baselineSeconds"] as? NSNumber)?.doubleValue ?? 0 > 0)
    #expect(object["sideDigest"] == nil)
  }

  @Test("The cold-start baseline program prints the task list's rows of a store")
  func printTasks() throws {
    let folder = TestPaths.temporaryDirectory("print-tasks")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = folder.appendingPathComponent("tasks.sqlite")
    let task = try #require(TestPaths.executable(named: "task"))
    let added = try ProcessRun.run(
      task, ["add", "Write the report", "--store", store.path, "--priority", "high", "--tag", "b", "--tag", "a"])
    #expect(added.status == 0, "\(added.error)")
    let run = try ProcessRun.run(
      try #require(TestPaths.executable(named: "modelc-bench")), ["print-tasks", store.path])
    #expect(run.status == 0, "\(run.error)")
    let id = added.output.trimmingCharacters(in: .whitespacesAndNewlines).prefix(8)
    #expect(run.output == "\(id)  high - Write the report a,b \n")
  }

  @Test("An unknown scenario is a usage error")
  func unknownScenario() throws {
    let run = try ProcessRun.run(try #require(TestPaths.executable(named: "modelc-bench")), ["--only", "nonsense"])
    #expect(run.status == 2)
    #expect(run.error.contains("unknown scenario 'nonsense'"))
  }
}
