import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

/// Rows that another program wrote with values of an unexpected storage class: a fetch and a
/// fault convert what SQLite's conversions keep exact and refuses the rest with an error that
/// names the entity, the row and the table, never a silently wrong value.
@Suite("Decoding stored values")
struct StoredValueDecodingTests {
  /// A file store with one saved task (its ID returned too), changed afterwards with raw SQL.
  private func store(changedWith sql: String) throws -> (url: URL, task: ObjectID) {
    let url = TestPaths.temporaryDirectory("decoding").appendingPathComponent("Tasks.sqlite")
    let context = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url)).newContext()
    let task = try ContextFixtures.insertTask(
      context, title: "write tests", due: Date(timeIntervalSinceReferenceDate: 10))
    try context.save()
    let connection = try SQLiteConnection(.file(url.path), mode: .readWrite)
    try connection.execute(SQLiteSQL(verbatim: sql))
    return (url, task.objectID)
  }

  private func fetchTasks(_ url: URL) throws -> [ManagedObject] {
    let context = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url)).newContext()
    return try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
  }

  @Test(
    "A value its attribute cannot hold is an error naming the entity and the table",
    arguments: [
      "UPDATE ZTASK SET ZPRIORITY = 'high'",
      "UPDATE ZTASK SET ZPRIORITY = 3.5",
      "UPDATE ZTASK SET ZDUEDATE = 'yesterday'",
      "UPDATE ZTASK SET ZID = X'0102'",
    ])
  func refused(_ sql: String) throws {
    let url = try store(changedWith: sql).url
    do {
      _ = try fetchTasks(url)
      Issue.record("the fetch succeeded")
    } catch {
      let message = "\(error)"
      #expect(message.contains("Task 1"), "\(message)")
      #expect(message.contains("ZTASK"), "\(message)")
    }
  }

  @Test("A fault loads through the same checks")
  func faultRefused() throws {
    let (url, task) = try store(changedWith: "UPDATE ZTASK SET ZPRIORITY = 'high'")
    let context = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url)).newContext()
    #expect(throws: PersistenceError.self) { try context.existingObject(with: task) }
  }

  @Test("A row of an entity number the model does not have is an error")
  func unknownEntityNumber() throws {
    let (url, task) = try store(changedWith: "UPDATE ZTASK SET Z_ENT = 999")
    let context = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url)).newContext()
    // Whether the row is met by a fetch of the table or read by its key, the error names it.
    for read in [
      { _ = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")) },
      { _ = try context.existingObject(with: task) },
    ] as [() throws -> Void] {
      do {
        try read()
        Issue.record("the row was read")
      } catch {
        #expect("\(error)".contains("row 1 of ZTASK has Z_ENT 999"), "\(error)")
      }
    }
  }

  @Test("Values SQLite stored in another class but exactly are read as their attribute's type")
  func converted() throws {
    // A whole number in a date column, a float holding a whole number in an integer column.
    let url = try store(changedWith: "UPDATE ZTASK SET ZDUEDATE = 86400, ZPRIORITY = CAST(3.0 AS REAL)").url
    let task = try #require(try fetchTasks(url).first)
    #expect(try task.value(forKey: "dueDate") == .date(Date(timeIntervalSinceReferenceDate: 86_400)))
    #expect(try task.value(forKey: "priority") == .integer(3))
    #expect(try task.value(forKey: "title") == .string("write tests"))
  }
}
