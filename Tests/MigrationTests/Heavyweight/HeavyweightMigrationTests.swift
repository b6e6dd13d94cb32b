import Foundation
import Migration
import Persistence
import SQLite
import TestSupport
import Testing

@Suite("Heavyweight migrations")
struct HeavyweightMigrationTests {
  /// A context on the migrated store (objects need their context alive to read relationships).
  static func context(at url: URL, version: String = "Bookshelf 2") throws -> ObjectContext {
    try PersistentContainer(
      bundle: BookshelfFixture.bundle, versionName: version,
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false)
    ).newContext()
  }

  @Test("A mapping of key paths, constants and destinationInstances runs as SQL with every value and link carried")
  func sqlPath() throws {
    let url = try BookshelfFixture.seed()
    let mapping = try BookshelfFixture.mapping()
    let migration = StoreMigration(storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [mapping])
    let plan = try migration.plan(to: BookshelfFixture.v2)
    #expect(plan.steps.count == 1 && !plan.steps[0].mapping.isInferred)
    let routes = try migration.entityMappingRoutes(of: plan.steps[0])
    #expect(routes.allSatisfy { $0.route != .objects }, "\(routes)")
    let report = try migration.run(to: BookshelfFixture.v2, options: .init(keepsBackup: true))
    #expect(report.backupURL.map { FileManager.default.fileExists(atPath: $0.path) } == true)

    let container = try PersistentContainer(
      bundle: BookshelfFixture.bundle, versionName: "Bookshelf 2",
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    let context = container.newContext()
    let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
    #expect(books.count == 20)
    for book in books {
      guard case .string(let title)? = try book.value(forKey: "title"),
        let index = Int(title.split(separator: " ")[1])
      else {
        Issue.record("a book lost its title")
        continue
      }
      #expect(try book.value(forKey: "pageCount") == .integer(Int64(100 + index)))
      #expect(try book.value(forKey: "shelf") == .string("main"), "the default of an unmapped attribute")
      #expect(try book.value(forKey: "readAt") == nil)
      #expect(try book.object(forKey: "author")?.value(forKey: "fullName") == .string("Author \(index / 5)"))
      let labels = try book.objects(forKey: "tags").compactMap { try $0.value(forKey: "label") }
      let expected = [["FICTION", "HISTORY", "POETRY"][index % 3], ["FICTION", "HISTORY", "POETRY"][(index + 1) % 3]]
      #expect(Set(labels) == Set(expected.map { AttributeValue.string($0) }))
    }
    let authors = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
    #expect(authors.count == 4)
    for author in authors {
      #expect(try author.objects(forKey: "books").count == 5)
    }
    let tags = try context.fetch(FetchRequest<ManagedObject>(entityName: "Tag"))
    #expect(try tags.map { try $0.objects(forKey: "books").count }.reduce(0, +) == 40)
    // The association table is gone, the file is one file, the history says what ran.
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    #expect(try !connection.tableExists("MODELC_ASSOCIATION"))
    #expect(try MigrationHistory.records(on: connection).last?.kind == "mapped")
    try connection.close()
    let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
    #expect(!leftovers.contains { $0.contains("modelc-migrating") }, "\(leftovers)")
  }

  @Test("A source filter keeps only the objects it selects, and links to the others are dropped")
  func sourceFilter() throws {
    let url = try BookshelfFixture.seed()
    let mapping = try BookshelfFixture.mapping { mappings in
      let index = mappings.firstIndex { $0.destinationEntity == "Book" }!
      mappings[index].sourceFilter = "pages >= 110"
    }
    try StoreMigration(storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [mapping]).run(
      to: BookshelfFixture.v2, options: .init(keepsBackup: false))
    let context = try Self.context(at: url)
    let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
    #expect(books.count == 10)
    #expect(try books.allSatisfy { try ($0.value(forKey: "pageCount")?.numericValue ?? 0) >= 110 })
    let authors = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
    let counts = try authors.map { try $0.objects(forKey: "books").count }.sorted()
    #expect(counts == [0, 0, 5, 5], "\(counts)")
  }

  @Test("Bad input is refused before anything changes: a missing key, a missing policy, a bad filter")
  func refusedBeforeRunning() throws {
    let url = try BookshelfFixture.seed(books: 5)
    let before = BookshelfFixture.fingerprint(url)
    let missingKey = try BookshelfFixture.mapping { mappings in
      let index = mappings.firstIndex { $0.destinationEntity == "Book" }!
      mappings[index].attributeMappings[0].value = try MappingExpression(format: "$source.pagez")
    }
    #expect {
      try StoreMigration(storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [missingKey]).run(
        to: BookshelfFixture.v2)
    } throws: { error in
      "\(error)".contains("has no property 'pagez'; did you mean 'pages'?") && "\(error)".contains("BookToBook")
    }
    let missingPolicy = try BookshelfFixture.mapping { mappings in
      mappings[0].policyClassName = "MyApp.AuthorPolicy"
    }
    #expect {
      try StoreMigration(storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [missingPolicy]).run(
        to: BookshelfFixture.v2)
    } throws: { error in
      "\(error)".contains("'MyApp.AuthorPolicy'") && "\(error)".contains("MigrationPolicies.register")
    }
    // A mapping made for other versions than the store's is not used, and the refusal says so.
    var otherVersions = try BookshelfFixture.mapping()
    otherVersions.sourceEntityHashes = BookshelfFixture.v2.versionHashes.entityHashes
    otherVersions.destinationEntityHashes = BookshelfFixture.v3.versionHashes.entityHashes
    #expect {
      try StoreMigration(storeURL: url, bundle: BookshelfFixture.bundle, mappingModels: [otherVersions]).run(
        to: BookshelfFixture.v2)
    } throws: { error in
      "\(error)".contains("the mapping models given map 'Bookshelf 2' → 'Bookshelf 3', no step of this migration")
    }
    #expect(BookshelfFixture.fingerprint(url) == before)
  }
}

@Suite("Embedded mapping models")
struct EmbeddedMappingTests {
  @Test("A mapping file embedded as wrapped base64 reads back to the same mapping; a damaged one names itself")
  func roundTrip() throws {
    let file = TestPaths.fixtures.appendingPathComponent(
      "mappings/BookshelfToBookshelf2.xcmappingmodel/xcmapping.xml")
    let base64 = try Data(contentsOf: file).base64EncodedString()
    let wrapped = stride(from: 0, to: base64.count, by: 100).map {
      String(base64.dropFirst($0).prefix(100))
    }.joined(separator: "\n")
    let embedded = try MappingModel.embedded([("BookshelfToBookshelf2", wrapped)], model: BookshelfFixture.bundle)
    #expect(embedded == [try BookshelfFixture.mapping()])
    #expect {
      try MappingModel.embedded([("Broken", "bm90IGEgbWFwcGluZw==")], model: BookshelfFixture.bundle)
    } throws: { error in
      "\(error)".contains("<embedded Broken>")
    }
  }
}
