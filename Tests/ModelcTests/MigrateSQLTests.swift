import Foundation
import TestSupport
import Testing

/// `modelc migrate --sql` prints what the migration runs, values written in: the `sqlite3` shell
/// runs it as printed, and the store it gives equals the one `modelc migrate` gives.
@Suite("modelc migrate --sql")
struct MigrateSQLTests {
  static let model = TestPaths.tasksModel.path

  /// Every row of every table but the metadata and the migration history (which record when the
  /// migration ran).
  static func rows(_ path: String) throws -> String {
    let result = try ProcessRun.run(
      URL(fileURLWithPath: "/usr/bin/env"),
      [
        "sqlite3", path,
        "SELECT group_concat(name, ' ') FROM sqlite_master WHERE type = 'table' AND name NOT IN ('Z_METADATA', 'MODELC_HISTORY') ORDER BY name",
      ])
    var dump = ""
    for table in result.output.split(separator: " ").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) })
    where !table.isEmpty {
      let rows = try ProcessRun.run(
        URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", "-quote", path, "SELECT * FROM \"\(table)\" ORDER BY 1"])
      dump += "\(table)\n\(rows.output)"
    }
    return dump
  }

  @Test("The printed script, run by sqlite3, gives the store modelc migrate gives, and --sql changes nothing")
  func scriptRunsInSQLite3() throws {
    guard ModelcProcess.executable != nil else {
      print("skipped: \(ModelcProcess.absentReason)")
      return
    }
    guard FileManager.default.isExecutableFile(atPath: "/usr/bin/sqlite3") else {
      print("skipped: the sqlite3 shell is not installed (apt-get install sqlite3)")
      return
    }
    let scratch = ScratchDirectory()
    let original = scratch.path("tasks.sqlite")
    let seeded = try ModelcProcess.run([
      "store", "seed", original, "--model", Self.model, "--version", "Tasks", "--rows", "40", "--seed", "3",
    ])
    #expect(seeded.status == 0, "\(seeded.error)")
    let before = try Self.rows(original)
    // To 'Tasks 3': the inferred steps, all SQL ('Tasks 3' → 'Tasks 4' needs a mapping model).
    let printed = try ModelcProcess.run(["migrate", original, "--model", Self.model, "--to", "Tasks 3", "--sql"])
    #expect(printed.status == 0, "\(printed.error)")
    #expect(try Self.rows(original) == before, "--sql changed the store")
    #expect(!printed.output.contains("-- arguments"))
    #expect(printed.output.contains("BETWEEN"))
    #expect(printed.output.hasPrefix("-- modelc migrate") && printed.output.hasSuffix("COMMIT;\n"))

    let byScript = scratch.path("script.sqlite")
    try FileManager.default.copyItem(atPath: original, toPath: byScript)
    let script = try scratch.write("migration.sql", printed.output)
    let ran = try ProcessRun.run(URL(fileURLWithPath: "/usr/bin/env"), ["sqlite3", byScript, ".read \(script)"])
    #expect(ran.status == 0, "\(ran.error)")
    let migrated = try ModelcProcess.run(["migrate", original, "--model", Self.model, "--to", "Tasks 3", "--no-backup"])
    #expect(migrated.status == 0, "\(migrated.error)")
    #expect(!migrated.error.contains("\u{1B}[2K"), "progress written to a pipe")
    #expect(try Self.rows(byScript) == Self.rows(original))
    let info = try ModelcProcess.run(["store", "info", byScript, "--model", Self.model])
    #expect(info.output.contains("Tasks 3"), "\(info.output)")
  }
}
