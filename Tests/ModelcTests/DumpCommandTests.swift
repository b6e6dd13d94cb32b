import Foundation
import TestSupport
import Testing

/// `modelc dump` run as a user runs it: the model's canonical JSON on standard output,
/// byte-identical from run to run, every version or the one asked for; exit 1 for a model or
/// version that does not exist, 2 for a wrong command line.
@Suite(
  "modelc dump",
  .enabled(if: ModelcProcess.executable != nil, Comment(rawValue: ModelcProcess.absentReason)))
struct DumpCommandTests {
  /// The JSON object a run printed.
  static func object(_ result: ProcessRun) throws -> [String: Any] {
    let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    return try #require(parsed as? [String: Any], "not a JSON object: \(result.output)")
  }

  @Test("Every version in migration order, the current one marked, each entity with its properties and hash")
  func everyVersion() throws {
    let result = try ModelcProcess.run(["dump", TestPaths.tasksModel.path])
    #expect(result.status == 0, "\(result.error)")
    let versions = try #require(try Self.object(result)["versions"] as? [[String: Any]])
    #expect(versions.map { $0["name"] as? String } == ["Tasks", "Tasks 2", "Tasks 3", "Tasks 4"])
    #expect(versions.map { $0["isCurrent"] as? Bool } == [false, false, false, true])
    let tasks3 = versions[2]
    let entities = try #require(tasks3["entities"] as? [[String: Any]])
    #expect(Set(entities.compactMap { $0["name"] as? String }) == ["Project", "Tag", "Task"])
    let task = try #require(entities.first { $0["name"] as? String == "Task" })
    let hash = try #require(task["hash"] as? String)
    #expect(hash.count == 64 && hash.allSatisfy(\.isHexDigit), "entity hash \(hash)")
    let attributes = try #require(task["attributes"] as? [[String: Any]])
    let title = try #require(attributes.first { $0["name"] as? String == "title" })
    #expect(title["attributeType"] as? String == "String")
    let relationships = try #require(task["relationships"] as? [[String: Any]])
    #expect(Set(relationships.compactMap { $0["name"] as? String }) == ["project", "tags"])
    // Two versions with different entities have different checksums.
    #expect(versions[0]["hash"] as? String != versions[2]["hash"] as? String)
  }

  @Test("The same model gives byte-identical output; --version gives that version alone, with the same JSON")
  func deterministicAndOneVersion() throws {
    let first = try ModelcProcess.run(["dump", TestPaths.tasksModel.path, "--format", "json"])
    let second = try ModelcProcess.run(["dump", TestPaths.tasksModel.path])
    #expect(first.status == 0 && second.status == 0)
    #expect(first.output == second.output)
    #expect(first.output.hasSuffix("}\n"))

    let one = try ModelcProcess.run(["dump", TestPaths.tasksModel.path, "--version", "Tasks 2"])
    #expect(one.status == 0, "\(one.error)")
    let versions = try #require(try Self.object(one)["versions"] as? [[String: Any]])
    #expect(versions.map { $0["name"] as? String } == ["Tasks 2"])
    let all = try #require(try Self.object(first)["versions"] as? [[String: Any]])
    func canonical(_ value: Any) throws -> Data {
      try JSONSerialization.data(withJSONObject: value, options: .sortedKeys)
    }
    #expect(try canonical(versions[0]) == canonical(all[1]))
  }

  @Test("A version or model that does not exist exits 1 and names what does; a wrong format exits 2")
  func errors() throws {
    let version = try ModelcProcess.run(["dump", TestPaths.tasksModel.path, "--version", "Tasks 9"])
    #expect(version.status == 1)
    #expect(version.error.contains("the model has no version 'Tasks 9'"), "\(version.error)")
    #expect(version.error.contains("note: its versions are: Tasks, Tasks 2, Tasks 3, Tasks 4"))
    #expect(version.output.isEmpty)

    let missing = try ModelcProcess.run(["dump", "/nonexistent/Shop.xcdatamodeld"])
    #expect(missing.status == 1)
    #expect(missing.output.isEmpty)

    let format = try ModelcProcess.run(["dump", TestPaths.tasksModel.path, "--format", "yaml"])
    #expect(format.status == 2)
    #expect(format.error.contains("invalid value 'yaml' for option '--format'"), "\(format.error)")
  }
}
