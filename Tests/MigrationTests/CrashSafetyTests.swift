import Foundation
import Migration
import Persistence
import SQLite
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A lightweight migration (`modelc migrate`, Tasks → Tasks 3, in place in one transaction)
/// killed with SIGKILL inside it leaves a store that opens at the old version, with every value
/// intact, until the commit; after it, at the new version with every value intact. Either way
/// the store passes `integrity_check` and a killed migration can simply be run again.
///
/// The kills are deterministic and shown to land where they are meant to: `MODELC_KILL_AT_PHASE`
/// makes the process SIGKILL itself when it reaches the first traced phase starting with the text
/// given (see `PhaseTrace`), and the trace written through `MODELC_PHASE_TRACE` must end at that
/// phase — a kill that lands elsewhere, or a run that is not killed, fails the test.
/// `scripts/crash-campaign` adds kills at random moments.
@Suite("Crash safety")
struct CrashSafetyTests {
  static let bundle = try! ModelBundle(contentsOf: TestPaths.tasksModel.path)
  /// Tasks in the store: more than one chunk of the copy (50,000 rows), so that a kill can land
  /// between two chunks.
  static let taskCount = 60_000

  /// A phase of the migration to kill it at, and the version the store is at afterwards.
  struct KillPoint: Sendable, CustomTestStringConvertible {
    /// The start of the traced phase the process stops at.
    var phase: String
    /// Where that is, in words.
    var place: String
    /// Whether the migration was committed before the kill.
    var committed: Bool

    var testDescription: String { place }
  }

  /// The phases of an in-place migration, in the order it reaches them.
  static let points: [KillPoint] = [
    KillPoint(
      phase: "migrate: transaction", place: "inside the transaction, before the first step", committed: false),
    KillPoint(
      phase: "migrate: copy step 1/1 50000/\(taskCount)", place: "between the two chunks of the table copy",
      committed: false),
    KillPoint(
      phase: "migrate: verify", place: "after the copy, before the bookkeeping and verification", committed: false),
    KillPoint(phase: "migrate: commit", place: "after the verification, just before COMMIT", committed: false),
    KillPoint(phase: "migrate: committed", place: "right after the commit", committed: true),
  ]

  /// A store at `Tasks` with `count` tasks, written with plain SQL for speed.
  static func largeStore(count: Int) throws -> URL {
    let url = TestPaths.temporaryDirectory("crash-pristine").appendingPathComponent("Tasks.sqlite")
    _ = try PersistentContainer(bundle: bundle, versionName: "Tasks", options: .file(url))
    let connection = try SQLiteConnection(.file(url.path))
    try connection.transaction(.immediate) {
      let insert = try connection.prepare(
        "INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZDUEDATE, ZTITLE, ZID) VALUES (?, 1, 1, ?, ?, ?, ?, ?)"
      )
      for index in 1...count {
        let id = withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) } + [UInt8](repeating: 7, count: 8)
        try insert.execute([
          .integer(Int64(index)), .integer(Int64(index % 2)), .integer(Int64(index % 3 + 1)),
          index % 5 == 0 ? .null : .real(700_000_000 + Double(index)), .text("Task \(index) ✓"), .blob(id),
        ])
      }
      try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(Int64(count)) WHERE Z_ENT = 1")
    }
    try connection.close()
    return url
  }

  /// Every task's values, keyed by primary key, read with plain SQL (layout-independent columns).
  static func taskValues(_ url: URL) throws -> [Int64: String] {
    let connection = try SQLiteConnection(.file(url.path))
    defer { try? connection.close() }
    var result: [Int64: String] = [:]
    try connection.forEachRow(
      "SELECT Z_PK, ZISCOMPLETED, ZPRIORITY, IFNULL(ZDUEDATE, 'nil'), ZTITLE, hex(ZID) FROM ZTASK"
    ) { row in
      result[row.int64(at: 0)] =
        "\(row.int64(at: 1))|\(row.int64(at: 2))|\(row.value(at: 3))|\(row.text(at: 4))|\(row.text(at: 5))"
    }
    return result
  }

  static func copy(_ url: URL) throws -> URL {
    let destination = TestPaths.temporaryDirectory("crash-run").appendingPathComponent(url.lastPathComponent)
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
      try FileManager.default.copyItem(atPath: url.path + suffix, toPath: destination.path + suffix)
    }
    return destination
  }

  /// `modelc migrate` of a store to Tasks 3, traced into `trace`, killed at `killPhase` when given.
  static func migrate(_ store: URL, trace: URL, killPhase: String? = nil) throws -> ProcessRun {
    let modelc = try #require(TestPaths.executable(named: "modelc"))
    return try ProcessRun.run(
      modelc,
      ["migrate", store.path, "--model", TestPaths.tasksModel.path, "--to", "Tasks 3", "--no-backup"],
      environment: ["MODELC_PHASE_TRACE": trace.path, "MODELC_KILL_AT_PHASE": killPhase ?? ""])
  }

  /// The phases a trace file records, in order (each line is `<time> <phase>`).
  static func phases(in trace: URL) throws -> [String] {
    try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").map {
      String($0.drop { $0 != " " }.dropFirst())
    }
  }

  /// The pristine store and its values, made once for every test of the suite.
  static let pristine: Result<(store: URL, values: [Int64: String]), any Error> = Result {
    let store = try largeStore(count: taskCount)
    return (store, try taskValues(store))
  }

  @Test(
    "SIGKILL at a named phase of a migration leaves the old or the new version, values intact; the next run succeeds",
    .enabled(if: TestPaths.executable(named: "modelc") != nil, "the modelc executable is not built"),
    arguments: points)
  func killedAt(_ point: KillPoint) throws {
    let (pristine, original) = try Self.pristine.get()
    let store = try Self.copy(pristine)
    let trace = store.deletingLastPathComponent().appendingPathComponent("trace")
    let killed = try Self.migrate(store, trace: trace, killPhase: point.phase)

    // The kill landed where it was meant to, inside the migration.
    #expect(killed.status == SIGKILL, "the migration was not killed: \(killed.output) \(killed.error)")
    let traced = try Self.phases(in: trace)
    #expect(traced.last == point.phase, "the migration stopped at '\(traced.last ?? "nothing")', not at the phase")
    #expect(traced.contains("migrate: transaction"), "the migration never started: \(traced)")

    // What the kill left: an intact store at one version or the other, every value kept.
    let version = try StoreMigration(storeURL: store, bundle: Self.bundle).storeVersion().name
    #expect(version == (point.committed ? "Tasks 3" : "Tasks"))
    #expect(try Self.taskValues(store) == original, "values after a kill \(point.place)")
    let connection = try SQLiteConnection(.file(store.path))
    #expect(try connection.integrityCheck() == ["ok"])
    try connection.close()

    // A killed migration can simply be run again.
    let next = try Self.migrate(store, trace: trace)
    #expect(next.status == 0, "\(next.error)")
    #expect(try StoreMigration(storeURL: store, bundle: Self.bundle).storeVersion().name == "Tasks 3")
    #expect(try Self.taskValues(store) == original)
  }

  @Test(
    "An uninterrupted, traced migration passes every kill point in order and commits",
    .enabled(if: TestPaths.executable(named: "modelc") != nil, "the modelc executable is not built"))
  func everyKillPointIsTraced() throws {
    let (pristine, original) = try Self.pristine.get()
    let store = try Self.copy(pristine)
    let trace = store.deletingLastPathComponent().appendingPathComponent("trace")
    let run = try Self.migrate(store, trace: trace)
    #expect(run.status == 0, "\(run.error)")
    let traced = try Self.phases(in: trace)
    var remaining = traced[...]
    for point in Self.points {
      guard let index = remaining.firstIndex(where: { $0.hasPrefix(point.phase) }) else {
        Issue.record("the phase '\(point.phase)' was not traced in order: \(traced)")
        return
      }
      remaining = remaining[(index + 1)...]
    }
    #expect(try StoreMigration(storeURL: store, bundle: Self.bundle).storeVersion().name == "Tasks 3")
    #expect(try Self.taskValues(store) == original)
  }
}
