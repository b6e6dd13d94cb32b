import Foundation
import Persistence
import TestSupport
import Testing

/// ``ObjectContext/withReadTransaction(_:)``: one snapshot for every read inside, and no write
/// let into it.
@Suite("A context's reads in one transaction")
struct ReadTransactionTests {
  /// A file store with two tasks, a context that reads and one that writes.
  struct Fixture {
    let directory: TemporaryDirectory
    let container: PersistentContainer
    let reader: ObjectContext
    let writer: ObjectContext

    init() throws {
      directory = try TemporaryDirectory()
      container = try PersistentContainer(
        bundle: ContextFixtures.tasksBundle, options: .file(directory.url.appendingPathComponent("read.sqlite")))
      let setup = container.newContext()
      try ContextFixtures.insertTask(setup, title: "A")
      try ContextFixtures.insertTask(setup, title: "B")
      try setup.save()
      reader = container.newContext()
      writer = container.newContext()
    }

    static let tasks = FetchRequest<ManagedObject>(entityName: "Task")

    func titles(in context: ObjectContext) throws -> [String] {
      try context.fetch(Self.tasks).compactMap {
        guard case .string(let title)? = try $0.value(forKey: "title") else { return nil }
        return title
      }.sorted()
    }
  }

  @Test("Every read inside sees the store as at the first one; after, the store as it is")
  func oneSnapshot() throws {
    let fixture = try Fixture()
    let a = try #require(
      try fixture.reader.fetch(Fixture.tasks).first { try $0.value(forKey: "title") == .string("A") })
    try fixture.reader.withReadTransaction {
      #expect(try fixture.reader.count(for: Fixture.tasks) == 2)
      // Another context changes A and adds C meanwhile.
      let writerA = try #require(
        try fixture.writer.fetch(Fixture.tasks).first { try $0.value(forKey: "title") == .string("A") })
      try writerA.setValue(.string("A2"), forKey: "title")
      try ContextFixtures.insertTask(fixture.writer, title: "C")
      try fixture.writer.save()
      #expect(try fixture.reader.count(for: Fixture.tasks) == 2)
      #expect(try fixture.titles(in: fixture.reader) == ["A", "B"])
      // A fault fulfilled inside reads the same snapshot.
      try fixture.reader.refresh(a, mergeChanges: false)
      #expect(try a.value(forKey: "title") == .string("A"))
    }
    #expect(try fixture.titles(in: fixture.reader) == ["A2", "B", "C"])
    try fixture.reader.refresh(a, mergeChanges: false)
    #expect(try a.value(forKey: "title") == .string("A2"))
  }

  @Test("Calls nest: the snapshot lasts until the outermost returns")
  func nesting() throws {
    let fixture = try Fixture()
    try fixture.reader.withReadTransaction {
      #expect(try fixture.reader.count(for: Fixture.tasks) == 2)
      try fixture.reader.withReadTransaction {
        try ContextFixtures.insertTask(fixture.writer, title: "C")
        try fixture.writer.save()
      }
      #expect(try fixture.reader.count(for: Fixture.tasks) == 2)
    }
    #expect(try fixture.reader.count(for: Fixture.tasks) == 3)
  }

  @Test("A save or a batch request inside is refused and writes nothing; after, it runs")
  func writesRefused() throws {
    let fixture = try Fixture()
    try ContextFixtures.insertTask(fixture.reader, title: "C")
    try fixture.reader.withReadTransaction {
      let error = #expect(throws: SaveError.self) { try fixture.reader.save() }
      #expect(
        error?.description.contains(
          "cannot save inside the context's read transaction (withReadTransaction); save after its body returns")
          == true)
      let batch = #expect(throws: PersistenceError.self) {
        try fixture.reader.execute(BatchDeleteRequest(entityName: "Task"))
      }
      #expect(batch?.description.hasPrefix("cannot run a batch delete inside the context's read transaction") == true)
    }
    #expect(try fixture.titles(in: fixture.writer) == ["A", "B"])
    #expect(fixture.reader.hasChanges)
    try fixture.reader.save()
    #expect(try fixture.titles(in: fixture.writer) == ["A", "B", "C"])
  }

  @Test("What the body throws comes out, and the context reads and saves as before")
  func bodyThrows() throws {
    struct Stop: Error {}
    let fixture = try Fixture()
    #expect(throws: Stop.self) {
      try fixture.reader.withReadTransaction {
        _ = try fixture.reader.count(for: Fixture.tasks)
        throw Stop()
      }
    }
    try ContextFixtures.insertTask(fixture.writer, title: "C")
    try fixture.writer.save()
    #expect(try fixture.reader.count(for: Fixture.tasks) == 3)
    try ContextFixtures.insertTask(fixture.reader, title: "D")
    try fixture.reader.save()
    #expect(try fixture.titles(in: fixture.writer) == ["A", "B", "C", "D"])
  }
}
