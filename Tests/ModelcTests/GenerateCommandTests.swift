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
