import Foundation
import Persistence
import TestSupport
import Testing

@Suite("Conflicts between contexts and merge policies")
struct MergePolicyTests {
  /// A file store with two tasks saved, and two contexts that each read them.
  struct Fixture {
    let directory: TemporaryDirectory
    let url: URL
    let container: PersistentContainer
    let first: ObjectContext
    let second: ObjectContext

    init() throws {
      directory = try TemporaryDirectory()
      url = directory.url.appendingPathComponent("conflicts.sqlite")
      container = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url))
      let setup = container.newContext()
      try ContextFixtures.insertTask(setup, title: "A")
      try ContextFixtures.insertTask(setup, title: "B")
      try setup.save()
      first = container.newContext()
      second = container.newContext()
    }

    func task(_ title: String, in context: ObjectContext) throws -> ManagedObject {
      try #require(
        try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")).first {
          try $0.value(forKey: "title") == .string(title)
        })
    }
  }

  @Test("The default policy fails the save with every conflict, and changes nothing")
  func errorPolicy() throws {
    let fixture = try Fixture()
    let a1 = try fixture.task("A", in: fixture.first)
    let b1 = try fixture.task("B", in: fixture.first)
    let a2 = try fixture.task("A", in: fixture.second)
    let b2 = try fixture.task("B", in: fixture.second)
    try a1.setValue(.string("A by first"), forKey: "title")
    fixture.first.delete(b1)
    try fixture.first.save()
    let before = try StoreRows.dump(fixture.url)

    try a2.setValue(.string("A by second"), forKey: "title")
    try b2.setValue(.integer(3), forKey: "priority")
    do {
      try fixture.second.save()
      Issue.record("the save should conflict")
    } catch {
      guard case .conflicts(let conflicts) = error else {
        Issue.record("expected conflicts, got \(error)")
        return
      }
      #expect(conflicts.count == 2)
      let changed = try #require(conflicts.first { $0.objectID == a2.objectID })
      #expect(changed.entity == "Task")
      #expect(changed.expectedVersion == 1 && changed.storeVersion == 2)
      #expect(conflicts.first { $0.objectID == b2.objectID }?.storeVersion == nil)
      #expect(error.description.contains("deleted by someone else"))
    }
    #expect(try StoreRows.dump(fixture.url) == before)
    #expect(try a2.value(forKey: "title") == .string("A by second"))
    #expect(fixture.second.hasChanges)
  }

  @Test("Store wins: conflicting objects take the store's values; the rest of the save goes through")
  func storeWins() throws {
    let fixture = try Fixture()
    let a1 = try fixture.task("A", in: fixture.first)
    let a2 = try fixture.task("A", in: fixture.second)
    let b2 = try fixture.task("B", in: fixture.second)
    try a1.setValue(.string("A by first"), forKey: "title")
    try fixture.first.save()
    try a2.setValue(.string("A by second"), forKey: "title")
    try b2.setValue(.string("B by second"), forKey: "title")
    fixture.second.mergePolicy = .storeWins
    try fixture.second.save()
    #expect(try a2.value(forKey: "title") == .string("A by first"))
    let check = fixture.container.newContext()
    #expect(try fixture.task("A by first", in: check).value(forKey: "priority") == .integer(2))
    _ = try fixture.task("B by second", in: check)
    #expect(!fixture.second.hasChanges)
  }

  @Test("Context wins: this context's values overwrite; a row deleted elsewhere stays deleted")
  func contextWins() throws {
    let fixture = try Fixture()
    let a1 = try fixture.task("A", in: fixture.first)
    let b1 = try fixture.task("B", in: fixture.first)
    let a2 = try fixture.task("A", in: fixture.second)
    let b2 = try fixture.task("B", in: fixture.second)
    try a1.setValue(.integer(1), forKey: "priority")
    fixture.first.delete(b1)
    try fixture.first.save()
    try a2.setValue(.string("A by second"), forKey: "title")
    try b2.setValue(.string("B by second"), forKey: "title")
    fixture.second.mergePolicy = .contextWins
    let notifications = NotificationBox()
    let observation = fixture.container.addSaveObserver { notifications.append($0) }
    try fixture.second.save()
    observation.cancel()
    let check = fixture.container.newContext()
    let a = try fixture.task("A by second", in: check)
    // The context's whole object wins, including the value it read before the other save.
    #expect(try a.value(forKey: "priority") == .integer(2))
    #expect(try check.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 1)
    #expect(notifications.all.first?.deletedObjects.contains(b2.objectID) == true)
  }
}
