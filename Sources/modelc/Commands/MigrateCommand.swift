import ArgumentParsing
import Foundation
import Migration
import Persistence

/// `modelc migrate STORE --model MODEL [--to VERSION] [--dry-run] [--sql] [--no-backup]`.
enum MigrateCommand: ModelcCommand {
  static let spec = CommandSpec(
    "migrate", abstract: "Migrate a store to the current (or another) version of its model, atomically.",
    discussion: """
      The store's version is found from the hashes in its metadata. A step covered by a mapping model \
      (from --mappings) runs through it; the others are inferred (lightweight), straight to the target when \
      inference can, else through every intermediate version. The store ends at the new version or stays \
      exactly as it was: lightweight steps run in one transaction on the store; a plan with mapped steps \
      writes a new store file next to it and puts it in place with one rename. A backup of the original is \
      kept next to the store (STORE.modelc-backup-VERSION-TIME.sqlite) unless --no-backup is given. \
      Mapping models that name migration policy classes need the program that has the classes: they run \
      through the library (StoreMigration with MigrationPolicies), not from the command line.
      Exit status: 0 migrated or already current, 1 refused or failed (store untouched), 2 usage error.
      """,
    positionals: [.required("STORE", help: "The SQLite store file.")],
    options: [
      OptionSpec("--model", value: "MODEL", required: true, help: "The .xcdatamodeld bundle of the store's model."),
      OptionSpec("--to", value: "VERSION", help: "The target version (default: the model's current version)."),
      OptionSpec(
        "--mappings", value: "DIR", repeatable: true,
        help: "A folder of mapping models (default: Migrations/ when it exists, and the model's folder)."),
    ],
    flags: [
      FlagSpec("--dry-run", help: "Print the plan (each step and change) and change nothing."),
      FlagSpec("--sql", help: "Print the SQL statements the migration would run, and change nothing."),
      FlagSpec("--no-backup", help: "Do not keep a backup of the original store."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let storePath = arguments.positionals[0]
    guard FileManager.default.fileExists(atPath: storePath) else {
      throw CommandFailure("no store at '\(storePath)'")
    }
    let bundle = try ModelLoading.load(arguments.value("--model")!, terminal: terminal)
    let target = try ModelLoading.version(arguments.value("--to"), in: bundle)
    let modelPath = arguments.value("--model")!
    let catalog = MappingCatalog.discover(
      in: MappingDirectories.resolve(arguments.values("--mappings"), modelPath: modelPath), bundle: bundle)
    let usable = catalog.mappings.filter { !$0.isOrphaned }
    let migration = StoreMigration(
      storeURL: URL(fileURLWithPath: storePath), bundle: bundle, mappingModels: usable.map(\.mapping))
    let plan: MigrationPlan
    do {
      plan = try migration.plan(to: target)
    } catch let error as MigrationPlanningError {
      guard !error.refusals.isEmpty else { throw CommandFailure(error.description) }
      var details: [String] = []
      for refusal in error.refusals {
        details.append("'\(refusal.sourceVersion)' → '\(refusal.destinationVersion)':")
        details += refusal.refusals.map { "  \($0)" }
        let coverage = MappingCoverage.line(
          from: refusal.sourceVersion, to: refusal.destinationVersion, catalog: catalog, modelPath: modelPath)
        details.append("  " + coverage)
      }
      throw CommandFailure(error.message, details: details, notes: ["the store was not changed"])
    } catch {
      throw CommandFailure("\(error)")
    }
    if plan.isEmpty {
      // What a run killed after its swap may have left beside the store goes.
      StoreMigrationLock.withLock(forStoreAt: URL(fileURLWithPath: storePath)) { migration.removeWorkFiles() }
      terminal.writeLine("\(storePath) is already at '\(plan.destination.name)'.")
      return .success
    }
    let files = Dictionary(
      usable.map { loaded in
        // An Xcode mapping is named by its bundle, not the xcmapping.xml inside.
        let url = URL(fileURLWithPath: loaded.file.path)
        let shown = url.lastPathComponent == "xcmapping.xml" ? url.deletingLastPathComponent().path : url.path
        return (fileKey(loaded.mapping), shown)
      },
      uniquingKeysWith: { first, _ in first })
    if arguments.flag("--dry-run") || arguments.flag("--sql") {
      try describe(
        plan, migration: migration, mappingFiles: files, showSQL: arguments.flag("--sql"),
        dryRun: arguments.flag("--dry-run"), terminal: terminal)
      return .success
    }
    try refusePolicies(in: plan, mappingFiles: files)
    let meter = ProgressMeter(terminal: terminal)
    let options = StoreMigration.Options(
      keepsBackup: !arguments.flag("--no-backup"),
      progress: { progress in
        PhaseTrace.record(
          "migrate: copy step \(progress.step)/\(progress.stepCount) \(progress.rowsDone)/\(progress.rowsTotal)")
        meter.show(progress)
      })
    let report: MigrationReport
    PhaseTrace.record("migrate: run")
    do {
      // Another process migrating the store at the same time finishes first; this run then
      // finds nothing left to do.
      report = try StoreMigrationLock.withLock(forStoreAt: URL(fileURLWithPath: storePath)) {
        try migration.run(to: target, options: options)
      }
    } catch {
      terminal.endProgress()
      // A full disk, a read-only folder or a damaged file, in the user's terms.
      let explained = StoreFile(URL(fileURLWithPath: storePath)).explain(error)
      throw CommandFailure("\(explained)", notes: ["the store was not changed"])
    }
    terminal.endProgress()
    PhaseTrace.record("migrate: committed")
    let steps = report.plan.steps.map { "'\($0.source.name)' → '\($0.destination.name)'" }.joined(separator: ", ")
    terminal.writeLine(
      "Migrated \(storePath) from '\(report.plan.source.name)' to '\(report.plan.destination.name)' (\(steps)) in \(String(format: "%.2f", report.duration)) s."
    )
    if let backup = report.backupURL {
      terminal.writeLine("Backup of the original store: \(backup.path)")
    }
    return .success
  }

  /// The key of a mapping model's file in the `mappingFiles` of a run: its two versions.
  static func fileKey(_ mapping: MappingModel) -> String {
    "\(mapping.sourceVersion)\u{0}\(mapping.destinationVersion)"
  }

  /// Refuses, before anything changes, a plan whose mapping models name policy classes: only a
  /// program that has the classes can run them.
  static func refusePolicies(in plan: MigrationPlan, mappingFiles: [String: String]) throws {
    var details: [String] = []
    for step in plan.steps where !step.mapping.isInferred {
      let named = step.mapping.entityMappings.filter { !($0.policyClassName ?? "").isEmpty }
      guard !named.isEmpty else { continue }
      let file =
        mappingFiles[fileKey(step.mapping)] ?? "the mapping model"
      details.append("'\(step.source.name)' → '\(step.destination.name)' (\(file)):")
      details += named.map { "  entity mapping '\($0.name)' names the policy class \($0.policyClassName ?? "")" }
    }
    guard !details.isEmpty else { return }
    throw CommandFailure(
      "the migration needs migration policy classes, which the command line does not have", details: details,
      notes: [
        "the store was not changed",
        "run the migration from the program that has the classes: register them with MigrationPolicies and call StoreMigration(storeURL:bundle:mappingModels:policies:).run (see docs/migrations.md)",
      ])
  }

  static func describe(
    _ plan: MigrationPlan, migration: StoreMigration, mappingFiles: [String: String], showSQL: Bool, dryRun: Bool,
    terminal: Terminal
  ) throws {
    if dryRun { try describePlan(plan, migration: migration, mappingFiles: mappingFiles, terminal: terminal) }
    if showSQL && plan.steps.contains(where: { !$0.mapping.isInferred }) {
      try describeMappedSQL(plan, migration: migration, terminal: terminal)
    } else if showSQL {
      // The statements the migration runs, recorded from a run that is rolled back: the
      // `sqlite3` shell runs them as printed.
      let script = try migration.script(to: plan.destination)
      terminal.writeLine("-- modelc migrate: '\(plan.source.name)' → '\(plan.destination.name)'")
      terminal.writeLine("BEGIN IMMEDIATE;")
      for (index, step) in plan.steps.enumerated() {
        terminal.writeLine("-- step \(index + 1): '\(step.source.name)' → '\(step.destination.name)'")
        for statement in script[index] { terminal.writeLine("\(statement);") }
      }
      terminal.writeLine("COMMIT;")
    }
  }

  /// The SQL of a plan with mapped steps: each inferred step's operations, and each mapped
  /// step's SQL-compiled entity mappings (those that run object by object have no SQL).
  static func describeMappedSQL(_ plan: MigrationPlan, migration: StoreMigration, terminal: Terminal) throws {
    let operations = try migration.operations(for: plan)
    terminal.writeLine("-- modelc migrate: '\(plan.source.name)' → '\(plan.destination.name)'")
    for (index, step) in plan.steps.enumerated() {
      if step.mapping.isInferred {
        terminal.writeLine(
          "-- step \(index + 1): '\(step.source.name)' → '\(step.destination.name)' (inferred, in place)")
        for operation in operations[index] { terminal.writeLine("\(operation.sql.description);") }
        continue
      }
      terminal.writeLine(
        "-- step \(index + 1): '\(step.source.name)' → '\(step.destination.name)' (mapped, into a new file attached as `destination`; the store read is `main`)"
      )
      for route in try migration.entityMappingRoutes(of: step) {
        terminal.writeLine("-- \(route)")
        for statement in route.statements { terminal.writeLine("\(statement);") }
      }
    }
  }

  /// The plan in words: each step, its changes and its operations.
  static func describePlan(
    _ plan: MigrationPlan, migration: StoreMigration, mappingFiles: [String: String], terminal: Terminal
  ) throws {
    let operations = try migration.operations(for: plan)
    let mapped = plan.steps.filter { !$0.mapping.isInferred }.count
    let kinds = mapped == 0 ? "lightweight, inferred" : "\(mapped) mapped, \(plan.steps.count - mapped) inferred"
    terminal.writeLine(
      "Plan: '\(plan.source.name)' → '\(plan.destination.name)' in \(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s") (\(kinds)). Nothing was changed."
    )
    for (index, step) in plan.steps.enumerated() {
      terminal.writeLine("")
      if !step.mapping.isInferred {
        let file =
          mappingFiles[fileKey(step.mapping)] ?? "a mapping model"
        terminal.writeLine("Step \(index + 1): '\(step.source.name)' → '\(step.destination.name)', mapped by \(file)")
        for route in try migration.entityMappingRoutes(of: step) {
          terminal.writeLine("  \(route)")
        }
        continue
      }
      terminal.writeLine("Step \(index + 1): '\(step.source.name)' → '\(step.destination.name)', inferred")
      let diff = ModelDiff(from: step.source, to: step.destination)
      for change in diff.allChanges {
        let marks = (change.losesData ? " [loses data]" : "") + (change.changesHash ? "" : " [no migration needed]")
        terminal.writeLine("  \(change)\(marks)")
      }
      for operation in operations[index] {
        terminal.writeLine("  - \(operation.summary)")
      }
    }
  }
}

/// The progress line of a migration: per operation (an entity mapping's stage, a table's
/// copy), done/total, rate and time left. Shown only on a terminal.
final class ProgressMeter: @unchecked Sendable {
  private let terminal: Terminal
  private let lock = NSLock()
  private var current: (summary: String, started: Date)?

  init(terminal: Terminal) {
    self.terminal = terminal
  }

  func show(_ progress: MigrationProgress) {
    lock.lock()
    defer { lock.unlock() }
    if current?.summary != progress.summary { current = (progress.summary, Date()) }
    guard progress.rowsTotal > 0, let started = current?.started else { return }
    let estimate = ProgressEstimate(
      done: progress.rowsDone, total: progress.rowsTotal, elapsed: Date().timeIntervalSince(started), unit: "rows")
    terminal.progress("step \(progress.step)/\(progress.stepCount): \(progress.summary): \(estimate)")
  }
}
