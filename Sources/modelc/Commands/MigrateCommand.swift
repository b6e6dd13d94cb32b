import ArgumentParsing
import Foundation
import Migration

/// `modelc migrate STORE --model MODEL [--to VERSION] [--dry-run] [--sql] [--no-backup]`.
enum MigrateCommand: ModelcCommand {
  static let spec = CommandSpec(
    "migrate", abstract: "Migrate a store to the current (or another) version of its model, atomically.",
    discussion: """
      The store's version is found from the hashes in its metadata. The migration goes straight to the \
      target when lightweight migration can infer it, else through every intermediate version; it runs in \
      one transaction, so the store ends at the new version or stays exactly as it was. A backup is written \
      next to the store first (STORE.modelc-backup-VERSION-TIME.sqlite) unless --no-backup is given.
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
    let migration = StoreMigration(storeURL: URL(fileURLWithPath: storePath), bundle: bundle)
    let plan: MigrationPlan
    do {
      plan = try migration.plan(to: target)
    } catch let error as MigrationPlanningError {
      guard !error.refusals.isEmpty else { throw CommandFailure(error.description) }
      let modelPath = arguments.value("--model")!
      let catalog = MappingCatalog.discover(
        in: MappingDirectories.resolve(arguments.values("--mappings"), modelPath: modelPath), bundle: bundle)
      var details: [String] = []
      for refusal in error.refusals {
        details.append("'\(refusal.sourceVersion)' → '\(refusal.destinationVersion)':")
        details += refusal.refusals.map { "  \($0)" }
        let coverage = MappingCoverage.line(
          from: refusal.sourceVersion, to: refusal.destinationVersion, catalog: catalog, modelPath: modelPath)
        details.append(
          "  " + coverage
            + (catalog.mapping(from: refusal.sourceVersion, to: refusal.destinationVersion) != nil
              ? " Heavyweight migrations through mapping models do not run yet." : ""))
      }
      throw CommandFailure(error.message, details: details, notes: ["the store was not changed"])
    } catch {
      throw CommandFailure("\(error)")
    }
    if plan.isEmpty {
      terminal.writeLine("\(storePath) is already at '\(plan.destination.name)'.")
      return .success
    }
    if arguments.flag("--dry-run") || arguments.flag("--sql") {
      try describe(
        plan, migration: migration, showSQL: arguments.flag("--sql"), dryRun: arguments.flag("--dry-run"),
        terminal: terminal)
      return .success
    }
    let progressTerminal = terminal
    let options = StoreMigration.Options(
      keepsBackup: !arguments.flag("--no-backup"),
      progress: { progress in
        PhaseTrace.record(
          "migrate: copy step \(progress.step)/\(progress.stepCount) \(progress.rowsDone)/\(progress.rowsTotal)")
        guard progress.rowsTotal > 0 else { return }
        let percent = progress.rowsDone * 100 / max(1, progress.rowsTotal)
        progressTerminal.progress(
          "step \(progress.step)/\(progress.stepCount): \(progress.summary): \(progress.rowsDone)/\(progress.rowsTotal) rows (\(percent)%)"
        )
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

  static func describe(
    _ plan: MigrationPlan, migration: StoreMigration, showSQL: Bool, dryRun: Bool, terminal: Terminal
  ) throws {
    if dryRun { try describePlan(plan, migration: migration, terminal: terminal) }
    if showSQL {
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

  /// The plan in words: each step, its changes and its operations.
  static func describePlan(_ plan: MigrationPlan, migration: StoreMigration, terminal: Terminal) throws {
    let operations = try migration.operations(for: plan)
    terminal.writeLine(
      "Plan: '\(plan.source.name)' → '\(plan.destination.name)' in \(plan.steps.count) step\(plan.steps.count == 1 ? "" : "s") (lightweight, inferred). Nothing was changed."
    )
    for (index, step) in plan.steps.enumerated() {
      terminal.writeLine("")
      terminal.writeLine("Step \(index + 1): '\(step.source.name)' → '\(step.destination.name)'")
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
