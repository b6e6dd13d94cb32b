import Foundation
import Persistence
import TestSupport
import Testing

@testable import ModelCodegen

/// Generated code compiles against `Persistence` under Swift 6 strict concurrency with warnings
/// as errors: for the package's models in every option combination that matters, and for every
/// model of the corpus.
@Suite("Generated code compiles")
struct CompileTests {
  /// What an app writes next to the Library model's generated code (as Tests/GeneratedLibrary).
  static let libraryAppCode = [
    "App.swift": """
    import Foundation
    import Persistence

    final class Chapter: ManagedObject {}

    struct Color: Codable, Sendable {
      var red: Double
    }

    enum ColorTransformer: AttributeTransformer {
      static func encode(_ value: Color) throws -> Data { try JSONEncoder().encode(value) }
      static func decode(_ data: Data) throws -> Color { try JSONDecoder().decode(Color.self, from: data) }
      static var defaultValue: Color { Color(red: 0) }
    }

    func useTheGeneratedAPI(_ context: ObjectContext) throws {
      let book = Book(context: context, title: "Dune", identifier: UUID(), stock: [:])
      book.author = Author(context: context, name: "Herbert")
      book.addToChapters(Chapter(context: context, number: 1, book: book))
      _ = try context.fetch(Item.fetchRequest(predicate: Item.Keys.title == "Dune", sortDescriptors: [Item.Keys.addedAt.descending]))
      _ = try LibraryModel.makeContainer(options: .inMemory)
      Task { @MainActor in _ = LibraryModel.name }
    }
    """
  ]

  @Test(
    "The package's models compile",
    arguments: [
      ("Tasks, public, file per entity", CodegenFixtures.tasks, CodegenOptions(accessLevel: .public)),
      ("Tasks, internal, one file", CodegenFixtures.tasks, CodegenOptions(fileLayout: .singleFile)),
      ("Tasks, renamed", CodegenFixtures.tasks, CodegenOptions(renames: ["Task": "TaskItem", "Task.id": "uuid"])),
      ("Tasks, version Tasks", CodegenFixtures.tasks, CodegenOptions(versionName: "Tasks")),
      ("Clashes", CodegenFixtures.clashes, CodegenOptions(accessLevel: .public)),
      ("Clashes, one file", CodegenFixtures.clashes, CodegenOptions(fileLayout: .singleFile)),
    ])
  func packageModels(_ name: String, _ model: URL, _ options: CodegenOptions) async throws {
    let code = try CodegenFixtures.generate(model, options)
    let problems = await SwiftCompiler.check(code.files)
    #expect(problems == nil, "\(name): \(problems ?? "")")
  }

  @Test(
    "A generated file of another generated-code interface stops compiling at its version check, which says to regenerate"
  )
  func versionCheck() async throws {
    #expect(FileHeader.currentGeneratedCodeVersion == Persistence.GeneratedCodeVersion.current)
    let code = try CodegenFixtures.generate(CodegenFixtures.tasks, CodegenOptions(fileLayout: .singleFile))
    #expect(code.files.allSatisfy { $0.contents.contains("Persistence.GeneratedCodeVersion_1 {}") })
    let newer = code.files.map { file in
      var file = file
      file.contents = file.contents.replacingOccurrences(of: "GeneratedCodeVersion_1", with: "GeneratedCodeVersion_2")
      return file
    }
    let problems = try #require(await SwiftCompiler.check(newer))
    #expect(problems.contains("GeneratedCodeVersion_2"))
    let source = try #require(newer.first { $0.contents.contains("GeneratedCodeVersion_2") }).contents
    let failing = try #require(source.range(of: "fileprivate struct _ModelcGeneratedCodeVersionCheck"))
    #expect(source[..<failing.lowerBound].hasSuffix("using the same modelc as the package.\n"))
    #expect(source.contains("regenerate it with `modelc generate`"))
  }

  @Test("The Library model compiles with the code an app writes next to it")
  func libraryWithAppCode() async throws {
    for layout in CodegenOptions.FileLayout.allCases {
      let code = try CodegenFixtures.generate(CodegenFixtures.library, CodegenOptions(fileLayout: layout))
      let problems = await SwiftCompiler.check(code.files, extraSources: Self.libraryAppCode)
      #expect(problems == nil, "\(layout): \(problems ?? "")")
    }
  }

  @Test("Every entity of the Library model as a class, and as a category with the app's classes")
  func libraryOverrides() async throws {
    let asClasses = try CodegenFixtures.generate(
      CodegenFixtures.library, CodegenOptions(modeOverride: .class))
    var app = Self.libraryAppCode["App.swift"]!
    app = app.replacingOccurrences(of: "final class Chapter: ManagedObject {}\n", with: "")
    var problems = await SwiftCompiler.check(asClasses.files, extraSources: ["App.swift": app])
    #expect(problems == nil, "class: \(problems ?? "")")

    let asCategories = try CodegenFixtures.generate(CodegenFixtures.library, CodegenOptions(modeOverride: .category))
    let classes = """
      import Persistence

      class Item: ManagedObject {}
      final class Book: Item {}
      final class Magazine: Item {}
      final class Author: ManagedObject {}
      final class Shelf: ManagedObject {}
      """
    problems = await SwiftCompiler.check(
      asCategories.files, extraSources: Self.libraryAppCode.merging(["Classes.swift": classes]) { $1 })
    #expect(problems == nil, "category: \(problems ?? "")")
  }

  @Test(
    "Every model of the corpus compiles, every entity generated as a class",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func corpus() async throws {
    let models = TestPaths.corpusModels()
    #expect(!models.isEmpty)
    let failures = await withTaskGroup(of: String?.self) { group in
      for model in models {
        group.addTask {
          do {
            let code = try CodegenFixtures.generate(model, CodegenOptions(modeOverride: .class))
            return await SwiftCompiler.check(code.files).map { "\(model.path):\n\($0)" }
          } catch {
            return "\(model.path): \(error)"
          }
        }
      }
      var failures: [String] = []
      for await failure in group { if let failure { failures.append(failure) } }
      return failures.sorted()
    }
    #expect(failures.isEmpty, "\(failures.joined(separator: "\n\n"))")
  }

  @Test("Embedded schemas read back byte for byte, whatever they hold")
  func stringLiteralsReadBack() async throws {
    let texts = [
      "plain\nlines\n",
      "no final line break",
      "quotes \"\"\" and \"#\"## and \\#(x) \\n \\(y)",
      "carriage\r\nreturns\r, tabs\t, controls \u{1}\u{7F}\u{85}, separators \u{2028}\u{2029}, émoji 🦆, nul \u{0}",
      "",
      "\n\n  indented\n\t\n",
    ]
    var source = "let texts: [String] = [\n"
    for text in texts { source += SwiftStringLiteral.multilineRaw(text) + ",\n" }
    source += "]\nfor text in texts { print(Array(text.utf8)) }\n"
    let directory = TestPaths.temporaryDirectory("codegen-literals")
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(source.utf8).write(to: directory.appendingPathComponent("main.swift"))
    let (status, output) = await SwiftCompiler.run(
      ["swiftc", "-swift-version", "6", "main.swift", "-o", "literals"], in: directory)
    try #require(status == 0, "\(output)")
    let (runStatus, printed) = await SwiftCompiler.run(
      [directory.appendingPathComponent("literals").path], in: directory)
    #expect(runStatus == 0)
    #expect(printed == texts.map { "\(Array($0.utf8))\n" }.joined())
  }
}
