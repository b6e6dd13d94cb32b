import Foundation
import Persistence
import TestSupport
import Testing

@Suite("Background work, merging and save notifications")
struct BackgroundWorkTests {
  @Test("A background task's save reaches the main context through mergeChanges")
  @MainActor
  func backgroundSaveMerges() async throws {
    let directory = try TemporaryDirectory()
    let container = try PersistentContainer(
      bundle: ContextFixtures.tasksBundle, options: .file(directory.url.appendingPathComponent("bg.sqlite")))
    let main = container.viewContext
    let existing = try ContextFixtures.insertTask(main, title: "Existing")
    try main.save()
    #expect(try existing.value(forKey: "title") == .string("Existing"))

    let received = NotificationBox()
    let observation = container.addSaveObserver { received.append($0) }
    defer { observation.cancel() }
    let existingID = existing.objectID
    let insertedID = try await container.performBackgroundTask { context -> ObjectID in
      let task = try ContextFixtures.insertTask(context, title: "From the background")
      let mine = try context.existingObject(with: existingID)
      try mine.setValue(.string("Renamed in the background"), forKey: "title")
      try context.save()
      return task.objectID
    }
    let notification = try #require(received.all.first)
    #expect(notification.insertedObjects == [insertedID])
    #expect(notification.updatedObjects == [existingID])
    #expect(!insertedID.isTemporary)

    main.mergeChanges(from: notification)
    #expect(try existing.value(forKey: "title") == .string("Renamed in the background"))
    let inserted = try main.existingObject(with: insertedID)
    #expect(try inserted.value(forKey: "title") == .string("From the background"))
    #expect(try main.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 2)
  }

  @Test("Merging keeps the context's own pending changes and drops deleted objects")
  func mergeKeepsPendingChanges() throws {
    let container = try ContextFixtures.tasksContainer()
    let first = container.newContext()
    let keep = try ContextFixtures.insertTask(first, title: "Keep", notes: "old")
    let doomed = try ContextFixtures.insertTask(first, title: "Doomed")
    try first.save()
    let second = container.newContext()
    let keep2 = try second.existingObject(with: keep.objectID)
    let doomed2 = try second.existingObject(with: doomed.objectID)
    try keep2.setValue(.integer(3), forKey: "priority")  // pending in the second context

    let received = NotificationBox()
    let observation = container.addSaveObserver { received.append($0) }
    try keep.setValue(.string("new"), forKey: "notes")
    first.delete(doomed)
    try first.save()
    observation.cancel()
    second.mergeChanges(from: try #require(received.all.first))
    #expect(try keep2.value(forKey: "notes") == .string("new"))
    #expect(try keep2.value(forKey: "priority") == .integer(3))
    #expect(doomed2.isDeleted)
    try second.save()
    #expect(try container.newContext().existingObject(with: keep.objectID).value(forKey: "priority") == .integer(3))
  }

  @Test("saveNotifications() yields one notification per save")
  func notificationStream() async throws {
    let container = try ContextFixtures.tasksContainer()
    let stream = container.saveNotifications()
    let ids = try await container.performBackgroundTask { context -> [ObjectID] in
      let task = try ContextFixtures.insertTask(context, title: "One")
      try context.save()
      context.delete(task)
      try context.save()
      return [task.objectID]
    }
    var iterator = stream.makeAsyncIterator()
    let inserted = try #require(await iterator.next())
    let deleted = try #require(await iterator.next())
    #expect(inserted.insertedObjects == Set(ids))
    #expect(deleted.deletedObjects == Set(ids))
    #expect(!inserted.isEmpty)
  }
}

/// Notifications collected from observers, which run on the saving context's thread.
final class NotificationBox: @unchecked Sendable {
  private let lock = NSLock()
  private var notifications: [SaveNotification] = []

  func append(_ notification: SaveNotification) {
    lock.withLock { notifications.append(notification) }
  }

  var all: [SaveNotification] { lock.withLock { notifications } }
}
