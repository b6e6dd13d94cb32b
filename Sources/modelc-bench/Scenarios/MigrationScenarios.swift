import Foundation
import Migration

/// `migrate-add-attribute`: `Tasks` → `Tasks 2` (an optional attribute, added in place) at a
/// large and a small row count, with the backup a user's migration keeps by default
/// (`migrate-add-attribute-nobackup`: without it). Its ratio is the time at many rows over the
/// time at few: about 1 when the cost does not grow with the data (the backup, a copy of the
/// store, does grow with it).
struct MigrateAddAttributeScenario: Scenario {
  /// Whether the migration keeps its backup (the default of `StoreMigration.Options`).
  var keepsBackup: Bool

  var name: String { keepsBackup ? "migrate-add-attribute" : "migrate-add-attribute-nobackup" }

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let small = min(1_000, configuration.rows)
    let large = configuration.rows >= 100_000 ? 1_000_000 : configuration.rows * 10
    let smallStore = try stores.filledStore(TaskRow.make(small), version: "Tasks")
    let largeStore = try stores.filledStore(TaskRow.make(large), version: "Tasks")
    let target = stores.bundle.version(named: "Tasks 2")!
    let options = StoreMigration.Options(keepsBackup: keepsBackup)
    func migrate(_ state: (url: URL, rows: Int)) throws -> ResultDigest? {
      try StoreMigration(storeURL: state.url, bundle: stores.bundle).run(to: target, options: options)
      return nil
    }
    return try measure(
      configuration,
      setUp: { forBaseline in
        forBaseline
          ? (url: try stores.copy(of: smallStore), rows: small) : (url: try stores.copy(of: largeStore), rows: large)
      },
      ours: { state, _ in try migrate(state) }, baseline: { state, _ in try migrate(state) },
      result: { state in
        // Both sides' stores begin with the same `small` tasks: their values after the migration
        // must be the same, and each store must still hold all of its own.
        let raw = try RawSQLite(path: state.url.path)
        var digest = try raw.digest(of: "SELECT * FROM ZTASK WHERE Z_PK <= \(small) ORDER BY Z_PK")
        let holdsEveryTask = try raw.integer("SELECT COUNT(*) FROM ZTASK") == state.rows
        digest.mix(holdsEveryTask)
        return digest
      },
      note: "seconds at \(large) rows; baseline = the same migration at \(small) rows"
        + (keepsBackup ? " (both keep the backup: it copies the store)" : ""))
  }
}

/// `migrate-rebuild`: `Tasks` → `Tasks 3` (entity numbers change, so the table is rebuilt),
/// with the backup a user's migration keeps by default (`migrate-rebuild-nobackup`: without
/// it), against a hand-written `CREATE TABLE … ; INSERT INTO … SELECT … FROM …` doing the same
/// copy. One run in a child process measures the peak memory (also at ten times the rows) and
/// the phases, among them the backup's seconds per MiB of store.
struct MigrateRebuildScenario: ChildMigrationScenario {
  /// Whether the migration keeps its backup (the default of `StoreMigration.Options`).
  var keepsBackup: Bool

  var name: String { keepsBackup ? "migrate-rebuild" : "migrate-rebuild-nobackup" }

  var measuresOwnMemory: Bool { true }

  func sourceStore(rows: Int, _ configuration: BenchmarkConfiguration) throws -> URL {
    try TaskStores(configuration).filledStore(TaskRow.make(rows), version: "Tasks")
  }

  func migrate(_ url: URL, _ configuration: BenchmarkConfiguration) throws {
    let stores = try TaskStores(configuration)
    try StoreMigration(storeURL: url, bundle: stores.bundle).run(
      to: stores.bundle.currentVersion, options: .init(keepsBackup: keepsBackup))
  }

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let taskNumber = stores.taskEntityNumber
    let template = try sourceStore(rows: configuration.rows, configuration)
    var result = try measure(
      configuration, setUp: { _ in try stores.copy(of: template) },
      ours: { url, _ in
        try migrate(url, configuration)
        return nil
      },
      baseline: { url, _ in
        let raw = try RawSQLite(path: url.path)
        try raw.execute("BEGIN IMMEDIATE")
        try raw.execute(
          "CREATE TABLE NEWTASK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISCOMPLETED INTEGER, ZPRIORITY INTEGER, ZPROJECT INTEGER, ZDUEDATE TIMESTAMP, ZNOTES VARCHAR, ZTITLE VARCHAR, ZID BLOB )"
        )
        try raw.execute(
          "INSERT INTO NEWTASK SELECT Z_PK, \(taskNumber), Z_OPT, ZISCOMPLETED, ZPRIORITY, NULL, ZDUEDATE, NULL, ZTITLE, ZID FROM ZTASK"
        )
        try raw.execute("DROP TABLE ZTASK")
        try raw.execute("ALTER TABLE NEWTASK RENAME TO ZTASK")
        try raw.execute(
          "CREATE INDEX Z_Task_byPriorityAndDueDate ON ZTASK (ZPRIORITY COLLATE BINARY ASC, ZDUEDATE COLLATE BINARY ASC)"
        )
        try raw.execute("CREATE UNIQUE INDEX Z_Task_UNIQUE_id ON ZTASK (ZID COLLATE BINARY ASC)")
        try raw.execute("CREATE INDEX ZTASK_ZPROJECT_INDEX ON ZTASK (ZPROJECT)")
        try raw.execute("COMMIT")
        return nil
      },
      result: { url in
        try RawSQLite(path: url.path).digest(of: "SELECT \(taskColumns) FROM ZTASK ORDER BY Z_PK")
      })
    // Our side's peak memory and phases: measured once, by our side's process.
    guard configuration.side != .baseline else { return result }
    let child = try ChildMeasurement.measure(name, store: try stores.copy(of: template), configuration)
    result.peakMemoryBytes = child.peakMemoryBytes
    var note = "peak memory \(child.peakMemoryBytes / 1_048_576) MiB at \(configuration.rows) rows"
    let tenfoldRows = configuration.rows * 10
    let tenfoldStore = try sourceStore(rows: tenfoldRows, configuration)
    let tenfoldBytes = Self.size(of: tenfoldStore)
    let tenfold = try ChildMeasurement.measure(name, store: tenfoldStore, configuration)
    note += ", \(tenfold.peakMemoryBytes / 1_048_576) MiB at \(tenfoldRows) rows"
    if keepsBackup {
      note += "; backup " + Self.backupCost(child, storeBytes: Self.size(of: template))
      note += ", at \(tenfoldRows) rows " + Self.backupCost(tenfold, storeBytes: tenfoldBytes)
    }
    result.note = note + "; one run in a child: \(child.timeSummary)"
    return result
  }

  /// `0.012 s for 9.8 MiB (0.0012 s per MiB)`: the backup phase of a child's run.
  static func backupCost(_ child: ChildMeasurement, storeBytes: Int) -> String {
    let seconds = child.phases.first(where: { $0.name == "backup" })?.seconds ?? 0
    let mebibytes = Double(storeBytes) / 1_048_576
    return String(format: "%.4f s for %.1f MiB (%.5f s per MiB)", seconds, mebibytes, seconds / max(mebibytes, 1e-9))
  }

  /// The bytes of a store's files (main file and `-wal`).
  static func size(of url: URL) -> Int {
    ["", "-wal"].reduce(0) { total, suffix in
      let attributes = try? FileManager.default.attributesOfItem(atPath: url.path + suffix)
      return total + ((attributes?[.size] as? Int) ?? 0)
    }
  }
}
