import Foundation
import Persistence
import Synchronization
import Testing

@testable import TaskKit

/// What opening the store and listing the tasks do, and do not do: `task list` runs them once
/// per process, so work they skip is start-up time saved.
@MainActor
@Suite("Task list loading")
struct TaskListLoadingTests {
  @Test("Opening a store at the current version reads no mapping model; an older store reads them once")
  func mappingModelsReadOnlyToMigrate() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("task-loading-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let reads = Mutex(0)
    var migrator = TaskStoreMigrator()
    let embedded = migrator.mappingModels
    migrator.mappingModels = { bundle in
      reads.withLock { $0 += 1 }
      return try embedded(bundle)
    }
    let current = folder.appendingPathComponent("current.sqlite")
    _ = try TasksModel.makeContainer(options: StoreOptions(location: .file(current), migrator: migrator))
    _ = try TasksModel.makeContainer(options: StoreOptions(location: .file(current), migrator: migrator))
    #expect(reads.withLock { $0 } == 0)

    let old = folder.appendingPathComponent("old.sqlite")
    do {
      let bundle = try TasksModel.bundle()
      let context = try PersistentContainer(bundle: bundle, versionName: "Tasks 3", options: .file(old)).newContext()
      let task = try context.insert(entityNamed: "Task")
      try task.setValue(.uuid(UUID()), forKey: "id")
      try task.setValue(.string("Paint the fence"), forKey: "title")
      try task.setValue(.boolean(true), forKey: "isCompleted")
      try task.setValue(.string("Buy paint.\n\nTwo coats."), forKey: "notes")
      try context.save()
    }
    let migrated = try TasksModel.makeContainer(options: StoreOptions(location: .file(old), migrator: migrator))
    #expect(reads.withLock { $0 } == 1)
    // The mapped step ran (its policy made the notes), not an inferred one.
    let reader = migrated.newContext()
    let tasks = try reader.fetch(Task.fetchRequest())
    #expect(tasks.map { $0.notes.map(\.text) } == [["Buy paint.", "Two coats."]])
    #expect(tasks.first?.completedAt != nil)
  }

  @Test("Setting a filter to the value it has does not fetch the tasks again")
  func unchangedFilterKeepsTheList() throws {
    let container = try TaskStore.inMemory()
    let model = TaskListViewModel(container: container)
    _ = try model.add(title: "Buy milk", dueDate: nil, priority: .high, notes: [])
    // A task the view model's context is not told about: only a new fetch lists it.
    let other = container.newContext()
    _ = Task(context: other, taskID: UUID(), title: "Buy bread")
    try other.save()
    model.searchText = ""
    model.completionFilter = .all
    model.tagFilter = nil
    model.projectFilter = nil
    #expect(model.tasks.map(\.title) == ["Buy milk"])
    model.searchText = "buy"
    #expect(model.tasks.map(\.title) == ["Buy milk", "Buy bread"])
  }

  @Test("The list's order: priority, due date with undated last, title, then identifier")
  func listOrder() throws {
    let model = TaskListViewModel(container: try TaskStore.inMemory())
    let due = Date(timeIntervalSinceReferenceDate: 816_000_000)
    let entries: [(String, Date?, TaskPriority)] = [
      ("b", nil, .low), ("a", due, .low), ("c", due.addingTimeInterval(-86_400), .low), ("same", nil, .high),
      ("same", nil, .high), ("a", nil, .high), ("z", due, .high), ("m", due, .medium),
    ]
    for (title, dueDate, priority) in entries {
      _ = try model.add(title: title, dueDate: dueDate, priority: priority, notes: [])
    }
    try model.refresh()
    let listed = model.tasks
    #expect(listed.map(\.title) == ["z", "a", "same", "same", "m", "c", "a", "b"])
    let twins = listed.filter { $0.title == "same" }.map(\.taskID.uuidString)
    #expect(twins == twins.sorted())
    // Every adjacent pair in the order the comparison defines, and the whole list as a sort by it gives.
    for (left, right) in zip(listed, listed.dropFirst()) {
      #expect(TaskListViewModel.precedes(left, right) && !TaskListViewModel.precedes(right, left))
    }
    #expect(TaskListViewModel.inListOrder(listed.reversed()).map(\.taskID) == listed.map(\.taskID))
  }
}
