import Foundation
import Migration

/// `heavyweight-policy`: a mapped step whose Task mapping runs object by object through a
/// Swift policy (``NotesToTagsPolicy``), as a user runs it; reported as objects per second.
/// There is no baseline: Core Data's migration manager, what such a policy is ported from,
/// does not run here. Peak memory is measured in a child process, at `--rows` and, with
/// `--tenfold-memory`, at ten times as many.
///
/// The step is a ``HeavyweightStepSetup``: the real `Tasks 3` → `Tasks 4` step with its
/// policy in `TaskKit` replaces ``HeavyweightStepSetup/tasksPolicy(_:)`` in ``step(_:)`` once
/// it exists (with ``check(_:rows:bundle:version:)`` following what that policy does).
struct HeavyweightPolicyScenario: ChildMigrationScenario {
  let name = "heavyweight-policy"

  func step(_ stores: TaskStores) throws -> HeavyweightStepSetup {
    try .tasksPolicy(stores.bundle)
  }

  func sourceStore(rows: Int, _ configuration: BenchmarkConfiguration) throws -> URL {
    let stores = try TaskStores(configuration)
    return try stores.filledStoreWithNotes(rows, version: try step(stores).from)
  }

  func migrate(_ url: URL, _ configuration: BenchmarkConfiguration) throws {
    let stores = try TaskStores(configuration)
    try step(stores).run(on: url, bundle: stores.bundle)
  }

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let step = try step(stores)
    let template = try sourceStore(rows: configuration.rows, configuration)
    let routes = try step.routes(on: template, bundle: stores.bundle)
    guard let policyRoute = routes.first(where: { $0.policyClassName != nil }), policyRoute.route == .objects else {
      throw BenchmarkError("no entity mapping of the step runs through its policy: \(routes)")
    }
    let checked = try stores.copy(of: template)
    try step.run(on: checked, bundle: stores.bundle)
    let made = try check(checked, rows: configuration.rows, bundle: stores.bundle, version: step.to)

    var result = try measure(
      configuration, setUp: { _ in try stores.copy(of: template) },
      ours: { url in try step.run(on: url, bundle: stores.bundle) }, baseline: nil)
    let child = try ChildMeasurement.measure(name, store: try stores.copy(of: template), configuration)
    result.peakMemoryBytes = child.peakMemoryBytes
    let perSecond = Double(configuration.rows) / result.seconds
    var note = String(
      format: "%.0f objects/s through the policy (%d tasks read, %d objects written: %.0f/s); ", perSecond,
      configuration.rows, made, Double(made) / result.seconds)
    note += "peak \(child.peakMemoryBytes / 1_048_576) MiB at \(configuration.rows) rows"
    if configuration.measuresTenfoldMemory {
      let rows = configuration.rows * 10
      let tenfold = try ChildMeasurement.measure(name, store: try sourceStore(rows: rows, configuration), configuration)
      note += ", \(tenfold.peakMemoryBytes / 1_048_576) MiB at \(rows) rows (\(tenfold.timeSummary))"
    }
    result.note = note + "; one run in a child: \(child.timeSummary)"
    return result
  }

  /// Checks that the migration did the policy's work on a store of `rows` tasks (every task
  /// carried, one Tag per paragraph linked to its own task, notes cleared, completed tasks
  /// without a due date given one), and returns how many objects it wrote.
  func check(_ url: URL, rows: Int, bundle: ModelBundle, version: String) throws -> Int {
    // Task.tags ⇄ Tag.tasks is the model's one many-to-many relationship.
    guard let model = bundle.version(named: version), let join = StoreSchema(model: model).joinTables.first,
      StoreSchema(model: model).joinTables.count == 1
    else { throw BenchmarkError("version '\(version)' has not one join table (of Task.tags)") }
    let raw = try RawSQLite(path: url.path)
    let tasks = try raw.integer("SELECT COUNT(*) FROM ZTASK")
    let tags = try raw.integer("SELECT COUNT(*) FROM ZTAG")
    let (one, other) = (SQLiteIdentifier.quote(join.sourceColumn), SQLiteIdentifier.quote(join.destinationColumn))
    let linked = try raw.integer(
      """
      SELECT COUNT(*) FROM \(SQLiteIdentifier.quote(join.name)) AS j, ZTAG AS g, ZTASK AS t
      WHERE ((g.Z_PK = j.\(one) AND t.Z_PK = j.\(other)) OR (g.Z_PK = j.\(other) AND t.Z_PK = j.\(one)))
      AND g.ZNAME LIKE '% task ' || t.Z_PK || '.'
      """)
    // Tasks of index % 4 == 0 are done and those of index % 5 == 0 have no due date: those of
    // index % 20 == 0 get the migration's date.
    let undated = try raw.integer("SELECT COUNT(*) FROM ZTASK WHERE ZDUEDATE IS NULL")
    let expectedUndated = (0..<rows).filter { $0 % 5 == 0 && $0 % 4 != 0 }.count
    let notes = try raw.integer("SELECT COUNT(*) FROM ZTASK WHERE ZNOTES IS NOT NULL")
    let expectedTags = rows / 2 * 2
    guard tasks == rows, tags == expectedTags, linked == expectedTags, undated == expectedUndated, notes == 0 else {
      throw BenchmarkError(
        "the policy's work is not in the migrated store: \(tasks) tasks (expected \(rows)), \(tags) tags and \(linked) linked to their task (expected \(expectedTags)), \(undated) tasks without a due date (expected \(expectedUndated)), \(notes) with notes (expected 0)"
      )
    }
    return tasks + tags
  }
}
