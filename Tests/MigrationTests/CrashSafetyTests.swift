import Foundation
import Migration
import Persistence
import SQLite
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// A migration killed with SIGKILL at any moment leaves a store that opens at the old or the
/// new version with every value intact.
@Suite("Crash safety")
struct CrashSafetyTests {
  static let bundle = try! ModelBundle(contentsOf: TestPaths.tasksModel.path)

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

  @Test(
    "SIGKILL at many moments during a migration leaves the old or the new version, values intact",
    .enabled(if: TestPaths.executable(named: "modelc") != nil, "the modelc executable is not built"))
  func killedMigrations() throws {
    let modelc = try #require(TestPaths.executable(named: "modelc"))
    let pristine = try Self.largeStore(count: 60_000)
    let original = try Self.taskValues(pristine)

    // How long an uninterrupted migration takes.
    let timing = try Self.copy(pristine)
    let start = Date()
    let process = try Self.launch(modelc, store: timing)
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
    let duration = Date().timeIntervalSince(start)
    #expect(try StoreMigration(storeURL: timing, bundle: Self.bundle).storeVersion().name == "Tasks 3")

    var generator = SystemRandomNumberGenerator()
    var outcomes: [String: Int] = [:]
    for _ in 0..<10 {
      let store = try Self.copy(pristine)
      let run = try Self.launch(modelc, store: store)
      Thread.sleep(forTimeInterval: Double.random(in: 0...(duration * 1.2), using: &generator))
      kill(run.processIdentifier, SIGKILL)
      run.waitUntilExit()
      let version = try StoreMigration(storeURL: store, bundle: Self.bundle).storeVersion().name
      #expect(version == "Tasks" || version == "Tasks 3")
      outcomes[version, default: 0] += 1
      #expect(try Self.taskValues(store) == original, "values after a kill at version \(version)")
      let connection = try SQLiteConnection(.file(store.path))
      #expect(try connection.integrityCheck() == ["ok"])
      try connection.close()
      // A killed migration can simply be run again.
      if version == "Tasks" {
        try StoreMigration(storeURL: store, bundle: Self.bundle).run(
          to: Self.bundle.version(named: "Tasks 3"), options: .init(keepsBackup: false))
        #expect(try Self.taskValues(store) == original)
      }
    }
    print("crash safety: outcomes \(outcomes) (uninterrupted migration: \(String(format: "%.2f", duration)) s)")
  }

  static func launch(_ modelc: URL, store: URL) throws -> Process {
    let process = Process()
    process.executableURL = modelc
    process.arguments = [
      "migrate", store.path, "--model", TestPaths.tasksModel.path, "--to", "Tasks 3", "--no-backup",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    return process
  }
}
