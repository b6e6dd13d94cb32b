import Foundation
import ModelCodegen
import TestSupport
import Testing

/// Names that clash with Swift keywords, common types, modules and the members every generated
/// class has are escaped or renamed, each with a warning that says which and why; the user's
/// renames take precedence.
@Suite("Names and clashes")
struct NamingTests {
  private func warnings(_ code: GeneratedCode) -> [String: [String]] {
    Dictionary(grouping: code.diagnostics, by: \.code).mapValues { $0.map(\.message) }
  }

  @Test("Every clash of the Clashes model is handled, with a warning naming it")
  func clashes() throws {
    let code = try CodegenFixtures.generate(CodegenFixtures.clashes)
    #expect(code.diagnostics.allSatisfy { $0.severity == .warning })
    let byCode = warnings(code)
    let renamedClasses = byCode["codegen-renamed-class"] ?? []
    #expect(renamedClasses.count == 3)
    #expect(renamedClasses.contains { $0.contains("'KeysEntity'") && $0.contains("nested type 'Keys'") })
    #expect(renamedClasses.contains { $0.contains("'PersistenceEntity'") && $0.contains("module Persistence") })
    #expect(renamedClasses.contains { $0.contains("'TypeEntity'") })
    let shadowed = (byCode["codegen-shadowed-type"] ?? []).joined(separator: "\n")
    for type in ["Foundation.Data", "Foundation.Date", "Swift.Error", "Swift.Set", "Swift.Task"] {
      #expect(shadowed.contains("shadows \(type)"), "\(type)")
    }
    #expect(shadowed.contains("Swift's concurrency Task is then written Swift.Task"))
    let renamed = (byCode["codegen-renamed-property"] ?? []).joined(separator: "\n")
    for (from, to) in [
      ("id", "dataID"), ("description", "dataDescription"), ("hash", "dataHash"), ("self", "dataSelf"),
      ("init", "dataInit"), ("context", "dataContext"), ("layout", "dataLayout"), ("objectID", "dataObjectID"),
      ("entityName", "dataEntityName"), ("Swift", "dataSwift"), ("Type", "dataType"), ("Protocol", "setProtocol"),
    ] {
      #expect(renamed.contains("'\(from)' of entity") && renamed.contains("named '\(to)'"), "\(from)")
    }
    let escaped = (byCode["codegen-escaped-name"] ?? []).joined(separator: "\n")
    #expect(escaped.contains("'class'") && escaped.contains("'default'"))
    #expect(byCode["codegen-sanitized-name"]?.first?.contains("'some_name'") == true)

    let data = try #require(code.files.first { $0.name == "Data+Entity.swift" }).contents
    #expect(data.contains("var `class`: Swift.String?"))
    #expect(data.contains("var dataID: Foundation.UUID?"))
    #expect(data.contains("Persistence.EntityAccess.optionalValue(self, \"id\", slot: 6)"))
    #expect(data.contains("var keys: KeysEntity?"))
    #expect(data.contains("static let `default` = Persistence.PropertyKey<Data, Swift.Int16?>(\"default\")"))
    // A property named like a module, and a class named like one, would hide it from generated code.
    #expect(!data.contains("var Swift"))
    #expect(code.files.contains { $0.name == "PersistenceEntity+Entity.swift" })
  }

  @Test("The user's renames name classes and properties, and silence the clash they avoid")
  func renames() throws {
    let code = try CodegenFixtures.generate(
      CodegenFixtures.tasks, CodegenOptions(renames: ["Task": "TaskItem", "Task.id": "uuid", "Tag.name": "label"]))
    #expect(code.diagnostics.isEmpty)
    #expect(
      code.files.map(\.name) == [
        "Note+Entity.swift", "Project+Entity.swift", "Tag+Entity.swift", "TaskItem+Entity.swift", "Tasks+Schema.swift",
      ])
    let task = code.files[3].contents
    #expect(task.contains("final class TaskItem: Persistence.ManagedObject, Persistence.GeneratedEntity"))
    #expect(task.contains("static let entityName: Swift.String = \"Task\""))
    #expect(task.contains("var uuid: Foundation.UUID"))
    #expect(
      task.contains("convenience init(context: Persistence.ObjectContext, uuid: Foundation.UUID, title: Swift.String)"))
    #expect(code.files[0].contents.contains("var task: TaskItem?"))
    #expect(code.files[1].contents.contains("var tasks: Swift.Set<TaskItem>"))
    #expect(code.files[2].contents.contains("static let label = Persistence.PropertyKey<Tag, Swift.String>(\"name\")"))
  }

  @Test(
    "Renames that name nothing, or give no identifier, are errors",
    arguments: [
      ("Taks=Item", "names the entity 'Taks'"),
      ("Task.titel=heading", "names the property 'titel'"),
      ("Task=Task Item", "does not give a Swift identifier"),
    ])
  func badRenames(_ rename: String, _ message: String) throws {
    let parts = rename.split(separator: "=").map(String.init)
    #expect {
      try CodegenFixtures.generate(CodegenFixtures.tasks, CodegenOptions(renames: [parts[0]: parts[1]]))
    } throws: { error in
      (error as? CodegenError)?.message.contains(message) == true
    }
  }

  @Test("Each entity's code generation setting is honoured, and the override replaces it")
  func codeGenerationModes() throws {
    let asModel = try CodegenFixtures.generate(CodegenFixtures.library)
    #expect(
      asModel.files.map(\.name) == [
        "Author+Entity.swift", "Book+Entity.swift", "Chapter+Entity.swift", "Item+Entity.swift",
        "Magazine+Entity.swift",
        "Library+Schema.swift",
      ])
    let chapter = try #require(asModel.files.first { $0.name == "Chapter+Entity.swift" }).contents
    #expect(!chapter.contains("class Chapter"))
    #expect(chapter.contains("extension Chapter: Persistence.GeneratedEntity {"))
    let book = try #require(asModel.files.first { $0.name == "Book+Entity.swift" }).contents
    #expect(book.contains("final class Book: Item {}"))
    #expect(book.contains("var shelves: Swift.Set<Persistence.ManagedObject>"))
    let item = try #require(asModel.files.first { $0.name == "Item+Entity.swift" }).contents
    #expect(item.contains("class Item: Persistence.ManagedObject, Persistence.GeneratedEntity {"))
    #expect(!item.contains("final class Item"))
    #expect(!item.contains("convenience init"), "an abstract entity gets no inserting initializer")
    #expect(item.contains("case Swift.ObjectIdentifier(Book.self): \"Book\""))

    let classes = try CodegenFixtures.generate(CodegenFixtures.library, CodegenOptions(modeOverride: .class))
    #expect(classes.files.contains { $0.name == "Shelf+Entity.swift" })
    #expect(
      try #require(classes.files.first { $0.name == "Chapter+Entity.swift" }).contents.contains("final class Chapter"))
    #expect(try #require(classes.files.first { $0.name == "Book+Entity.swift" }).contents.contains("Swift.Set<Shelf>"))

    let categories = try CodegenFixtures.generate(CodegenFixtures.library, CodegenOptions(modeOverride: .category))
    #expect(categories.files.allSatisfy { !$0.contents.contains("\nclass ") && !$0.contents.contains("final class ") })
    let magazine = try #require(categories.files.first { $0.name == "Magazine+Entity.swift" }).contents
    #expect(!magazine.contains("GeneratedEntity"), "the conformance comes from Item's extension")
  }

  @Test("Optionality follows the model, scalars included; the access level is applied")
  func typesAndAccess() throws {
    let code = try CodegenFixtures.generate(CodegenFixtures.library, CodegenOptions(accessLevel: .public))
    let book = try #require(code.files.first { $0.name == "Book+Entity.swift" }).contents
    for declaration in [
      "public var pageCount: Swift.Int32 {", "public var rating: Swift.Float? {", "public var weight: Swift.Double? {",
      "public var price: Foundation.Decimal? {", "public var identifier: Foundation.UUID {",
      "public var website: Foundation.URL? {", "public var cover: Foundation.Data? {",
      "public var keywords: [Swift.String]? {", "public var stock: [Swift.String: Swift.Int] {",
      "public var color: ColorTransformer.Value? {", "public var legacy: Foundation.Data? {",
      "public var scratch: DataModel.AttributeValue? {", "public var chapters: [Chapter] {",
      "public func insertIntoChapters(_ value: Chapter, at index: Swift.Int)",
    ] {
      #expect(book.contains(declaration), "\(declaration)")
    }
    #expect(
      code.diagnostics.map(\.code) == [
        "codegen-escaped-name", "codegen-renamed-property", "codegen-renamed-property", "codegen-renamed-property",
        "codegen-transformable-as-data",
      ])
  }

  @Test("A version other than the current one, by name; an unknown one is an error")
  func versions() throws {
    let old = try CodegenFixtures.generate(CodegenFixtures.library, CodegenOptions(versionName: "Library"))
    #expect(old.versionName == "Library")
    let schema = try #require(old.files.last).contents
    #expect(schema.contains("static let generatedVersionName: Swift.String = \"Library\""))
    #expect(schema.contains("static let currentVersionName: Swift.String = \"Library 2\""))
    #expect {
      try CodegenFixtures.generate(CodegenFixtures.library, CodegenOptions(versionName: "Library 9"))
    } throws: { error in
      (error as? CodegenError)?.message == "the model has no version 'Library 9'"
    }
  }
}
