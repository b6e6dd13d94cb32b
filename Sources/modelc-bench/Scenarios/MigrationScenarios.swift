import Foundation
import Migration

/// `migrate-add-attribute`: `Tasks` → `Tasks 2` (an optional attribute, added in place) at a
/// large and a small row count. Its ratio is the time at many rows over the time at few: about 1
/// when the cost does not grow with the data.
struct MigrateAddAttributeScenario: Scenario {
  let name = "migrate-add-attribute"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let small = min(1_000, configuration.rows)
    let large = configuration.rows >= 100_000 ? 1_000_000 : configuration.rows * 10
    let smallStore = try stores.filledStore(TaskRow.make(small), version: "Tasks")
    let largeStore = try stores.filledStore(TaskRow.make(large), version: "Tasks")
    let target = stores.bundle.version(named: "Tasks 2")!
    func copy(_ url: URL) throws -> URL {
      let destination = configuration.directory.appendingPathComponent("copy-\(UUID().uuidString).sqlite")
      for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
        try FileManager.default.copyItem(atPath: url.path + suffix, toPath: destination.path + suffix)
        // Flush the copy now: otherwise the migration's first fsync would write back the whole
        // freshly copied file, and the timing would measure the copy.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: destination.path + suffix))
        try handle.synchronize()
        try handle.close()
      }
      return destination
    }
    return try measure(
      configuration, setUp: { forBaseline in try copy(forBaseline ? smallStore : largeStore) },
      ours: { url in
        try StoreMigration(storeURL: url, bundle: stores.bundle).run(to: target, options: .init(keepsBackup: false))
      },
      baseline: { url in
        try StoreMigration(storeURL: url, bundle: stores.bundle).run(to: target, options: .init(keepsBackup: false))
      },
      note: "seconds at \(large) rows; baseline = the same migration at \(small) rows")
  }
}

/// `migrate-rebuild`: `Tasks` → `Tasks 3` (entity numbers change, so the table is rebuilt),
/// against a hand-written `CREATE TABLE … ; INSERT INTO … SELECT … FROM …` doing the same copy.
/// Peak memory is also measured at ten times the rows: it must not grow with them.
struct MigrateRebuildScenario: Scenario {
  let name = "migrate-rebuild"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    let target = stores.bundle.currentVersion
    let taskNumber = stores.taskEntityNumber
    var result = try measure(
      configuration, setUp: { _ in try stores.filledStore(rows, version: "Tasks") },
      ours: { url in
        try StoreMigration(storeURL: url, bundle: stores.bundle).run(to: target, options: .init(keepsBackup: false))
      },
      baseline: { url in
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
      })
    // Peak memory at ten times the rows.
    let tenfold = try stores.filledStore(TaskRow.make(configuration.rows * 10), version: "Tasks")
    Measure.resetPeakMemory()
    try StoreMigration(storeURL: tenfold, bundle: stores.bundle).run(to: target, options: .init(keepsBackup: false))
    let tenfoldPeak = Measure.peakMemory()
    result.note =
      "peak memory \(result.peakMemoryBytes / 1_048_576) MiB at \(configuration.rows) rows, \(tenfoldPeak / 1_048_576) MiB at \(configuration.rows * 10) rows"
    return result
  }
}
