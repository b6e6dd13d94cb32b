import DataModel
import Foundation
import Testing

@testable import Persistence

/// The out-of-line to-many state (``ToManyState``): shared by new objects until one changes,
/// nil for fetched objects until they load a to-many relationship.
@Suite("To-many state")
struct ToManyStateTests {
  private func tags(of object: ManagedObject) throws -> [String] {
    try object.objects(forKey: "tags").map { tag in
      guard case .string(let name)? = try tag.value(forKey: "name") else { return "" }
      return name
    }
  }

  @Test("New objects share their layout's state until one of them changes")
  func newObjectsShareTheLayoutsState() throws {
    let context = try ContextFixtures.tasksContainer().newContext()
    let first = try ContextFixtures.insertTask(context, title: "first")
    let second = try ContextFixtures.insertTask(context, title: "second")
    let shared = try #require(first.layout.insertedToManyState)
    #expect(first.toManyState === shared && second.toManyState === shared)
    #expect(shared.isShared)

    let tag = try context.insert(entityNamed: "Tag")
    try tag.setValue(.string("home"), forKey: "name")
    try first.setObjects([tag], forKey: "tags")
    #expect(first.toManyState !== shared && first.toManyState?.isShared == false)
    #expect(try tags(of: first) == ["home"])
    // The other new object and the shared state are as they were.
    #expect(second.toManyState === shared)
    #expect(try tags(of: second).isEmpty)
    let slot = try #require(first.layout.relationshipSlots["tags"])
    #expect(shared.values[slot]?.ids.isEmpty == true)
    #expect(shared.committed[slot] == nil)
  }

  @Test("An entity without to-many relationships has no shared state; one with them has empty values in their slots")
  func insertedStateShape() throws {
    #expect(ToManyState.inserted(isToMany: []) == nil)
    #expect(ToManyState.inserted(isToMany: [false, false]) == nil)
    let state = try #require(ToManyState.inserted(isToMany: [false, true]))
    #expect(state.isShared)
    #expect(state.values[0] == nil && state.values[1] == ToManyValue())
    #expect(state.committed.isAllNil)
    let saved = state.savedCounterpart()
    #expect(saved.isShared && saved.values == state.values && saved.committed == state.values)
  }

  @Test("A new object saved unchanged takes the shared saved state; changes and rollback work from it")
  func savedNewObjectsShareTheSavedState() throws {
    let context = try ContextFixtures.tasksContainer().newContext()
    let tagged = try ContextFixtures.insertTask(context, title: "tagged")
    let plain = try ContextFixtures.insertTask(context, title: "plain")
    let tag = try context.insert(entityNamed: "Tag")
    try tag.setValue(.string("home"), forKey: "name")
    try tagged.setObjects([tag], forKey: "tags")
    try context.save()

    let saved = try #require(plain.layout.savedInsertedToManyState)
    #expect(plain.toManyState === saved && saved.isShared)
    #expect(saved.values == saved.committed)
    #expect(!plain.hasChanges && !tagged.hasChanges)
    // The changed one committed its own values.
    #expect(tagged.toManyState?.isShared == false)
    #expect(tagged.committedToManyValues == tagged.toManyValues)

    try plain.setObjects([tag], forKey: "tags")
    #expect(plain.toManyState !== saved)
    #expect(plain.hasChanges && plain.changedValues["tags"] == "1 objects")
    #expect(saved.values == saved.committed)
    context.rollback()
    #expect(try tags(of: plain).isEmpty)
    #expect(!plain.hasChanges)
    #expect(try tags(of: tagged) == ["home"])
  }

  @Test(
    "Fetched objects have no state until a to-many relationship loads; refreshing forgets it and keeps prefetched objects"
  )
  func fetchedObjectsMakeTheirStateOnLoad() throws {
    let container = try ContextFixtures.tasksContainer()
    let writer = container.newContext()
    let project = try writer.insert(entityNamed: "Project")
    try project.setValue(.string("P"), forKey: "name")
    for title in ["a", "b"] {
      let task = try ContextFixtures.insertTask(writer, title: title)
      try task.setObject(project, forKey: "project")
    }
    try writer.save()

    let reader = container.newContext()
    let tasks = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    #expect(tasks.count == 2 && tasks.allSatisfy { $0.toManyState == nil })
    #expect(try tags(of: tasks[0]).isEmpty)
    let slot = try #require(tasks[0].layout.relationshipSlots["tags"])
    #expect(tasks[0].toManyState?.isShared == false)
    #expect(tasks[0].toManyValues[slot] != nil && tasks[0].committedToManyValues[slot] != nil)
    #expect(tasks[1].toManyState == nil)
    reader.refreshAllObjects()
    #expect(tasks[0].toManyState == nil)

    let prefetching = container.newContext()
    var request = FetchRequest<ManagedObject>(entityName: "Project")
    request.relationshipKeyPathsForPrefetching = ["tasks"]
    let fetched = try #require(try prefetching.fetch(request).first)
    #expect(fetched.prefetched.count == 2)
    let projectTasks = try #require(fetched.layout.relationshipSlots["tasks"])
    #expect(fetched.toManyValues[projectTasks]?.ids.count == 2)
    prefetching.refreshAllObjects()
    #expect(fetched.prefetched.count == 2)
    #expect(fetched.toManyValues.isAllNil && fetched.committedToManyValues.isAllNil)
    #expect(try fetched.objects(forKey: "tasks").count == 2)
  }
}
