import Foundation
import Persistence
import TestSupport
import Testing

/// A container and its view context are freed together, which closes the store: SQLite then
/// checkpoints the write-ahead log into the store and removes it, so the next process to open
/// the store does not read the whole log again.
@Suite("Container lifetime")
struct ContainerLifetimeTests {
  @Test("Freeing a container whose view context was used closes the store and removes its WAL")
  @MainActor
  func freeingTheContainerClosesTheStore() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("lifetime.sqlite")
    let wal = url.path + "-wal"
    weak var freedContainer: PersistentContainer?
    weak var freedContext: ObjectContext?
    do {
      let container = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url))
      let context = container.viewContext
      #expect(context === container.viewContext, "the view context is made once")
      #expect(context.container === container)
      _ = try ContextFixtures.insertTask(context, title: "Written")
      try context.save()
      #expect(FileManager.default.fileExists(atPath: wal), "the store runs in WAL mode")
      freedContainer = container
      freedContext = context
    }
    #expect(freedContainer == nil, "the view context must not keep its container alive")
    #expect(freedContext == nil, "the container's view context goes with it")
    #expect(!FileManager.default.fileExists(atPath: wal), "the last connection's close removes the WAL")

    // The rows were checkpointed into the store, and it opens again.
    let reopened = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url))
    let titles = try reopened.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Task")).map {
      try $0.value(forKey: "title")
    }
    #expect(titles == [.string("Written")])
  }

  @Test("A view context kept after its container goes on working; a new context keeps its container")
  @MainActor
  func contextsWithoutTheirContainer() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("kept.sqlite")
    var viewContext: ObjectContext?
    var backgroundContext: ObjectContext?
    weak var freedContainer: PersistentContainer?
    let storeUUID: String
    do {
      let container = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url))
      storeUUID = container.storeUUID
      viewContext = container.viewContext
      backgroundContext = container.newContext()
      freedContainer = container
    }
    #expect(freedContainer != nil, "a context from newContext() keeps its container")
    let context = try #require(viewContext)
    _ = try ContextFixtures.insertTask(context, title: "Saved without the container")
    try context.save()
    #expect(try backgroundContext?.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 1)
    backgroundContext = nil
    #expect(freedContainer == nil)
    #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 1)

    // Export and import name objects by URIs made from the store's UUID, which the context
    // keeps.
    let document = try StoreExport.json(of: context, entityNames: ["Task"])
    let exported = JSONWriter.prettyPrinted(document)
    #expect(exported.contains("\"x-coredata://\(storeUUID)/Task/p1\""), "\(exported)")
  }
}
