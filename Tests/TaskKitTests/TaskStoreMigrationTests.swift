import Foundation
import Persistence
import SQLite
import TaskKit
import TestSupport
import Testing

/// The task list's store migrates itself on open through every older version, the step
/// Tasks 3 → Tasks 4 through the mapping model embedded at build time and `TaskMigrationPolicy`.
@Suite("Task store migration")
struct TaskStoreMigrationTests {
  static let bundle = try! ModelBundle(contentsOf: TestPaths.tasksModel.path)

  /// A store at `version` with three tasks: done with two paragraphs of notes, open with one
  /// line, and open without notes; one project and one tag where the version has them.
  static func oldStore(version: String) throws -> URL {
    let url = TestPaths.temporaryDirectory("task-store-migration").appendingPathComponent("Tasks.sqlite")
    let container = try PersistentContainer(bundle: bundle, versionName: version, options: .file(url))
    let context = container.newContext()
    let hasNotes =
      container.model.entityID(named: "Task").flatMap { container.model.attribute(named: "notes", in: $0) }
      != nil
    let project = version == "Tasks 3" ? try context.insert(entityNamed: "Project") : nil
    try project?.setValue(.string("Home"), forKey: "name")
    let tag = version == "Tasks 3" ? try context.insert(entityNamed: "Tag") : nil
    try tag?.setValue(.string("errand"), forKey: "name")
    let rows: [(String, Bool, String?)] = [
      ("Paint the fence", true, "Buy paint.\n\n  Two coats, white.  \n\n\n"),
      ("Call the plumber", false, "Ask about the boiler"),
      ("Water plants", false, nil),
    ]
    for (index, (title, done, notes)) in rows.enumerated() {
      let task = try context.insert(entityNamed: "Task")
      try task.setValue(.uuid(UUID()), forKey: "id")
      try task.setValue(.string(title), forKey: "title")
      try task.setValue(.integer(Int64(index % 3 + 1)), forKey: "priority")
      try task.setValue(.boolean(done), forKey: "isCompleted")
      if hasNotes { try task.setValue(notes.map(AttributeValue.string), forKey: "notes") }
      if let project { try task.setObject(project, forKey: "project") }
      if let tag { try task.setObjects([tag], forKey: "tags") }
    }
    try context.save()
    return url
  }

  @Test("Tasks 3 → Tasks 4: done tasks get the migration's time, notes become ordered Note objects")
  func tasks3ToTasks4() throws {
    let url = try Self.oldStore(version: "Tasks 3")
    let started = Date()
    let lines = LineLog()
    let container = try TaskStore.open(at: url) { lines.append($0) }
    #expect(lines.lines == ["task: migrated the store from model version 'Tasks 3' to 'Tasks 4'"])
    let context = container.newContext()
    let tasks = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    #expect(tasks.count == 3)
    for task in tasks {
      guard case .string(let title)? = try task.value(forKey: "title") else { continue }
      let notes = try task.objects(forKey: "notes")
      let texts = try notes.map { try $0.value(forKey: "text") }
      switch title {
      case "Paint the fence":
        guard case .date(let done)? = try task.value(forKey: "completedAt") else {
          Issue.record("the done task has no completedAt")
          continue
        }
        #expect(done >= started.addingTimeInterval(-1) && done <= Date())
        #expect(texts == [.string("Buy paint."), .string("Two coats, white.")])
        #expect(try notes.allSatisfy { try $0.value(forKey: "createdAt") == .date(done) })
      case "Call the plumber":
        #expect(try task.value(forKey: "completedAt") == nil)
        #expect(texts == [.string("Ask about the boiler")])
      default:
        #expect(try task.value(forKey: "completedAt") == nil)
        #expect(texts.isEmpty)
      }
      #expect(try task.object(forKey: "project")?.value(forKey: "name") == .string("Home"))
      #expect(try task.objects(forKey: "tags").map { try $0.value(forKey: "name") } == [.string("errand")])
    }
    let files = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
    #expect(files.contains { $0.hasPrefix("Tasks.sqlite.modelc-backup-Tasks_3-") }, "\(files)")
  }

  @Test("A store at the first version reaches Tasks 4 through inferred steps and the mapped one")
  func firstVersionToTasks4() throws {
    let url = try Self.oldStore(version: "Tasks")
    let lines = LineLog()
    let container = try TaskStore.open(at: url) { lines.append($0) }
    #expect(lines.lines == ["task: migrated the store from model version 'Tasks' to 'Tasks 4'"])
    let tasks = try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    #expect(
      try Set(tasks.map { try $0.value(forKey: "title") }) == [
        .string("Paint the fence"), .string("Call the plumber"), .string("Water plants"),
      ])
    #expect(try tasks.filter { try $0.value(forKey: "completedAt") != nil }.count == 1)
    let history = try SQLiteConnection(.file(url.path), mode: .readOnly)
    #expect(try MigrationHistory.records(on: history).map(\.kind).last == "mapped")
    try history.close()
  }
}

/// Lines a callback received, under a lock.
final class LineLog: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [String] = []

  func append(_ line: String) { lock.withLock { stored.append(line) } }
  var lines: [String] { lock.withLock { stored } }
}
