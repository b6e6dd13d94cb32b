import Foundation
import Migration
import Persistence
import TestSupport
import Testing

@Suite("Migrating the Tasks model")
struct TasksMigrationTests {
  static let bundle = try! ModelBundle(contentsOf: TestPaths.tasksModel.path)

  struct Row: Equatable {
    var id: UUID
    var title: String
    var priority: Int64
    var isCompleted: Bool
    var dueDate: Date?
  }

  /// A store at `Tasks` with a few tasks, and the rows written.
  static func makeStore(rows count: Int = 25) throws -> (URL, [Row]) {
    let directory = TestPaths.temporaryDirectory("tasks-migration")
    let url = directory.appendingPathComponent("Tasks.sqlite")
    let container = try PersistentContainer(bundle: bundle, versionName: "Tasks", options: .file(url))
    let context = container.newContext()
    var rows: [Row] = []
    for index in 0..<count {
      let row = Row(
        id: UUID(), title: "Task \(index) — «\(index % 3 == 0 ? "café" : "tea")»", priority: Int64(index % 3 + 1),
        isCompleted: index % 2 == 0,
        dueDate: index % 4 == 0 ? nil : Date(timeIntervalSinceReferenceDate: 700_000_000 + Double(index) * 86_400.5))
      let task = try context.insert(entityNamed: "Task")
      try task.setValue(.uuid(row.id), forKey: "id")
      try task.setValue(.string(row.title), forKey: "title")
      try task.setValue(.integer(row.priority), forKey: "priority")
      try task.setValue(.boolean(row.isCompleted), forKey: "isCompleted")
      try task.setValue(row.dueDate.map { .date($0) }, forKey: "dueDate")
      rows.append(row)
    }
    try context.save()
    return (url, rows)
  }

  static func readRows(_ url: URL, version: String) throws -> [Row] {
    let container = try PersistentContainer(bundle: bundle, versionName: version, options: .file(url))
    let context = container.newContext()
    return try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")).map { task in
      guard case .uuid(let id)? = try task.value(forKey: "id"),
        case .string(let title)? = try task.value(forKey: "title"),
        case .integer(let priority)? = try task.value(forKey: "priority"),
        case .boolean(let done)? = try task.value(forKey: "isCompleted")
      else { throw CancellationError() }
      var due: Date?
      if case .date(let date)? = try task.value(forKey: "dueDate") { due = date }
      return Row(id: id, title: title, priority: priority, isCompleted: done, dueDate: due)
    }
  }

  @Test(
    "A store at Tasks migrates straight to Tasks 3 with every value intact")
  func tasksToTasks3() throws {
    let (url, rows) = try Self.makeStore()
    let migration = StoreMigration(storeURL: url, bundle: Self.bundle)
    #expect(try migration.storeVersion().name == "Tasks")
    let tasks3 = try #require(Self.bundle.version(named: "Tasks 3"))
    let plan = try migration.plan(to: tasks3)
    #expect(plan.steps.count == 1)
    let report = try migration.run(to: tasks3)
    #expect(report.records.count == 1)
    // The backup is the store as it was: at Tasks, with every row.
    let backup = try #require(report.backupURL)
    #expect(try StoreMigration(storeURL: backup, bundle: Self.bundle).storeVersion().name == "Tasks")
    let backedUp = try Self.readRows(backup, version: "Tasks")
    #expect(backedUp.sorted { $0.title < $1.title } == rows.sorted { $0.title < $1.title })
    #expect(try migration.storeVersion().name == "Tasks 3")
    let migrated = try Self.readRows(url, version: "Tasks 3")
    #expect(migrated.sorted { $0.title < $1.title } == rows.sorted { $0.title < $1.title })
    // The new entities and relationships work.
    let container = try PersistentContainer(bundle: Self.bundle, versionName: "Tasks 3", options: .file(url))
    let context = container.newContext()
    let task = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))[0]
    let tag = try context.insert(entityNamed: "Tag")
    try tag.setValue(.string("after"), forKey: "name")
    try task.addObject(tag, forKey: "tags")
    try task.setValue(.string("notes now exist"), forKey: "notes")
    try context.save()
  }

  @Test(
    "Opening an older store in a container with the Migration module's migrator migrates it")
  func containerMigratesOnOpen() throws {
    let (url, rows) = try Self.makeStore(rows: 5)
    let container = try PersistentContainer(bundle: Self.bundle, versionName: "Tasks 3", options: .migratingFile(url))
    #expect(container.model.name == "Tasks 3")
    #expect(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Task")) == rows.count)
  }

  @Test("Without a migrator (the default), an older store is refused with an error naming the way to migrate it")
  func olderStoreRefused() throws {
    let (url, _) = try Self.makeStore(rows: 1)
    #expect {
      _ = try PersistentContainer(bundle: Self.bundle, options: .file(url))
    } throws: { error in
      error is PersistenceError && "\(error)".contains("migratingFile")
    }
  }
}
