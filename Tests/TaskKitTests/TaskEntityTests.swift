import Foundation
import TaskKit
import TestSupport
import Testing

/// TaskKit's entity classes, generated at build time by the ModelcPlugin from
/// Models/Tasks.xcdatamodeld, against an in-memory store.
@Suite("TaskKit's generated entities")
struct TaskEntityTests {
  let container: PersistentContainer
  let context: ObjectContext

  init() throws {
    container = try TasksModel.makeContainer(options: .inMemory)
    context = container.newContext()
  }

  @Test("Insert with the required values; relationships keep their inverses")
  func insertAndRelate() throws {
    let home = Project(context: context, name: "Home")
    let urgent = Tag(context: context, name: "urgent")
    let id = UUID()
    let task = Task(context: context, taskID: id, title: "Water the plants")
    #expect(task.priority == 2)
    #expect(task.isCompleted == false)
    #expect(task.dueDate == nil)
    task.project = home
    task.addToTags(urgent)
    #expect(home.tasks == [task])
    #expect(urgent.tasks == [task])
    home.removeFromTasks(task)
    #expect(task.project == nil)
    urgent.tasks = []
    #expect(task.tags.isEmpty)
    task.project = home
    try context.save()

    let other = container.newContext()
    let fetched = try other.fetch(Task.fetchRequest(predicate: Task.Keys.taskID == id))
    #expect(fetched.map(\.title) == ["Water the plants"])
    #expect(fetched.first?.project?.name == "Home")
  }

  @Test("Typed predicates and sort descriptors")
  func typedFetches() throws {
    let work = Project(context: context, name: "Work")
    for (title, priority, done) in [("Report", 3, false), ("Email", 1, true), ("Review", 2, false), ("Plan", 3, true)] {
      let task = Task(context: context, taskID: UUID(), title: title)
      task.priority = Int16(priority)
      task.isCompleted = done
      task.project = title == "Email" ? nil : work
    }
    try context.save()
    let open = Task.fetchRequest(
      predicate: Task.Keys.isCompleted == false && Task.Keys.project.appending(Project.Keys.name) == "Work",
      sortDescriptors: [Task.Keys.priority.descending, Task.Keys.title.ascending])
    #expect(try context.fetch(open).map(\.title) == ["Report", "Review"])
    let important = Task.fetchRequest(
      predicate: Task.Keys.priority >= 3 || Task.Keys.title.beginsWith("e", options: .caseInsensitive),
      sortDescriptors: [Task.Keys.title.ascending])
    #expect(try context.fetch(important).map(\.title) == ["Email", "Plan", "Report"])
    #expect(try context.count(for: Task.fetchRequest(predicate: Task.Keys.dueDate.isNil)) == 4)
  }

  @Test("Swift's concurrency Task stays reachable where the generated Task shadows it")
  func concurrencyTaskIsQualified() async {
    let value = await Swift.Task { 42 }.value
    #expect(value == 42)
    #expect(TaskKit.Task.entityName == "Task")
  }

  @Test("The embedded schema is the model's")
  func embeddedSchema() throws {
    let embedded = try TasksModel.bundle()
    let disk = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    #expect(embedded.versions.map(\.name) == ["Tasks", "Tasks 2", "Tasks 3"])
    #expect(embedded.versions.map(\.versionHashes) == disk.versions.map(\.versionHashes))
    #expect(TasksModel.entityClasses.count == 3)
  }
}
