import DataModel
import Foundation
import Migration

/// `heavyweight-policy`: the task list's `Tasks 3` → `Tasks 4` step, whose Task mapping runs
/// object by object through TaskKit's `TaskMigrationPolicy`, as `task` runs it; reported as
/// objects per second.
/// There is no baseline: Core Data's migration manager, what such a policy is ported from,
/// does not run here. Peak memory is measured in a child process, at `--rows` and, with
/// `--tenfold-memory`, at ten times as many.
///
/// The step is a ``HeavyweightStepSetup`` (``HeavyweightStepSetup/tasksPolicy(_:)``, a
/// `Tasks 2` → `Tasks 3` step through ``NotesToTagsPolicy``, is the one measured before
/// `Tasks 4` existed).
struct HeavyweightPolicyScenario: HeavyweightScenario {
  let name = "heavyweight-policy"

  var measuresOwnMemory: Bool { true }

  func step(_ stores: TaskStores) throws -> HeavyweightStepSetup {
    try .tasks3To4(stores.bundle)
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
      configuration, setUp: { try stores.copy(of: template) },
      ours: { url in try step.run(on: url, bundle: stores.bundle) })
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
  /// carried; every other task's two paragraphs of notes made into two notes of its own, in
  /// order; done tasks given a completion date), and returns how many objects it wrote.
  func check(_ url: URL, rows: Int, bundle: ModelBundle, version: String) throws -> Int {
    let raw = try RawSQLite(path: url.path)
    let tasks = try raw.integer("SELECT COUNT(*) FROM ZTASK")
    let notes = try raw.integer("SELECT COUNT(*) FROM ZNOTE")
    // The notes read "Call about task N." then "Write up task N.", N the task's key (the Task
    // mapping runs in key order into an empty table, so keys stay).
    let placed = try raw.integer(
      """
      SELECT COUNT(*) FROM ZNOTE AS n JOIN ZTASK AS t ON t.Z_PK = n.ZTASK
      WHERE n.ZTEXT LIKE '% task ' || t.Z_PK || '.'
      AND ((n.ZTEXT LIKE 'Call %' AND n.Z_FOK_TASK < (SELECT m.Z_FOK_TASK FROM ZNOTE AS m WHERE m.ZTASK = n.ZTASK AND m.ZTEXT LIKE 'Write %'))
        OR n.ZTEXT LIKE 'Write %')
      """)
    let done = try raw.integer("SELECT COUNT(*) FROM ZTASK WHERE ZCOMPLETEDAT IS NOT NULL")
    let expectedDone = (0..<rows).filter { $0 % 4 == 0 }.count
    let expectedNotes = rows / 2 * 2
    guard tasks == rows, notes == expectedNotes, placed == expectedNotes, done == expectedDone else {
      throw BenchmarkError(
        "the policy's work is not in the migrated store: \(tasks) tasks (expected \(rows)), \(notes) notes and \(placed) in place (expected \(expectedNotes)), \(done) done (expected \(expectedDone))"
      )
    }
    return tasks + notes
  }
}
