import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

/// Disk full during a save and during a migration, and a store written for a version that is
/// not in the model: each is a clear error, and the store is left exactly as it was.
@Suite("Faults")
struct FaultTests {
  /// `count` tasks as `store import` JSON, each with a long title, so that they need far more
  /// room than a small file system has.
  static func manyTasksJSON(count: Int) -> String {
    let tasks = (1...count).map { index in
      let id = String(format: "%08X-0000-4000-8000-%012X", index, index)
      let title = "Task \(index) " + String(repeating: "é", count: 300)
      return #"{"_id": "t\#(index)", "id": "\#(id)", "title": "\#(title)", "priority": 2, "completedAt": null}"#
    }
    return #"{"Task": ["# + tasks.joined(separator: ",\n") + "]}"
  }

  static func size(_ url: URL) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
  }

  @Test(
    "A save that fills the disk fails with 'disk is full' and leaves the store unchanged",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)))
  func diskFullDuringSave() throws {
    if let reason = Reliability.smallFileSystemUnavailable {
      print("skipping the disk-full save: \(reason)")
      return
    }
    let scratch = Scratch("disk-full-save")
    let store = try Reliability.seededStore(in: scratch.url, rows: 20)
    let before = try Reliability.export(store)
    try #require(before.status == 0)
    let json = try scratch.write("many.json", Self.manyTasksJSON(count: 3_000))
    let out = scratch.file("after")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let run = try Reliability.inSmallFileSystem(
      kilobytes: Self.size(store) / 1024 + 160,
      script: """
        cp "$STORE" "$SMALL/Tasks.sqlite"
        "$MODELC" store import "$SMALL/Tasks.sqlite" --model "$MODEL" "$JSON" > "$OUT/stdout" 2> "$OUT/stderr"
        echo $? > "$OUT/status"
        cp "$SMALL"/Tasks.sqlite* "$OUT/"
        """,
      environment: [
        "STORE": store.path, "MODELC": Reliability.modelc!.path, "MODEL": Reliability.tasksModel, "JSON": json,
        "OUT": out.path,
      ])
    #expect(run.status == 0, "\(run.error)")
    let status = try String(contentsOf: out.appendingPathComponent("status"), encoding: .utf8)
    let stderr = try String(contentsOf: out.appendingPathComponent("stderr"), encoding: .utf8)
    #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(stderr)")
    #expect(stderr.contains("the disk is full"), "\(stderr)")
    #expect(!stderr.contains("SQLite error"), "\(stderr)")
    let after = out.appendingPathComponent("Tasks.sqlite")
    #expect(try Reliability.integrity(after) == "ok")
    #expect(try Reliability.export(after).output == before.output)
    // With room, the same import succeeds on the store the failure left.
    let retry = try ProcessRun.run(
      Reliability.modelc!, ["store", "import", after.path, "--model", Reliability.tasksModel, json])
    #expect(retry.status == 0, "\(retry.error)")
  }

  @Test(
    "A migration that fills the disk fails with 'disk is full' and leaves the store at its version",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)),
    arguments: [false, true])
  func diskFullDuringMigration(keepsBackup: Bool) throws {
    if let reason = Reliability.smallFileSystemUnavailable {
      print("skipping the disk-full migration: \(reason)")
      return
    }
    let scratch = Scratch("disk-full-migration")
    let store = scratch.file("Tasks.sqlite")
    try Reliability.versionOneStore(at: store, count: 4_000)
    let before = try Reliability.export(store)
    try #require(before.status == 0)
    let out = scratch.file("after")
    try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    let run = try Reliability.inSmallFileSystem(
      kilobytes: Self.size(store) / 1024 + 48,
      script: """
        cp "$STORE" "$SMALL/Tasks.sqlite"
        "$MODELC" migrate "$SMALL/Tasks.sqlite" --model "$MODEL" --to "Tasks 3" \(keepsBackup ? "" : "--no-backup") > "$OUT/stdout" 2> "$OUT/stderr"
        echo $? > "$OUT/status"
        ls -a "$SMALL" > "$OUT/files"
        cp "$SMALL"/Tasks.sqlite* "$OUT/"
        """,
      environment: [
        "STORE": store.path, "MODELC": Reliability.modelc!.path, "MODEL": Reliability.tasksModel, "OUT": out.path,
      ])
    #expect(run.status == 0, "\(run.error)")
    let status = try String(contentsOf: out.appendingPathComponent("status"), encoding: .utf8)
    let stderr = try String(contentsOf: out.appendingPathComponent("stderr"), encoding: .utf8)
    let files = try String(contentsOf: out.appendingPathComponent("files"), encoding: .utf8)
    #expect(status.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(stderr)")
    #expect(stderr.contains("the disk is full"), "\(stderr)")
    #expect(stderr.contains("the store was not changed"), "\(stderr)")
    #expect(!files.contains("modelc-backup"), "a partial backup was left behind: \(files)")
    let after = out.appendingPathComponent("Tasks.sqlite")
    #expect(try Reliability.integrity(after) == "ok")
    #expect(try StoreMetadata.read(fromStoreAt: after).matchingVersion(in: Reliability.bundle)?.name == "Tasks")
    #expect(try Reliability.export(after).output == before.output)
  }

  @Test(
    "A store whose hashes match no version names the closest version and the entities that differ",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)))
  func storeOfAnUnknownVersion() throws {
    let scratch = Scratch("unknown-version")
    let store = try Reliability.seededStore(in: scratch.url)
    var metadata = try StoreMetadata.read(fromStoreAt: store)
    guard case .dictionary(var hashes)? = metadata.entries[StoreMetadata.versionHashesKey] else {
      Issue.record("the store has no version hashes")
      return
    }
    hashes["Task"] = .data(Data(repeating: 1, count: 32))
    hashes["Reminder"] = .data(Data(repeating: 2, count: 32))
    metadata.entries[StoreMetadata.versionHashesKey] = .dictionary(hashes)
    let connection = try SQLiteConnection(.file(store.path))
    try connection.execute("UPDATE Z_METADATA SET Z_PLIST = \([UInt8](try metadata.propertyListData()))")
    try connection.close()

    let closest = try #require(metadata.closestVersion(in: Reliability.bundle))
    #expect(closest.versionName == "Tasks 4")
    #expect(closest.changedEntities == ["Task"])
    #expect(closest.entitiesOnlyInStore == ["Reminder"])

    let info = try ProcessRun.run(
      Reliability.modelc!, ["store", "info", store.path, "--model", Reliability.tasksModel])
    #expect(info.status == 1)
    #expect(info.error.contains("match no version of the model"), "\(info.error)")
    #expect(info.error.contains("the closest version is 'Tasks 4' (2 entities differ)"), "\(info.error)")
    #expect(info.error.contains("entities whose version hashes differ: Task"), "\(info.error)")
    #expect(info.error.contains("entities in the store but not in 'Tasks 4': Reminder"), "\(info.error)")

    let task = try ProcessRun.run(Reliability.task!, ["list", "--store", store.path])
    #expect(task.status == 1)
    #expect(task.error.contains("the closest version is 'Tasks 4'"), "\(task.error)")
  }
}
