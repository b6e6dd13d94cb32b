import Foundation
import Migration
import TestSupport

/// A small library model whose step from "Library" to "Library 2" inference refuses (an
/// attribute renamed without a renaming identifier, a type change, a new required attribute,
/// text split into objects of a new entity), and a "Library 3" one inferred step later.
enum LibraryFixture {
  static func version(_ name: String, _ body: String) -> ModelVersion {
    let (version, diagnostics) = ModelReader.readVersion(
      xml: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\(body)</model>
        """, name: name)
    precondition(version != nil && !diagnostics.containsErrors, "\(diagnostics)")
    return version!
  }

  static let v1 = version(
    "Library",
    """
    <entity name="Author">
      <attribute name="name" attributeType="String"/>
      <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
    </entity>
    <entity name="Book">
      <attribute name="title" attributeType="String"/>
      <attribute name="pages" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
      <attribute name="isRead" optional="YES" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
      <attribute name="notes" optional="YES" attributeType="String"/>
      <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
      <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
    </entity>
    <entity name="Tag">
      <attribute name="name" attributeType="String"/>
      <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
    </entity>
    """)

  static let v2 = version(
    "Library 2",
    """
    <entity name="Author">
      <attribute name="fullName" attributeType="String"/>
      <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
    </entity>
    <entity name="Book">
      <attribute name="title" attributeType="String" minValueString="1"/>
      <attribute name="pageCount" attributeType="Integer 64" usesScalarValueType="YES"/>
      <attribute name="readAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
      <attribute name="shelf" attributeType="String" defaultValueString="main"/>
      <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
      <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
      <relationship name="remarks" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Remark" inverseName="book" inverseEntity="Remark"/>
    </entity>
    <entity name="Remark">
      <attribute name="text" attributeType="String"/>
      <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="remarks" inverseEntity="Book"/>
    </entity>
    <entity name="Tag">
      <attribute name="label" attributeType="String"/>
      <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
    </entity>
    """)

  static let v3 = version(
    "Library 3",
    """
    <entity name="Author">
      <attribute name="fullName" attributeType="String"/>
      <attribute name="born" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
      <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
    </entity>
    <entity name="Book">
      <attribute name="title" attributeType="String" minValueString="1"/>
      <attribute name="pageCount" attributeType="Integer 64" usesScalarValueType="YES"/>
      <attribute name="readAt" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
      <attribute name="shelf" attributeType="String" defaultValueString="main"/>
      <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
      <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="books" inverseEntity="Tag"/>
      <relationship name="remarks" optional="YES" toMany="YES" deletionRule="Cascade" ordered="YES" destinationEntity="Remark" inverseName="book" inverseEntity="Remark"/>
    </entity>
    <entity name="Remark">
      <attribute name="text" attributeType="String"/>
      <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="remarks" inverseEntity="Book"/>
    </entity>
    <entity name="Tag">
      <attribute name="label" attributeType="String"/>
      <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="tags" inverseEntity="Book"/>
    </entity>
    """)

  static let bundle = ModelBundle(name: "Library", versions: [v1, v2, v3])

  /// The mapping a developer writes for Library → Library 2, as Xcode's New Mapping Model
  /// starts it and then edited: every expression is one the SQL fast path compiles.
  static func mapping(
    edit: (inout [MappingModel.EntityMapping]) throws -> Void = { _ in }
  ) throws -> MappingModel {
    let template = MappingTemplate.make(
      name: "LibraryToLibrary2", source: v1, destination: v2, sourcePath: "Library.xcdatamodel",
      destinationPath: "Library 2.xcdatamodel")
    var mapping = MappingModelLoader.load(template, bundle: bundle).mapping
    func set(_ entity: String, _ property: String, _ format: String?) throws {
      let index = mapping.entityMappings.firstIndex { $0.destinationEntity == entity }!
      let value = try format.map { try MappingExpression(format: $0) }
      if let at = mapping.entityMappings[index].attributeMappings.firstIndex(where: {
        $0.destinationProperty == property
      }) {
        mapping.entityMappings[index].attributeMappings[at].value = value
      } else if let at = mapping.entityMappings[index].relationshipMappings.firstIndex(where: {
        $0.destinationProperty == property
      }) {
        mapping.entityMappings[index].relationshipMappings[at].value = value
      } else {
        mapping.entityMappings[index].attributeMappings.append(.init(destinationProperty: property, value: value))
      }
    }
    try set("Author", "fullName", "$source.name")
    try set("Book", "pageCount", "$source.pages")
    try set("Book", "readAt", nil)
    try set("Tag", "label", #"FUNCTION($source.name, "uppercaseString")"#)
    try edit(&mapping.entityMappings)
    return mapping
  }

  /// A store at "Library" with `books` books (every third read, with notes of two paragraphs
  /// on every other one), one author per five books, and three tags.
  static func seed(books: Int = 20, directory label: String = "heavyweight") throws -> URL {
    let url = TestPaths.temporaryDirectory(label).appendingPathComponent("Library.sqlite")
    let container = try PersistentContainer(bundle: bundle, versionName: "Library", options: .file(url))
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
