import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

/// What a save's statements touch: only the changed columns of updated rows, only the join rows
/// of deleted objects, and the row versions that optimistic locking checks in the same
/// statements.
@Suite("The statements of a save")
struct SaveStatementTests {
  struct Store {
    let directory: TemporaryDirectory
    let url: URL
    let container: PersistentContainer

    init() throws {
      directory = try TemporaryDirectory()
      url = directory.url.appendingPathComponent("statements.sqlite")
      container = try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url))
    }

    func task(_ title: String, in context: ObjectContext) throws -> ManagedObject {
      try #require(
        try context.fetch(
          FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "title == %@", title))
        ).first)
    }

    func tag(_ name: String, in context: ObjectContext) throws -> ManagedObject {
      try #require(
        try context.fetch(
          FetchRequest<ManagedObject>(entityName: "Tag", predicate: try FetchPredicate(format: "name == %@", name))
        ).first)
    }
  }

  @Test("An update names only the columns that changed, and bumps Z_OPT once per save")
  func updateWritesChangedColumnsOnly() throws {
    let store = try Store()
    let setup = store.container.newContext()
    try ContextFixtures.insertTask(setup, title: "A", priority: 1)
    try setup.save()
    // `UPDATE OF column` triggers fire exactly when an UPDATE's SET list names the column.
    let raw = try SQLiteConnection(.file(store.url.path))
    try raw.execute("CREATE TABLE written (name TEXT)")
    for column in ["ZTITLE", "ZPRIORITY", "ZID"] {
      try raw.execute(
        SQLiteSQL(
          verbatim:
            "CREATE TRIGGER \(SQLiteIdentifier.quote("wrote_\(column)")) AFTER UPDATE OF \(SQLiteIdentifier.quote(column)) ON ZTASK BEGIN INSERT INTO written VALUES ('\(column)'); END"
        ))
    }
    func written() throws -> [String] {
      try raw.mapRows("SELECT name FROM written ORDER BY rowid") { $0.text(at: 0) }
    }

    let context = store.container.newContext()
    let task = try store.task("A", in: context)
    try task.setValue(.string("A2"), forKey: "title")
    try context.save()
    #expect(try written() == ["ZTITLE"])

    try task.setValue(.integer(3), forKey: "priority")
    try task.setValue(.string("A3"), forKey: "title")
    try context.save()
    // One statement, two triggers (SQLite fires them in no set order).
    #expect(try written().sorted() == ["ZPRIORITY", "ZTITLE", "ZTITLE"])
    #expect(try raw.firstRow("SELECT Z_OPT FROM ZTASK") { $0.int64(at: 0) } == 3)

    // A value set back to what was saved is no change: nothing is written.
    try task.setValue(.integer(4), forKey: "priority")
    try task.setValue(.integer(3), forKey: "priority")
    try context.save()
    #expect(try written().count == 3)
    #expect(try raw.firstRow("SELECT Z_OPT FROM ZTASK") { $0.int64(at: 0) } == 3)
    try raw.close()
  }

  @Test("Rows are written in key order, whatever order the objects changed or were deleted in")
  func rowsAreWrittenInKeyOrder() throws {
    let store = try Store()
    let setup = store.container.newContext()
    for index in 0..<6 { try ContextFixtures.insertTask(setup, title: "T\(index)") }
    try setup.save()
    let raw = try SQLiteConnection(.file(store.url.path))
    try raw.execute("CREATE TABLE written (what TEXT, key INTEGER)")
    try raw.execute(
      "CREATE TRIGGER updated AFTER UPDATE OF ZTITLE ON ZTASK BEGIN INSERT INTO written VALUES ('update', NEW.Z_PK); END"
    )
    try raw.execute(
      "CREATE TRIGGER deleted AFTER DELETE ON ZTASK BEGIN INSERT INTO written VALUES ('delete', OLD.Z_PK); END")
    func written(_ what: String) throws -> [Int64] {
      try raw.mapRows(
        SQLiteSQL(verbatim: "SELECT key FROM written WHERE what = ? ORDER BY rowid", arguments: [.text(what)])
      ) {
        $0.int64(at: 0)
      }
    }

    let context = store.container.newContext()
    let tasks = try context.fetch(
      FetchRequest<ManagedObject>(entityName: "Task", sortDescriptors: [FetchSortDescriptor("title")]))
    #expect(tasks.count == 6)
    // Changed from the last to the first, and one in the middle first of all.
    try tasks[2].setValue(.string("middle"), forKey: "title")
    for task in tasks.reversed() where task !== tasks[2] {
      try task.setValue(.string("changed"), forKey: "title")
    }
    try context.save()
    let keys = try raw.mapRows("SELECT Z_PK FROM ZTASK ORDER BY Z_PK") { $0.int64(at: 0) }
    #expect(try written("update") == keys)

    for task in [tasks[4], tasks[1], tasks[5], tasks[0]] { context.delete(task) }
    try context.save()
    #expect(
      try written("delete") == [tasks[0], tasks[1], tasks[4], tasks[5]].map { $0.objectID.primaryKey ?? 0 }.sorted())
    try raw.close()
  }

  @Test("Context wins overwrites a row changed elsewhere whole, and then knows the row's version")
  func contextWinsTakesTheStoreVersion() throws {
    let store = try Store()
    let setup = store.container.newContext()
    try ContextFixtures.insertTask(setup, title: "A", priority: 1)
    try setup.save()
    let first = store.container.newContext()
    let second = store.container.newContext()
    let a1 = try store.task("A", in: first)
    let a2 = try store.task("A", in: second)
    // Two saves elsewhere: the row is at version 3.
    try a1.setValue(.integer(2), forKey: "priority")
    try first.save()
    try a1.setValue(.integer(3), forKey: "priority")
    try first.save()

    second.mergePolicy = .contextWins
    try a2.setValue(.string("A by second"), forKey: "title")
    try second.save()
    let check = store.container.newContext()
    let row = try store.task("A by second", in: check)
    // The whole object wins: the priority it read (1) too.
    #expect(try row.value(forKey: "priority") == .integer(1))

    // The object now holds the row's version (4): a checked save of it finds no conflict.
    second.mergePolicy = .error
    try a2.setValue(.string("A again"), forKey: "title")
    try second.save()
    #expect(try store.task("A again", in: store.container.newContext()).value(forKey: "priority") == .integer(1))
  }

  @Test("Deleting an object removes its own join rows, not those of another entity's row with the same key")
  func deleteRemovesOnlyItsJoinRows() throws {
    let store = try Store()
    let setup = store.container.newContext()
    // Tasks and tags are numbered per table: task A and tag X both get Z_PK 1.
    let a = try ContextFixtures.insertTask(setup, title: "A")
    let b = try ContextFixtures.insertTask(setup, title: "B")
    let x = try setup.insert(entityNamed: "Tag")
    try x.setValue(.string("x"), forKey: "name")
    let y = try setup.insert(entityNamed: "Tag")
    try y.setValue(.string("y"), forKey: "name")
    try a.addObject(y, forKey: "tags")
    try b.addObject(x, forKey: "tags")
    try setup.save()
    #expect(a.objectID.primaryKey == x.objectID.primaryKey)

    let context = store.container.newContext()
    context.delete(try store.task("A", in: context))
    try context.save()

    let check = store.container.newContext()
    let remaining = try store.task("B", in: check).objects(forKey: "tags")
    #expect(try remaining.map { try $0.value(forKey: "name") } == [.string("x")])
    #expect(try store.tag("y", in: check).objects(forKey: "tasks").isEmpty)
  }

  @Test("Deleting many objects removes every one of their join rows, in chunks")
  func deleteManyRemovesTheirJoinRows() throws {
    let store = try Store()
    let setup = store.container.newContext()
    let tag = try setup.insert(entityNamed: "Tag")
    try tag.setValue(.string("shared"), forKey: "name")
    var tasks: [ManagedObject] = []
    for index in 0..<1_203 {
      let task = try ContextFixtures.insertTask(setup, title: "T\(index)")
      try task.addObject(tag, forKey: "tags")
      tasks.append(task)
    }
    try setup.save()

    let context = store.container.newContext()
    let fetched = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    // Every task but the last one: more than two chunks of keys.
    for task in fetched where try task.value(forKey: "title") != .string("T1202") {
      context.delete(task)
    }
    try context.save()

    let check = store.container.newContext()
    let left = try store.tag("shared", in: check).objects(forKey: "tasks")
    #expect(try left.map { try $0.value(forKey: "title") } == [.string("T1202")])
    #expect(try check.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 1)
  }
}
