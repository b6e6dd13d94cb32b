import Foundation
import TestSupport
import Testing

/// `modelc migrate` of an inferred migration run as a user runs it: `--dry-run` prints the plan
/// and leaves the store byte for byte as it was; a real run migrates it, keeps a backup that
/// opens at the old version with every row of the original, and a second run has nothing to do.
/// (`--sql` through `sqlite3`: ``MigrateSQLTests``; mapping models: ``MigrateHeavyweightTests``.)
@Suite(
  "modelc migrate",
  .enabled(if: ModelcProcess.executable != nil, Comment(rawValue: ModelcProcess.absentReason)))
struct MigrateCommandTests {
  static let model = TestPaths.tasksModel.path

  /// A store at `Tasks` seeded with 30 tasks.
  static func seededStore(in scratch: ScratchDirectory) throws -> String {
    let store = scratch.path("tasks.sqlite")
    let seeded = try ModelcProcess.run([
      "store", "seed", store, "--model", model, "--version", "Tasks", "--rows", "30", "--seed", "9",
    ])
    try #require(seeded.status == 0, "\(seeded.error)")
    return store
  }

  /// The bytes of a store and of its `-wal` (an empty or absent `-wal` holds no change: opening
  /// a WAL store may create an empty one).
  static func bytes(_ store: String) -> [Data] {
    [
      FileManager.default.contents(atPath: store) ?? Data(),
      FileManager.default.contents(atPath: store + "-wal") ?? Data(),
    ]
  }

  /// The objects of a store as `modelc store export` prints them.
  static func export(_ store: String) throws -> String {
    let exported = try ModelcProcess.run(["store", "export", store, "--model", model, "--format", "json"])
    try #require(exported.status == 0, "export of \(store): \(exported.error)")
    return exported.output
  }

  @Test("--dry-run prints each step and its changes, and changes nothing")
  func dryRun() throws {
    let scratch = ScratchDirectory()
    let store = try Self.seededStore(in: scratch)
    let before = Self.bytes(store)
    let result = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--to", "Tasks 3", "--dry-run"])
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output.hasPrefix(
        """
        Plan: 'Tasks' → 'Tasks 3' in 1 step (lightweight, inferred). Nothing was changed.

        Step 1: 'Tasks' → 'Tasks 3', inferred
          Project: entity added (1 attribute)
          Tag: entity added (1 attribute)
          Task.notes: attribute added (String, optional)

        """), "\(result.output)")
    #expect(result.output.contains("  - copy the rows of ZTASK into the new ZTASK\n"))
    #expect(Self.bytes(store) == before, "--dry-run changed the store")
    let files = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
    #expect(!files.contains { $0.contains(".modelc-backup-") }, "--dry-run wrote a backup: \(files)")
    let again = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--to", "Tasks 3", "--dry-run"])
    #expect(again.output == result.output)
  }

  @Test(
    "A migration keeps a backup that opens at the old version with every row of the original",
    .enabled(
      if: FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3"),
      "the sqlite3 shell is not installed (apt-get install sqlite3)"))
  func backup() throws {
    let scratch = ScratchDirectory()
    let store = try Self.seededStore(in: scratch)
    let objects = try Self.export(store)
    let rows = try MigrateSQLTests.rows(store)

    let result = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--to", "Tasks 3"])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output.hasPrefix("Migrated \(store) from 'Tasks' to 'Tasks 3' ('Tasks' → 'Tasks 3') in "))
    let line = try #require(
      result.output.split(separator: "\n").first { $0.hasPrefix("Backup of the original store: ") })
    let backup = String(line.dropFirst("Backup of the original store: ".count))
    #expect(backup.hasPrefix(store + ".modelc-backup-Tasks-") && backup.hasSuffix(".sqlite"), "\(backup)")

    // The backup is the original: at 'Tasks', whole, the same rows and the same objects.
    let info = try ModelcProcess.run(["store", "info", backup, "--model", Self.model])
    #expect(info.status == 0, "\(info.error)")
    #expect(info.output.contains("version: Tasks ("), "\(info.output)")
    let taskLine = info.output.split(separator: "\n").first { $0.hasPrefix("  Task ") }
    #expect(taskLine?.split(separator: " ").last == "30", "\(info.output)")
    #expect(try MigrateSQLTests.rows(backup) == rows)
    #expect(try Self.export(backup) == objects)
    let integrity = try ProcessRun.run(
      URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", backup, "PRAGMA integrity_check"])
    #expect(integrity.output == "ok\n", "\(integrity.output)\(integrity.error)")

    // The store itself is at 'Tasks 3' with the same tasks.
    let migrated = try ModelcProcess.run(["store", "info", store, "--model", Self.model])
    #expect(migrated.output.contains("version: Tasks 3 ("), "\(migrated.output)")
    let tasks = try ModelcProcess.run([
      "fetch", store, "--model", Self.model, "--entity", "Task", "--count",
    ])
    #expect(tasks.output.trimmingCharacters(in: .whitespacesAndNewlines) == "30", "\(tasks.output)\(tasks.error)")

    // Nothing is left to do, and no second backup is written.
    let second = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--to", "Tasks 3"])
    #expect(second.status == 0)
    #expect(second.output == "\(store) is already at 'Tasks 3'.\n")
    let backups = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter {
      $0.contains(".modelc-backup-") && $0.hasSuffix(".sqlite")
    }
    #expect(backups.count == 1, "\(backups)")
  }

  @Test("--no-backup writes none; an unknown target version exits 1 and leaves the store as it was")
  func noBackupAndErrors() throws {
    let scratch = ScratchDirectory()
    let store = try Self.seededStore(in: scratch)
    let before = Self.bytes(store)
    let unknown = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--to", "Tasks 9"])
    #expect(unknown.status == 1)
    #expect(unknown.error.contains("the model has no version 'Tasks 9'"), "\(unknown.error)")
    #expect(Self.bytes(store) == before)

    let result = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--to", "Tasks 3", "--no-backup"])
    #expect(result.status == 0, "\(result.error)")
    #expect(!result.output.contains("Backup"))
    let files = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
    #expect(!files.contains { $0.contains(".modelc-backup-") }, "\(files)")
  }
}
