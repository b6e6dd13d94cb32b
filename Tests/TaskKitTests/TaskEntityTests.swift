import Foundation
import Persistence
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
    #expect(task.completedAt == nil)
    #expect(task.isCompleted == false)
    #expect(task.dueDate == nil)
    #expect(task.notes.isEmpty)
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
    let doneAt = Date(timeIntervalSinceReferenceDate: 800_000_000)
    for (title, priority, done) in [("Report", 3, false), ("Email", 1, true), ("Review", 2, false), ("Plan", 3, true)] {
      let task = Task(context: context, taskID: UUID(), title: title)
      task.priority = Int16(priority)
      task.completedAt = done ? doneAt : nil
      task.project = title == "Email" ? nil : work
    }
    try context.save()
    let open = Task.fetchRequest(
      predicate: Task.Keys.completedAt.isNil && Task.Keys.project.appending(Project.Keys.name) == "Work",
      sortDescriptors: [Task.Keys.priority.descending, Task.Keys.title.ascending])
    #expect(try context.fetch(open).map(\.title) == ["Report", "Review"])
    let important = Task.fetchRequest(
      predicate: Task.Keys.priority >= 3 || Task.Keys.title.beginsWith("e", options: .caseInsensitive),
      sortDescriptors: [Task.Keys.title.ascending])
    #expect(try context.fetch(important).map(\.title) == ["Email", "Plan", "Report"])
    #expect(try context.count(for: Task.fetchRequest(predicate: Task.Keys.dueDate.isNil)) == 4)
    let done = Task.fetchRequest(
      predicate: Task.Keys.completedAt == doneAt, sortDescriptors: [Task.Keys.title.ascending])
    #expect(try context.fetch(done).map(\.title) == ["Email", "Plan"])
    #expect(try context.fetch(done).allSatisfy(\.isCompleted))
  }

  @Test("A task's notes keep their order through a save, follow their task, and go with it")
  func orderedNotes() throws {
    let id = UUID()
    let task = Task(context: context, taskID: id, title: "Plan the trip")
    let written = Date(timeIntervalSinceReferenceDate: 810_000_000)
    let texts = ["book the train", "ask Zoé about the dates", "pack"]
    for text in texts { task.addToNotes(Note(context: context, createdAt: written, text: text)) }
    // Moving the last note to the front, as a view that reorders notes does.
    task.insertIntoNotes(task.notes[2], at: 0)
    #expect(task.notes.map(\.text) == ["pack", "book the train", "ask Zoé about the dates"])
    #expect(task.notes.allSatisfy { $0.task === task })
    try context.save()

    let other = container.newContext()
    let fetched = try #require(try other.fetch(Task.fetchRequest(predicate: Task.Keys.taskID == id)).first)
    #expect(fetched.notes.map(\.text) == ["pack", "book the train", "ask Zoé about the dates"])
    #expect(fetched.notes.map(\.createdAt) == [written, written, written])
    let byText = Note.fetchRequest(predicate: Note.Keys.text == "pack")
    #expect(try other.fetch(byText).first?.task?.title == "Plan the trip")

    // Deleting the task deletes its notes (cascade); deleting a note leaves the task.
    let note = fetched.notes[1]
    other.delete(note)
    try other.save()
    #expect(
      try container.newContext().fetch(Note.fetchRequest()).map(\.text).sorted() == ["ask Zoé about the dates", "pack"])
    other.delete(fetched)
    try other.save()
    let after = container.newContext()
    #expect(try after.fetch(Note.fetchRequest()).isEmpty)
    #expect(try after.fetch(Task.fetchRequest()).isEmpty)
  }

  @Test("A note needs its text and its date: a save without them fails on both, naming them")
  func noteRequiredValues() throws {
    let task = Task(context: context, taskID: UUID(), title: "T")
    task.addToNotes(Note(context: context))
    do {
      try context.save()
      Issue.record("a note without text or date was saved")
    } catch {
      guard case .validation(let failures) = error else {
        Issue.record("expected validation failures, got \(error)")
        return
      }
      let found = failures.map { "\($0.entity).\($0.property) \($0.rule)" }.sorted()
      #expect(found == ["Note.createdAt required", "Note.text required"])
    }
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
    #expect(embedded.versions.map(\.name) == ["Tasks", "Tasks 2", "Tasks 3", "Tasks 4"])
    #expect(embedded.versions.map(\.versionHashes) == disk.versions.map(\.versionHashes))
    #expect(embedded.currentVersion.name == "Tasks 4")
    #expect(TasksModel.entityClasses.map { String(describing: $0) }.sorted() == ["Note", "Project", "Tag", "Task"])
  }
}
