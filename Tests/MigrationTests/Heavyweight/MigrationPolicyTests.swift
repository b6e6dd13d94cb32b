import Foundation
import Migration
import Persistence
import SQLite
import TestSupport
import Testing

/// A policy as an app ports it from `NSEntityMigrationPolicy`: read books get the time of the
/// migration, notes become ordered remarks, and an expression calls one of its functions.
final class BookPolicy: EntityMigrationPolicy {
  override func createDestinationInstances(
    forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
  ) throws {
    try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    let book = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
    if try source.value(forKey: "isRead") == .boolean(true) {
      try book.setValue(.date(manager.migrationDate), forKey: "readAt")
    }
  }

  override func createRelationships(
    forDestination destination: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
  ) throws {
    try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    let sources = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [destination])
    guard case .string(let notes)? = try sources.first?.value(forKey: "notes") else { return }
    for paragraph in notes.components(separatedBy: "\n\n") where !paragraph.isEmpty {
      let remark = try manager.destinationContext.insert(entityNamed: "Remark")
      try remark.setValue(.string(paragraph), forKey: "text")
      try destination.addObject(remark, forKey: "remarks")
    }
  }

  override func evaluateFunction(named name: String, arguments: [MigrationValue], manager: MigrationManager) throws
    -> MigrationValue
  {
    guard name == "pageCountFor:" else {
      return try super.evaluateFunction(named: name, arguments: arguments, manager: manager)
    }
    return arguments.first ?? .null
  }
}

/// A policy that handles no function.
final class PlainPolicy: EntityMigrationPolicy {}

/// A policy whose `$entityPolicy` functions return their first argument: the base of the
/// policies that break a migration.
class PassingPolicy: EntityMigrationPolicy {
  override func evaluateFunction(named name: String, arguments: [MigrationValue], manager: MigrationManager) throws
    -> MigrationValue
  {
    arguments.first ?? .null
  }
}

/// A policy that fails on one object.
final class FailingPolicy: PassingPolicy {
  struct Refusal: Error, CustomStringConvertible {
    var description: String { "the title is reserved" }
  }

  override func createDestinationInstances(
    forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
  ) throws {
    if try source.value(forKey: "title") == .string("Book 7") { throw Refusal() }
    try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
  }
}

/// A policy that saves the destination context itself, which the engine refuses: a batch's
/// reads run in one transaction, and the batch's save is the engine's.
final class SavingPolicy: PassingPolicy {
  override func createDestinationInstances(
    forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
  ) throws {
    try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
    try manager.destinationContext.save()
  }
}

@Suite("Migration policies")
struct MigrationPolicyTests {
  static func bookMapping(policy: String) throws -> MappingModel {
    try BookshelfFixture.mapping { mappings in
      let index = mappings.firstIndex { $0.destinationEntity == "Book" }!
      mappings[index].kind = .custom
      mappings[index].policyClassName = policy
      let at = mappings[index].attributeMappings.firstIndex { $0.destinationProperty == "pageCount" }!
      mappings[index].attributeMappings[at].value = try MappingExpression(
        format: #"FUNCTION($entityPolicy, "pageCountFor:", $source.pages)"#)
    }
  }

  @Test("Policy classes are found with or without a module prefix")
  func registry() {
    var policies = MigrationPolicies()
    policies.register(BookPolicy.self)
    policies.register(FailingPolicy.self, as: "Legacy.OldPolicy")
    #expect(policies.policyType(forClassName: "BookPolicy") == BookPolicy.self)
    #expect(policies.policyType(forClassName: "LibraryApp.BookPolicy") == BookPolicy.self)
    #expect(policies.policyType(forClassName: "REPLACE_AT_RUNTIME.BookPolicy") == BookPolicy.self)
    #expect(policies.policyType(forClassName: "OldPolicy") == FailingPolicy.self)
    #expect(policies.policyType(forClassName: "Other") == nil)
  }

  @Test("A policy runs object by object in small batches, mixed with SQL mappings, every value and link right")
  func objectPath() throws {
    let url = try BookshelfFixture.seed(books: 23)
    var policies = MigrationPolicies()
    policies.register(BookPolicy.self)
    let migration = StoreMigration(
      storeURL: url, bundle: BookshelfFixture.bundle,
      mappingModels: [try Self.bookMapping(policy: "LibraryApp.BookPolicy")],
      policies: policies)
    let plan = try migration.plan(to: BookshelfFixture.v2)
    let routes = try migration.entityMappingRoutes(of: plan.steps[0])
    #expect(routes.map(\.route) == [.sql, .objects, .none, .sql], "\(routes)")
    #expect(routes[1].reason == "it names the policy class LibraryApp.BookPolicy")
    let started = Date()
    try migration.run(to: BookshelfFixture.v2, options: .init(keepsBackup: false, batchSize: 4))

    let context = try PersistentContainer(
      bundle: BookshelfFixture.bundle, versionName: "Bookshelf 2",
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false)
    ).newContext()
    let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
    #expect(books.count == 23)
    var readAt: Set<Date> = []
    for book in books {
      guard case .string(let title)? = try book.value(forKey: "title"), let index = Int(title.split(separator: " ")[1])
      else {
        Issue.record("a book lost its title")
        continue
      }
      #expect(try book.value(forKey: "pageCount") == .integer(Int64(100 + index)))
      #expect(try book.value(forKey: "shelf") == .string("main"))
      if index % 3 == 0 {
        guard case .date(let date)? = try book.value(forKey: "readAt") else {
          Issue.record("book \(index) was read but has no readAt")
          continue
        }
        readAt.insert(date)
        #expect(date >= started.addingTimeInterval(-1) && date <= Date())
      } else {
        #expect(try book.value(forKey: "readAt") == nil)
      }
      let remarks = try book.objects(forKey: "remarks").map { try $0.value(forKey: "text") }
      #expect(remarks == (index % 2 == 0 ? [.string("First of \(index)."), .string("Second of \(index).")] : []))
      #expect(try book.object(forKey: "author")?.value(forKey: "fullName") == .string("Author \(index / 5)"))
      let labels = Set(try book.objects(forKey: "tags").compactMap { try $0.value(forKey: "label") })
      let names = ["FICTION", "HISTORY", "POETRY"]
      #expect(labels == [.string(names[index % 3]), .string(names[(index + 1) % 3])])
    }
    #expect(readAt.count == 1, "every read book gets the same migration time")
    let tags = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tag"))
    #expect(try tags.map { try $0.objects(forKey: "books").count }.reduce(0, +) == 46)
    let remarks = try context.fetch(FetchRequest<ManagedObject>(entityName: "Remark"))
    #expect(remarks.count == 24)
    #expect(try remarks.allSatisfy { try $0.object(forKey: "book") != nil })
  }

  /// Migrates a bookshelf of ten books with `policy` for its books, which must refuse the
  /// migration with an error naming the mapping, the stage and every one of `parts`, and leave
  /// the store untouched.
  static func expectRefusal(by policy: EntityMigrationPolicy.Type, mentioning parts: [String]) throws {
    let url = try BookshelfFixture.seed(books: 10)
    let before = BookshelfFixture.fingerprint(url)
    var policies = MigrationPolicies()
    policies.register(policy, as: "BookPolicy")
    #expect {
      try StoreMigration(
        storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [try Self.bookMapping(policy: "BookPolicy")],
        policies: policies
      ).run(to: BookshelfFixture.v2)
    } throws: { error in
      let text = "\(error)"
      return (["BookToBook", "createDestinationInstances"] + parts).allSatisfy { text.contains($0) }
    }
    #expect(BookshelfFixture.fingerprint(url) == before)
  }

  @Test("A policy that throws stops the migration with the mapping, stage and object; the store is untouched")
  func throwingPolicy() throws {
    try Self.expectRefusal(by: FailingPolicy.self, mentioning: ["the title is reserved", "Book "])
  }

  @Test("A policy that saves a context itself is refused with what to do; the store is untouched")
  func savingPolicy() throws {
    try Self.expectRefusal(
      by: SavingPolicy.self, mentioning: ["cannot save inside the context's read transaction", "save after"])
  }

  @Test("A $entityPolicy function the policy does not handle is named in the error")
  func unhandledFunction() throws {
    let url = try BookshelfFixture.seed(books: 3)
    var policies = MigrationPolicies()
    policies.register(PlainPolicy.self, as: "BookPolicy")
    #expect {
      try StoreMigration(
        storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [try Self.bookMapping(policy: "BookPolicy")],
        policies: policies
      ).run(to: BookshelfFixture.v2)
    } throws: { error in
      "\(error)".contains(#"FUNCTION($entityPolicy, "pageCountFor:")"#) && "\(error)".contains("evaluateFunction")
    }
  }

  @Test("Destination objects breaking the model's rules refuse the migration, naming entity, object and property")
  func validation() throws {
    let url = try BookshelfFixture.seed(books: 6)
    let container = try PersistentContainer(
      bundle: BookshelfFixture.bundle, versionName: "Bookshelf", options: .file(url))
    let context = container.newContext()
    for book in try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).prefix(2) {
      try book.setValue(.string(""), forKey: "title")
    }
    try context.save()
    let before = BookshelfFixture.fingerprint(url)
    #expect {
      try StoreMigration(
        storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [try BookshelfFixture.mapping()]
      )
      .run(to: BookshelfFixture.v2)
    } throws: { error in
      let text = "\(error)"
      return text.contains("2 destination objects break") && text.contains("Book p") && text.contains(".title: ")
        && text.contains("made by entity mapping 'BookToBook' from Book p")
    }
    #expect(BookshelfFixture.fingerprint(url) == before)
  }

  @Test("Inferred and mapped steps mix in one migration, and a killed run's files do not stop the next")
  func mixedPlan() throws {
    let url = try BookshelfFixture.seed(books: 8)
    // What a run killed mid-way leaves: a half-written working file with its journal.
    let leftover = URL(fileURLWithPath: url.path + ".modelc-migrating-1.sqlite")
    try Data("not a database".utf8).write(to: leftover)
    try Data().write(to: URL(fileURLWithPath: leftover.path + "-wal"))
    let migration = StoreMigration(
      storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [try BookshelfFixture.mapping()])
    let plan = try migration.plan()
    #expect(plan.steps.map { $0.mapping.isInferred } == [false, true])
    let report = try migration.run(options: .init(keepsBackup: true))
    #expect(report.records.map(\.kind) == ["mapped", "lightweight"])
    let files = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
    #expect(!files.contains { $0.contains("modelc-migrating") }, "\(files)")
    // The backup is the original store, still at the first version.
    let backup = try #require(report.backupURL)
    #expect(try StoreMigration(storeURL: backup, bundle: BookshelfFixture.bundle).storeVersion().name == "Bookshelf")
    let context = try PersistentContainer(
      bundle: BookshelfFixture.bundle,
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false)
    ).newContext()
    let authors = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
    #expect(try Set(authors.map { try $0.value(forKey: "fullName") }) == [.string("Author 0"), .string("Author 1")])
    #expect(try authors.allSatisfy { try $0.value(forKey: "born") == nil })
    let history = try SQLiteConnection(.file(url.path), mode: .readOnly)
    #expect(try MigrationHistory.records(on: history).map(\.toVersion) == ["Bookshelf 2", "Bookshelf 3"])
    try history.close()
  }
}
