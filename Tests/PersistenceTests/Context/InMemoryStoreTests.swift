import Foundation
import Persistence
import Testing

@Suite("In-memory stores")
struct InMemoryStoreTests {
  @Test("Contexts of one in-memory container share its store; containers do not share")
  func sharing() throws {
    let container = try ContextFixtures.tasksContainer()
    let other = try ContextFixtures.tasksContainer()
    let writer = container.newContext()
    try ContextFixtures.insertTask(writer, title: "Shared")
    try writer.save()
    #expect(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 1)
    #expect(try other.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 0)
    #expect(container.storeUUID != other.storeUUID)
    let metadata = try container.storeMetadata()
    #expect(metadata.isCompatible(with: container.model))
    #expect(try container.migrationHistory().isEmpty)
  }

  @Test("An in-memory store validates and rolls back like a file store")
  func validation() throws {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    try ContextFixtures.insertTask(context, title: "")
    #expect(throws: SaveError.self) { try context.save() }
    context.rollback()
    #expect(!context.hasChanges)
    #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 0)
  }
}
