import Foundation
import SQLite
import TestSupport
import Testing

@testable import Persistence

/// Contexts take the container's idle connections and give them back, only when idle.
@Suite("Idle connections")
struct IdleConnectionsTests {
  private let tasks = FetchRequest<ManagedObject>(entityName: "Task")

  @Test("The first context uses the connection that prepared the store, and gives it back when it goes")
  func firstContext() throws {
    let container = try ContextFixtures.tasksContainer()
    #expect(container.idleConnections.count == 1)
    do {
      let context = container.newContext()
      #expect(try context.count(for: tasks) == 0)
      #expect(container.idleConnections.count == 0)
    }
    #expect(container.idleConnections.count == 1)
  }

  @Test("Contexts working at once each have a connection; all go back, up to the capacity")
  func contextsAtOnce() throws {
    let container = try ContextFixtures.tasksContainer()
    do {
      let contexts = (0..<6).map { _ in container.newContext() }
      for context in contexts { #expect(try context.count(for: tasks) == 0) }
      #expect(container.idleConnections.count == 0)
    }
    #expect(container.idleConnections.count == container.idleConnections.capacity)
  }

  @Test("A reused connection sees what was saved since it was last used, from this container or another")
  func freshReads() throws {
    let directory = TestPaths.temporaryDirectory("modelc-idle")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("Tasks.sqlite")
    let reader = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url))
    let writer = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url))
    do {
      let context = reader.newContext()
      #expect(try context.count(for: tasks) == 0)
    }
    for round in 1...3 {
      let context = writer.newContext()
      try ContextFixtures.insertTask(context, title: "Task \(round)")
      try context.save()
      #expect(try reader.newContext().count(for: tasks) == round)
      #expect(reader.idleConnections.count == 1)
    }
  }

  @Test("A connection left in a transaction, or with a statement in the middle of its rows, is closed")
  func busyConnections() throws {
    let container = try ContextFixtures.tasksContainer()
    let prepared = try #require(container.idleConnections.take())
    let connections = IdleConnections(prepared)
    _ = connections.take()

    let inTransaction = try SQLiteConnection()
    try inTransaction.execute("BEGIN")
    connections.giveBack(inTransaction)
    #expect(connections.count == 0)

    let stepping = try SQLiteConnection()
    let statement = try stepping.prepare("SELECT 1 UNION ALL SELECT 2")
    #expect(try statement.step())
    connections.giveBack(stepping)
    #expect(connections.count == 0)
    statement.reset()
    connections.giveBack(stepping)
    #expect(connections.count == 1)

    // A cached statement left stepping is reset on the way back.
    let cached = try SQLiteConnection()
    #expect(try cached.cachedStatement("SELECT 1 UNION ALL SELECT 2").step())
    connections.giveBack(cached)
    #expect(connections.count == 2)
    #expect(!cached.isInTransaction)
  }
}
