import Foundation
import GeneratedLibrary
import Persistence
import TestSupport
import Testing

/// The classes the plugin generates from Tests/Fixtures/models/Library.xcdatamodeld, used
/// against a real store: inserting, optionality and zero values, transformables, relationships
/// and their inverses, an ordered relationship, a class hierarchy with an abstract root, a
/// `category` entity, typed fetches, and the embedded schema.
@Suite("Generated classes against a store")
struct GeneratedLibraryTests {
  let container: PersistentContainer
  let context: ObjectContext

  init() throws {
    container = try LibraryModel.makeContainer(options: .inMemory)
    context = container.newContext()
  }

  private func book(_ title: String, pages: Int32 = 0) -> Book {
    let book = Book(context: context, title: title, identifier: UUID(), stock: [:])
    book.pageCount = pages
    return book
  }

  @Test("The inserting initializer sets the required values; the others take the model's defaults")
  func insertingInitializer() throws {
    let identifier = UUID()
    let book = Book(context: context, title: "Dune", identifier: identifier, stock: ["main": 3])
    #expect(book.title == "Dune")
    #expect(book.identifier == identifier)
    #expect(book.stock == ["main": 3])
    #expect(book.pageCount == 0)
    #expect(book.isbn == nil)
    #expect(book.isInserted)
    try context.save()

    let other = container.newContext()
    let fetched = try other.fetch(Book.fetchRequest())
    #expect(fetched.count == 1)
    #expect(fetched.first?.title == "Dune")
    #expect(fetched.first?.identifier == identifier)
    #expect(fetched.first?.stock == ["main": 3])
  }

  @Test("Optional attributes are optional, scalars included; required ones read zero values when nothing is stored")
  func optionalityAndZeroValues() throws {
    let book = Book(context: context)
    #expect(book.title == "")
    #expect(book.identifier == UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
    #expect(book.stock == [:])
    #expect(book.rating == nil)
    book.rating = 4.5
    book.weight = 0.25
    book.price = Decimal(string: "12.99")
    #expect(book.rating == 4.5)
    #expect(book.weight == 0.25)
    #expect(book.price == Decimal(string: "12.99"))
    book.rating = nil
    #expect(book.rating == nil)
    let magazine = Magazine(context: context, title: "Byte")
    #expect(magazine.issue == nil)
    magazine.issue = 12
    #expect(magazine.issue == 12)
    // A value of an unrelated kind in the slot reads as the zero value, never traps.
    try book.setValue(nil, forKey: "pageCount")
    #expect(book.pageCount == 0)
  }

  @Test("Transformables: a standard Codable type as JSON, a transformer from user info, Data otherwise")
  func transformables() throws {
    let book = book("Dune")
    book.keywords = ["sand", "spice"]
    book.color = Color(red: 1, green: 0, blue: 0)
    book.legacy = Data([1, 2, 3])
    book.scratch = .string("in memory only")
    book.stock = ["main": 2, "annex": 1]
    #expect(try book.value(forKey: "keywords") == .binary(Data(#"["sand","spice"]"#.utf8)))
    #expect(try book.value(forKey: "color") == .binary(Data([255, 0, 0])))
    try context.save()

    let other = container.newContext()
    let fetched = try #require(try other.fetch(Book.fetchRequest()).first)
    #expect(fetched.keywords == ["sand", "spice"])
    #expect(fetched.color == Color(red: 1, green: 0, blue: 0))
    #expect(fetched.legacy == Data([1, 2, 3]))
    #expect(fetched.stock == ["annex": 1, "main": 2])
    #expect(fetched.scratch == nil)

    // Bytes that do not decode read as nil (optional) or the transformer's default (required).
    try fetched.setValue(.binary(Data([0xFF])), forKey: "keywords")
    try fetched.setValue(.binary(Data([0xFF])), forKey: "color")
    try fetched.setValue(.binary(Data("not json".utf8)), forKey: "stock")
    #expect(fetched.keywords == nil)
    #expect(fetched.color == nil)
    #expect(fetched.stock == [:])
    fetched.keywords = nil
    #expect(try fetched.value(forKey: "keywords") == nil)
  }

  @Test("To-one and to-many relationships keep their inverses")
  func relationshipsKeepInverses() throws {
    let tolkien = Author(context: context, name: "Tolkien")
    let lewis = Author(context: context, name: "Lewis")
    let hobbit = book("The Hobbit")
    let silmarillion = book("The Silmarillion")

    tolkien.addToBooks(hobbit)
    #expect(hobbit.author === tolkien)
    tolkien.addToBooks([silmarillion])
    #expect(tolkien.books == [hobbit, silmarillion])

    silmarillion.author = lewis
    #expect(tolkien.books == [hobbit])
    #expect(lewis.books == [silmarillion])

    tolkien.removeFromBooks(hobbit)
    #expect(hobbit.author == nil)
    lewis.books = [hobbit, silmarillion]
    #expect(hobbit.author === lewis)
    #expect(tolkien.books.isEmpty)
    try context.save()

    let other = container.newContext()
    let fetched = try other.fetch(Author.fetchRequest(predicate: Author.Keys.name == "Lewis"))
    #expect(fetched.first?.books.map(\.title).sorted() == ["The Hobbit", "The Silmarillion"])
  }

  @Test("An ordered relationship is an array: insert at a position, reorder, remove; the order is stored")
  func orderedRelationship() throws {
    let dune = book("Dune")
    let one = Chapter(context: context, number: 1, book: dune)
    let three = Chapter(context: context, number: 3, book: dune)
    let two = Chapter(context: context, number: 2, book: dune)
    #expect(dune.chapters == [one, three, two])
    dune.insertIntoChapters(two, at: 1)
    #expect(dune.chapters == [one, two, three])
    dune.chapters = [three, two, one]
    #expect(dune.chapters.map(\.number) == [3, 2, 1])
    dune.removeFromChapters(two)
    #expect(two.book == nil)
    dune.addToChapters(two)
    #expect(dune.chapters.map(\.number) == [3, 1, 2])
    #expect(one.heading == "1. Untitled")
    try context.save()

    // The new context stays alive while its objects are used (objects hold it weakly).
    let other = container.newContext()
    let fetched = try #require(try other.fetch(Book.fetchRequest()).first)
    #expect(fetched.chapters.map(\.number) == [3, 1, 2])
    #expect(fetched.chapters.allSatisfy { $0.book === fetched })
  }

  @Test("Sub-entity classes subclass their parent's; each class knows its entity; the abstract root fetches all")
  func hierarchy() throws {
    #expect(Item.entityName == "Item")
    #expect(Book.entityName == "Book")
    #expect(Magazine.entityName == "Magazine")
    #expect(Chapter.entityName == "Chapter")
    #expect(Author.entityName == "Author")
    _ = book("Dune")
    _ = Magazine(context: context, title: "Byte")
    let items = try context.fetch(Item.fetchRequest(sortDescriptors: [Item.Keys.title.ascending]))
    #expect(items.map(\.title) == ["Byte", "Dune"])
    #expect(items.first is Magazine)
    #expect(items.last is Book)
    let request: FetchRequest<Magazine> = Magazine.fetchRequest()
    #expect(request.entityName == "Magazine")
    #expect(try context.fetch(request).count == 1)
  }

  @Test("A destination without a class of its own is a ManagedObject, and keeps its inverse too")
  func destinationWithoutClass() throws {
    let dune = book("Dune")
    let shelf = try context.insert(entityNamed: "Shelf")
    try shelf.setValue(.string("Fiction"), forKey: "label")
    dune.addToShelves(shelf)
    #expect(dune.shelves == [shelf])
    #expect(try shelf.objects(forKey: "books") == [dune])
  }

  @Test("Typed keys build predicates and sort descriptors, before and after saving")
  func typedFetches() throws {
    let herbert = Author(context: context, name: "Herbert")
    for (title, pages) in [("Dune", 412), ("Children of Dune", 444), ("Emma", 474), ("Anathem", 937)] {
      let book = book(title, pages: Int32(pages))
      if title.contains("Dune") { book.author = herbert }
    }
    let request = Book.fetchRequest(
      predicate: Book.Keys.pageCount > 420 && Book.Keys.title.contains("e", options: .caseInsensitive),
      sortDescriptors: [Book.Keys.pageCount.descending])
    #expect(try context.fetch(request).map(\.title) == ["Anathem", "Emma", "Children of Dune"])
    try context.save()
    let other = container.newContext()
    #expect(try other.fetch(request).map(\.title) == ["Anathem", "Emma", "Children of Dune"])
    let byAuthor = Book.fetchRequest(
      predicate: Book.Keys.author.appending(Author.Keys.name) == "Herbert", sortDescriptors: [Book.Keys.title.ascending]
    )
    #expect(try other.fetch(byAuthor).map(\.title) == ["Children of Dune", "Dune"])
    #expect(try other.count(for: Book.fetchRequest(predicate: Book.Keys.isbn.isNil)) == 4)
  }

  @Test("Properties renamed or escaped for clashes store under the model's names")
  func renamedProperties() throws {
    let author = Author(context: context, name: "Le Guin")
    author.authorID = 7
    author.authorDescription = "wrote Earthsea"
    author.authorSelf = "Ursula"
    author.default = true
    #expect(try author.value(forKey: "id") == .integer(7))
    #expect(try author.value(forKey: "description") == .string("wrote Earthsea"))
    #expect(author.description.contains("Author"))
    #expect(author.id == author.objectID)
    try context.save()
    let other = container.newContext()
    let found = try other.fetch(
      Author.fetchRequest(predicate: Author.Keys.authorID == 7 && Author.Keys.default == true))
    #expect(found.map(\.authorSelf) == ["Ursula"])
  }

  @Test("The embedded schema reads back as the model: same versions, same version hashes")
  func embeddedSchema() throws {
    let embedded = try LibraryModel.bundle()
    let disk = try ModelBundle(contentsOf: CodegenFixtures.library.path)
    #expect(embedded.name == "Library")
    #expect(embedded.versions.map(\.name) == disk.versions.map(\.name))
    #expect(embedded.currentVersion.name == "Library 2")
    #expect(LibraryModel.generatedVersionName == "Library 2")
    for (mine, theirs) in zip(embedded.versions, disk.versions) {
      #expect(mine.versionHashes == theirs.versionHashes)
    }
    #expect(
      LibraryModel.entityClasses.map { String(describing: $0) } == ["Author", "Book", "Chapter", "Item", "Magazine"])
  }

  @Test("A store written from the model's files opens with the embedded schema alone")
  func fileStoreWithEmbeddedSchema() throws {
    let directory = TestPaths.temporaryDirectory("codegen-store")
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("Library.sqlite")
    do {
      let disk = try ModelBundle(contentsOf: CodegenFixtures.library.path)
      let writer = try PersistentContainer(bundle: disk, options: .file(url), classes: LibraryModel.entityClasses)
      let context = writer.newContext()
      _ = Author(context: context, name: "Herbert")
      try context.save()
    }
    let reader = try LibraryModel.makeContainer(options: .file(url))
    let readerContext = reader.newContext()
    #expect(try readerContext.fetch(Author.fetchRequest()).map(\.name) == ["Herbert"])

    // A store at the older version is recognized as such (and refused without a migrator).
    let oldURL = directory.appendingPathComponent("Old.sqlite")
    do {
      let old = try PersistentContainer(
        bundle: ModelBundle(contentsOf: CodegenFixtures.library.path), versionName: "Library", options: .file(oldURL))
      try old.newContext().save()
    }
    #expect {
      try LibraryModel.makeContainer(options: .file(oldURL))
    } throws: { error in
      "\(error)".contains("'Library'")
    }
  }
}
