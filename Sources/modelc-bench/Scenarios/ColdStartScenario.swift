import Foundation
import Persistence
import TaskKit

/// `cold-start`: the built `task` executable run as a whole process to list 1,000 tasks
/// (`task list --store PATH`, spawned, its output drained through a pipe), against the `sqlite3`
/// shell printing the same rows from the same store (or, without the shell,
/// `modelc-bench print-tasks`, the same query through SQLite's C API). Reported per run.
///
/// The peak memory is the `task` process's `ru_maxrss`, from one run spawned by the harness's
/// memory child (``ScenarioMemory``) right after it reset its own high-water mark: Linux carries
/// the spawning process's resident high-water mark into the spawned program's at `exec`
/// (`posix_spawn` shares the parent's memory until then), so a spawn from the harness itself
/// would report the harness's peak. The figure is the larger of `task`'s own peak and the
/// small child's resident set at the spawn.
///
/// Both outputs are compared (each line's fields, the table's header left out): the figures
/// mean nothing unless both printed the same tasks in the same order.
struct ColdStartScenario: Scenario {
  let name = "cold-start"
  /// The tasks listed, whatever `--rows` says: the size of a real task list.
  static let tasks = 1_000

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let folder = ChildProcess.benchmarkExecutable.deletingLastPathComponent()
    let task = folder.appendingPathComponent("task").path
    guard FileManager.default.isExecutableFile(atPath: task) else {
      throw BenchmarkError(
        "the task executable is not built next to modelc-bench (\(task)): build it too, e.g. swift build -c release")
    }
    let store = try Self.store(configuration)
    let errors = configuration.directory.appendingPathComponent("cold-start-errors.txt").path
    var environment = ProcessInfo.processInfo.environment
    environment["TASK_STORE"] = nil
    environment["NO_COLOR"] = "1"
    let variables = environment.map { "\($0.key)=\($0.value)" }.sorted()

    let baseline: (path: String, arguments: [String], label: String)
    if let shell = Self.sqliteShell() {
      baseline = (shell, ["-batch", "-list", "-separator", " ", store.path, RawTaskListing.sql], "the sqlite3 shell")
    } else {
      baseline = (
        ChildProcess.benchmarkExecutable.path, [RawTaskListing.subcommand, store.path],
        "modelc-bench print-tasks (SQLite's C API; no sqlite3 shell installed)"
      )
    }
    func ours() throws -> SpawnedRun {
      try checked(
        SpawnedRun.run(task, ["list", "--store", store.path], environment: variables, errorFile: errors),
        "task list", errors)
    }
    if configuration.measuresMemoryOnly {
      Measure.resetPeakMemory()
      let run = try ours()
      return ScenarioResult(
        name: name, seconds: run.seconds, baselineSeconds: nil, peakMemoryBytes: run.peakMemoryBytes, note: nil)
    }
    func theirs() throws -> SpawnedRun {
      try checked(
        SpawnedRun.run(baseline.path, baseline.arguments, environment: variables, errorFile: errors),
        baseline.label, errors)
    }

    // Warm-up (the executables' pages in the page cache, as a user's second run finds them),
    // and the check that both print the same tasks.
    let ourLines = Self.fields(ofLines: try ours().output, droppingHeader: true)
    let theirLines = Self.fields(ofLines: try theirs().output, droppingHeader: false)
    try ResultDigest.check(name, ours: Self.digest(ourLines), baseline: Self.digest(theirLines))
    guard ourLines.count == Self.tasks else {
      throw BenchmarkError("task list printed \(ourLines.count) tasks, not \(Self.tasks)")
    }

    let runs = max(configuration.repetitions * 4, 1)
    var ourTimes: [Double] = []
    var baselineTimes: [Double] = []
    for _ in 0..<runs {
      ourTimes.append(try ours().seconds)
      baselineTimes.append(try theirs().seconds)
    }
    let seconds = Measure.median(ourTimes)
    let baselineSeconds = Measure.median(baselineTimes)
    return ScenarioResult(
      name: name, seconds: seconds, baselineSeconds: baselineSeconds, peakMemoryBytes: 0,
      note: String(
        format: "%.1f ms per run of task list (%d tasks) against %.1f ms of %@; medians of %d runs each",
        seconds * 1000, Self.tasks, baselineSeconds * 1000, baseline.label, runs))
  }

  /// A store of the task list with ``tasks`` tasks: every third in one of two projects, every
  /// fifth with one or two of three tags (written with plain SQL, as `task add` would leave them).
  static func store(_ configuration: BenchmarkConfiguration) throws -> URL {
    let stores = try GeneratedTaskStores(configuration)
    let url = try stores.filledStore(TaskRow.make(tasks))
    let schema = StoreSchema(model: try TasksModel.bundle().version(named: TasksModel.generatedVersionName)!)
    guard let project = schema.mapping(forEntityNamed: "Project")?.entityNumber,
      let tag = schema.mapping(forEntityNamed: "Tag")?.entityNumber
    else { throw BenchmarkError("TaskKit's model has no Project or Tag entity") }
    let raw = try RawSQLite(path: url.path)
    try raw.execute("BEGIN IMMEDIATE")
    try raw.execute(
      "INSERT INTO ZPROJECT (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(project), 1, 'home'), (2, \(project), 1, 'work')")
    try raw.execute(
      "INSERT INTO ZTAG (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (1, \(tag), 1, 'urgent'), (2, \(tag), 1, 'email'), (3, \(tag), 1, 'later')"
    )
    try raw.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 2 WHERE Z_ENT = \(project)")
    try raw.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 3 WHERE Z_ENT = \(tag)")
    try raw.execute("UPDATE ZTASK SET ZPROJECT = 1 + Z_PK % 2 WHERE Z_PK % 3 = 0")
    try raw.execute("INSERT INTO Z_3TASKS (Z_3TAGS, Z_4TASKS) SELECT 1 + Z_PK % 3, Z_PK FROM ZTASK WHERE Z_PK % 5 = 0")
    try raw.execute(
      "INSERT INTO Z_3TASKS (Z_3TAGS, Z_4TASKS) SELECT 1 + (Z_PK + 1) % 3, Z_PK FROM ZTASK WHERE Z_PK % 10 = 0")
    try raw.execute("COMMIT")
    try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try TaskStores.flush(url)
    return url
  }

  /// Throws with the program's errors unless it exited with 0.
  private func checked(_ run: SpawnedRun, _ label: String, _ errors: String) throws -> SpawnedRun {
    guard run.status == 0 else {
      let text = (try? String(contentsOfFile: errors, encoding: .utf8)) ?? ""
      throw BenchmarkError("\(label) failed (status \(run.status)): \(text)")
    }
    return run
  }

  /// The `sqlite3` shell on the `PATH`, if installed.
  static func sqliteShell() -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").map { "\($0)/sqlite3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  /// Each printed line's fields, split on runs of spaces (the table pads its columns; the
  /// shell separates them with one space, an empty field giving two).
  static func fields(ofLines output: [UInt8], droppingHeader: Bool) -> [[Substring]] {
    let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
    return lines.dropFirst(droppingHeader ? 1 : 0).map { $0.split(separator: " ") }
  }

  static func digest(_ lines: [[Substring]]) -> ResultDigest {
    var digest = ResultDigest()
    for line in lines {
      digest.nextRow()
      for field in line { digest.mix(String(field)) }
    }
    return digest
  }
}

/// The `cold-start` baseline's query, and the program that runs it through SQLite's C API
/// when no `sqlite3` shell is installed: the rows `task list` prints (short id, ✓ when done,
/// priority, due date in local time, title, tags, project) in its order (priority, due date
/// with undated tasks last, title, id).
enum RawTaskListing {
  static let subcommand = "print-tasks"

  static let sql = """
    SELECT substr(lower(hex(t.ZID)), 1, 8), CASE WHEN t.ZCOMPLETEDAT IS NULL THEN '' ELSE '✓' END,
      CASE t.ZPRIORITY WHEN 1 THEN 'high' WHEN 2 THEN 'medium' ELSE 'low' END,
      IFNULL(date(t.ZDUEDATE + 978307200, 'unixepoch', 'localtime'), '-'), t.ZTITLE,
      IFNULL((SELECT group_concat(g.ZNAME, ',') FROM (SELECT g.ZNAME FROM Z_3TASKS AS l JOIN ZTAG AS g ON g.Z_PK = l.Z_3TAGS
        WHERE l.Z_4TASKS = t.Z_PK ORDER BY g.ZNAME) AS g), ''),
      IFNULL(p.ZNAME, '')
    FROM ZTASK AS t LEFT JOIN ZPROJECT AS p ON p.Z_PK = t.ZPROJECT
    ORDER BY t.ZPRIORITY, t.ZDUEDATE IS NULL, t.ZDUEDATE, t.ZTITLE, hex(t.ZID)
    """

  /// `print-tasks STORE`: prints the rows, fields separated by one space. Returns the exit code.
  static func serve(_ arguments: [String]) -> Int32 {
    guard arguments.count == 1 else {
      FileHandle.standardError.write(Data("usage: modelc-bench \(subcommand) STORE\n".utf8))
      return 2
    }
    do {
      let raw = try RawSQLite(path: arguments[0])
      let statement = try raw.prepare(sql)
      var text = ""
      while try raw.step(statement) {
        text += (0..<7).map { raw.text(statement, Int32($0)) }.joined(separator: " ") + "\n"
      }
      raw.finalize(statement)
      FileHandle.standardOutput.write(Data(text.utf8))
      return 0
    } catch {
      FileHandle.standardError.write(Data("\(subcommand): \(error)\n".utf8))
      return 1
    }
  }
}
