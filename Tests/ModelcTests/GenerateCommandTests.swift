import Foundation
import TestSupport
import Testing

@testable import modelc

/// `modelc generate`: files written, and exit status 0, 1 or 2.
@Suite("modelc generate")
struct GenerateCommandTests {
  @Test("Writes the entity files and the schema file; a second run changes nothing")
  func generates() throws {
    let output = TestPaths.temporaryDirectory("generate-command")
    defer { try? FileManager.default.removeItem(at: output) }
    let arguments = ["generate", TestPaths.tasksModel.path, "--output", output.path, "--access-level", "public", "-q"]
    #expect(CommandLineTool.run(arguments) == .success)
    let names = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
    #expect(
      names == [
        "Note+Entity.swift", "Project+Entity.swift", "Tag+Entity.swift", "Task+Entity.swift", "Tasks+Schema.swift",
      ])
    let task = try String(contentsOf: output.appendingPathComponent("Task+Entity.swift"), encoding: .utf8)
    #expect(task.contains("public final class Task: Persistence.ManagedObject, Persistence.GeneratedEntity"))
    #expect(CommandLineTool.run(arguments) == .success)

    let single = output.appendingPathComponent("single")
    #expect(
      CommandLineTool.run([
        "generate", TestPaths.tasksModel.path, "-o", single.path, "--single-file", "--codegen", "category",
        "--rename", "Task=TaskItem", "--version", "Tasks 2", "-q",
      ]) == .success)
    let entities = try String(contentsOf: single.appendingPathComponent("Tasks+Entities.swift"), encoding: .utf8)
    #expect(entities.contains("extension TaskItem: Persistence.GeneratedEntity"))
    #expect(entities.contains("version 'Tasks 2'"))
  }

  @Test("--mappings embeds the mapping models that match the model's versions in the schema file, base64")
  func embedsMappings() throws {
    let output = TestPaths.temporaryDirectory("generate-mappings")
    defer { try? FileManager.default.removeItem(at: output) }
    let model = TestPaths.fixtures.appendingPathComponent("models/Bookshelf.xcdatamodeld").path
    let mappings = TestPaths.fixtures.appendingPathComponent("mappings").path
    #expect(
      CommandLineTool.run(["generate", model, "-o", output.path, "--single-file", "--mappings", mappings, "-q"])
        == .success)
    let schema = try String(contentsOf: output.appendingPathComponent("Bookshelf+Schema.swift"), encoding: .utf8)
    #expect(schema.contains("static let mappingModelFiles: [(name: Swift.String, base64: Swift.String)] = ["))
    #expect(schema.contains(#"name: "BookshelfToBookshelf2","#))
    let bytes = try Data(
      contentsOf: TestPaths.fixtures.appendingPathComponent(
        "mappings/BookshelfToBookshelf2.xcmappingmodel/xcmapping.xml"))
    #expect(schema.contains(String(bytes.base64EncodedString().prefix(100))))
    // Without --mappings the schema file has no such list.
    let plain = output.appendingPathComponent("plain")
    #expect(CommandLineTool.run(["generate", model, "-o", plain.path, "--single-file", "-q"]) == .success)
    let plainSchema = try String(contentsOf: plain.appendingPathComponent("Bookshelf+Schema.swift"), encoding: .utf8)
    #expect(!plainSchema.contains("mappingModelFiles"))
  }

  @Test(
    "Exit status 1 when the model or an option names something that does not exist",
    arguments: [
      ["generate", "Models/Missing.xcdatamodeld", "--output", "OUT"],
      ["generate", "MODEL", "--output", "OUT", "--version", "Tasks 9"],
      ["generate", "MODEL", "--output", "OUT", "--rename", "Taks=Item"],
    ])
  func failures(_ arguments: [String]) {
    let output = TestPaths.temporaryDirectory("generate-command")
    defer { try? FileManager.default.removeItem(at: output) }
    let resolved = arguments.map {
      $0 == "MODEL" ? TestPaths.tasksModel.path : $0 == "OUT" ? output.path : $0
    }
    #expect(CommandLineTool.run(resolved) == .failure)
  }

  @Test(
    "Exit status 2 for a wrong command line",
    arguments: [
      ["generate", "MODEL"],
      ["generate", "MODEL", "--output", "OUT", "--codegen", "manual"],
      ["generate", "MODEL", "--output", "OUT", "--access-level", "open"],
      ["generate", "MODEL", "--output", "OUT", "--rename", "Task"],
    ])
  func usage(_ arguments: [String]) {
    let resolved = arguments.map {
      $0 == "MODEL" ? TestPaths.tasksModel.path : $0 == "OUT" ? FileManager.default.temporaryDirectory.path : $0
    }
    #expect(CommandLineTool.run(resolved) == .usage)
  }
}
