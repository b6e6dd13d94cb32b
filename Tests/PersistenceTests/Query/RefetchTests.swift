import Foundation
import Persistence
import Testing

/// Fetching rows whose objects the context already holds: one object per row, refreshed from the
/// store when another save changed the row and the object has no changes of its own.
@Suite("Fetching registered objects again")
struct RefetchTests {
  private let request = FetchRequest<ManagedObject>(entityName: "Task", sortDescriptors: [FetchSortDescriptor("title")])

  @Test("A second fetch gives the same objects with the same values")
  func sameObjects() throws {
    let container = try ContextFixtures.tasksContainer()
    let writer = container.newContext()
    for title in ["a", "b", "c"] { try ContextFixtures.insertTask(writer, title: title) }
    try writer.save()
    let reader = container.newContext()
    let first = try reader.fetch(request)
    let second = try reader.fetch(request)
    #expect(first.count == 3)
    #expect(zip(first, second).allSatisfy { $0 === $1 })
    #expect(try second.map { try $0.value(forKey: "title") } == [.string("a"), .string("b"), .string("c")])
  }

  @Test("An unchanged object takes the values another context saved; a changed one keeps its changes")
  func refreshedUnlessChanged() throws {
    let container = try ContextFixtures.tasksContainer()
    let writer = container.newContext()
    for title in ["a", "b"] { try ContextFixtures.insertTask(writer, title: title) }
    try writer.save()
    let reader = container.newContext()
    let objects = try reader.fetch(request)
    try objects[1].setValue(.string("mine"), forKey: "notes")
    for task in try writer.fetch(request) {
      try task.setValue(.integer(1), forKey: "priority")
      try task.setValue(.string("theirs"), forKey: "notes")
    }
    try writer.save()
    let again = try reader.fetch(request)
    #expect(again[0] === objects[0] && again[1] === objects[1])
    #expect(try again[0].value(forKey: "priority") == .integer(1))
    #expect(try again[0].value(forKey: "notes") == .string("theirs"))
    #expect(try again[1].value(forKey: "notes") == .string("mine"))
    #expect(again[1].hasChanges)
  }

  @Test("A fault met by a fetch is filled from the fetched row")
  func faultFilled() throws {
    let container = try ContextFixtures.tasksContainer()
    let writer = container.newContext()
    let task = try ContextFixtures.insertTask(writer, title: "a")
    try writer.save()
    let reader = container.newContext()
    let fault = try #require(reader.object(with: task.objectID))
    #expect(fault.isFault)
    let fetched = try reader.fetch(request)
    #expect(fetched.first === fault)
    #expect(!fault.isFault)
    #expect(try fault.value(forKey: "title") == .string("a"))
  }
}
