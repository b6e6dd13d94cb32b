import Foundation
import Migration
import Persistence
import TestSupport

/// A small library model (Tests/Fixtures/models/Bookshelf.xcdatamodeld) whose step from
/// "Bookshelf" to "Bookshelf 2" inference refuses (an
/// attribute renamed without a renaming identifier, a type change, a new required attribute,
/// text split into objects of a new entity), and a "Bookshelf 3" one inferred step later.
enum BookshelfFixture {
  /// `Tests/Fixtures/models/Bookshelf.xcdatamodeld`, read as Xcode wrote it.
  static let bundle: ModelBundle = {
    let read = ModelReader.read(
      path: TestPaths.fixtures.appendingPathComponent("models/Bookshelf.xcdatamodeld").path)
    precondition(read.bundle != nil && !read.diagnostics.containsErrors, "\(read.diagnostics)")
    return read.bundle!
  }()
  static var v1: ModelVersion { bundle.versions[0] }
  static var v2: ModelVersion { bundle.versions[1] }
  static var v3: ModelVersion { bundle.versions[2] }

  /// The mapping a developer writes for Bookshelf → Bookshelf 2, as Xcode's New Mapping Model
  /// starts it and then edited: every expression is one the SQL fast path compiles. It is
  /// `Tests/Fixtures/mappings/BookshelfToBookshelf2.xcmappingmodel`, read from disk.
  static func mapping(
    edit: (inout [MappingModel.EntityMapping]) throws -> Void = { _ in }
  ) throws -> MappingModel {
    var mapping = try MappingModel(
      contentsOf: TestPaths.fixtures.appendingPathComponent("mappings/BookshelfToBookshelf2.xcmappingmodel"),
      model: bundle)
    try edit(&mapping.entityMappings)
    return mapping
  }

  /// How the fixture mapping was made: `MappingTemplate` (what `modelc mapping new` writes), then
  /// four expressions edited.
  static func makeMappingFixture(at url: URL) throws {
    var template = MappingTemplate.make(
      name: "BookshelfToBookshelf2", source: v1, destination: v2, sourcePath: "Bookshelf.xcdatamodel",
      destinationPath: "Bookshelf 2.xcdatamodel")
    func set(_ entity: String, _ property: String, _ format: String?) throws {
      let index = template.entityMappings.firstIndex { $0.destinationEntity == entity }!
      let at = template.entityMappings[index].attributeMappings.firstIndex { $0.name == property }!
      template.entityMappings[index].attributeMappings[at].expression = try format.map {
        try MappingExpression(format: $0)
      }
    }
    try set("Author", "fullName", "$source.name")
    try set("Book", "pageCount", #"FUNCTION($source.pages, "coalesce:", 0)"#)
    try set("Book", "readAt", nil)
    try set("Tag", "label", #"FUNCTION($source.name, "uppercaseString")"#)
    try XcodeMappingWriter.write(template, to: url)
  }

  /// A store at "Bookshelf" with `books` books (every third read, with notes of two paragraphs
  /// on every other one), one author per five books, and three tags.
  static func seed(books: Int = 20, directory label: String = "heavyweight") throws -> URL {
    let url = TestPaths.temporaryDirectory(label).appendingPathComponent("Bookshelf.sqlite")
    let container = try PersistentContainer(bundle: bundle, versionName: "Bookshelf", options: .file(url))
    let context = container.newContext()
    var tags: [ManagedObject] = []
    for name in ["fiction", "history", "poetry"] {
      let tag = try context.insert(entityNamed: "Tag")
      try tag.setValue(.string(name), forKey: "name")
      tags.append(tag)
    }
    var author: ManagedObject?
    for index in 0..<books {
      if index % 5 == 0 {
        author = try context.insert(entityNamed: "Author")
        try author!.setValue(.string("Author \(index / 5)"), forKey: "name")
      }
      let book = try context.insert(entityNamed: "Book")
      try book.setValue(.string("Book \(index)"), forKey: "title")
      try book.setValue(.integer(Int64(100 + index)), forKey: "pages")
      try book.setValue(.boolean(index % 3 == 0), forKey: "isRead")
      if index % 2 == 0 {
        try book.setValue(.string("First of \(index).\n\nSecond of \(index)."), forKey: "notes")
      }
      try book.setObject(author, forKey: "author")
      try book.setObjects([tags[index % 3], tags[(index + 1) % 3]], forKey: "tags")
    }
    try context.save()
    return url
  }

  /// The bytes of every file next to a store, to check that a failed migration left them: the
  /// `-shm` (an index SQLite rebuilds when reading) and an empty `-wal` are not content.
  static func fingerprint(_ url: URL) -> [String: Data] {
    var result: [String: Data] = [:]
    let folder = url.deletingLastPathComponent()
    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.hasSuffix("-shm")
    {
      let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) ?? Data()
      if name.hasSuffix("-wal") && data.isEmpty { continue }
      result[name] = data
    }
    return result
  }
}
