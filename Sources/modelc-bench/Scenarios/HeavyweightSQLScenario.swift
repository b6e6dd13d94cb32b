import Foundation
import Migration
import Persistence

#if canImport(Glibc)
  import Glibc
#endif

/// `heavyweight-sql`: a mapped step whose every entity mapping compiles to SQL (checked
/// through `StoreMigration.entityMappingRoutes(of:)`), run as a user runs it, against
/// hand-written SQL doing the same work into a new file: `ATTACH` the store, one
/// `INSERT … SELECT` per table, keys, then the new file made durable and renamed over the store
/// with the original kept (as the migration keeps its backup).
///
/// Both sides lay out the new file the same way (the container creates the destination
/// version's tables, indexes and metadata): the baseline hand-writes the data's move, not the
/// Core Data layout. Peak memory is measured in a child process, at `--rows` and, with
/// `--tenfold-memory`, at ten times as many.
struct HeavyweightSQLScenario: HeavyweightScenario {
  let name = "heavyweight-sql"

  var measuresOwnMemory: Bool { true }

  func step(_ stores: TaskStores) throws -> HeavyweightStepSetup {
    try .tasksSQL(stores.bundle)
  }

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let step = try step(stores)
    let template = try sourceStore(rows: configuration.rows, configuration)
    let routes = try step.routes(on: template, bundle: stores.bundle)
    if let slow = routes.first(where: { $0.route == .objects }) {
      throw BenchmarkError("entity mapping \(slow) does not run as SQL")
    }
    let handWritten = try HandWrittenTasksCopy(bundle: stores.bundle, to: step.to)

    var result = try measure(
      configuration, setUp: { _ in try stores.copy(of: template) },
      ours: { url, _ in
        try step.run(on: url, bundle: stores.bundle)
        return nil
      },
      baseline: { url, _ in
        try handWritten.run(on: url)
        return nil
      },
      result: { url in
        // The migrated tasks of both sides, compared by a checksum of every value.
        try RawSQLite(path: url.path).digest(
          of: "SELECT Z_PK, Z_ENT, ZID, ZTITLE, ZNOTES, ZPRIORITY, ZISCOMPLETED, ZDUEDATE FROM ZTASK ORDER BY Z_PK")
      })
    // Our side's peak memory and phases: measured once, by our side's process.
    guard configuration.side != .baseline else { return result }
    let child = try ChildMeasurement.measure(name, store: try stores.copy(of: template), configuration)
    result.peakMemoryBytes = child.peakMemoryBytes
    var note =
      "\(routes.count) entity mappings (\(routes.filter { $0.route == .sql }.count) by SQL); peak \(child.peakMemoryBytes / 1_048_576) MiB at \(configuration.rows) rows"
    if configuration.measuresTenfoldMemory {
      let rows = configuration.rows * 10
      let tenfold = try ChildMeasurement.measure(name, store: try sourceStore(rows: rows, configuration), configuration)
      note += ", \(tenfold.peakMemoryBytes / 1_048_576) MiB at \(rows) rows (\(tenfold.timeSummary))"
    }
    result.note = note + "; one run in a child: \(child.timeSummary)"
    return result
  }
}

/// The baseline of `heavyweight-sql`: the Tasks copy written by hand, into a new file laid out
/// for the destination version, then put in place of the store.
struct HandWrittenTasksCopy {
  /// The destination version.
  let destination: ModelVersion
  /// Task's entity number in the destination version.
  let taskEntity: Int

  init(bundle: ModelBundle, to version: String) throws {
    guard let destination = bundle.version(named: version),
      let task = StoreSchema(model: destination).mapping(forEntityNamed: "Task")
    else { throw BenchmarkError("the model has no version '\(version)' with a Task entity") }
    self.destination = destination
    self.taskEntity = task.entityNumber
  }

  /// Migrates the store at `url` (a `Tasks 2` store) into a new file, swaps it in, and keeps the
  /// original next to it.
  func run(on url: URL) throws {
    let newURL = URL(fileURLWithPath: url.path + ".new")
    // The layout (tables, indexes, metadata of the destination version), as the engine makes it.
    _ = try PersistentContainer(model: destination, options: .file(newURL))
    do {
      let raw = try RawSQLite(path: newURL.path)
      try raw.execute("PRAGMA synchronous = OFF")
      try raw.execute("ATTACH DATABASE '\(url.path.replacingOccurrences(of: "'", with: "''"))' AS old")
      try raw.execute("BEGIN IMMEDIATE")
      try raw.execute(
        """
        INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, ZDUEDATE, ZID, ZISCOMPLETED, ZNOTES, ZPRIORITY, ZTITLE)
        SELECT Z_PK, \(taskEntity), 1, ZDUEDATE, ZID, ZISCOMPLETED, ZNOTES, ZPRIORITY, trim(ZTITLE) FROM old.ZTASK
        """)
      try raw.execute(
        "UPDATE Z_PRIMARYKEY SET Z_MAX = (SELECT IFNULL(MAX(Z_PK), 0) FROM ZTASK) WHERE Z_ENT = \(taskEntity)")
      try raw.execute("COMMIT")
      try raw.execute("DETACH DATABASE old")
      try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
      try raw.execute("PRAGMA journal_mode = DELETE")
    }
    try TaskStores.flush(newURL)
    let backup = URL(fileURLWithPath: url.path + ".backup")
    try FileManager.default.linkItem(at: url, to: backup)
    for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    guard rename(newURL.path, url.path) == 0 else { throw BenchmarkError("cannot rename \(newURL.path)") }
    let folder = open(url.deletingLastPathComponent().path, O_RDONLY)
    if folder >= 0 {
      fsync(folder)
      close(folder)
    }
  }
}
