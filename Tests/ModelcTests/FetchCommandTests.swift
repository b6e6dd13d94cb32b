import Foundation
import Persistence
import TestSupport
import Testing

@testable import modelc

/// `modelc fetch`: a store with known objects, fetched in-process (exit status) and through the
/// built binary (what it prints).
@Suite("modelc fetch")
struct FetchCommandTests {

  /// A file store of the Tasks model at version `Tasks 3` (fetch reads a store at the version it
  /// is at): "Paint" (priority 1, due, tagged home, in project House), "Report" (3), "Garden" (2,
  /// notes, tagged home and work); its store UUID.
  static func makeStore() throws -> (url: URL, storeUUID: String) {
    let url = TestPaths.temporaryDirectory("fetch-command").appendingPathComponent("tasks.sqlite")
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    let container = try PersistentContainer(bundle: bundle, versionName: "Tasks 3", options: .file(url))
    let context = container.newContext()
    let home = try context.insert(entityNamed: "Tag")
    try home.setValue(.string("home"), forKey: "name")
    let work = try context.insert(entityNamed: "Tag")
    try work.setValue(.string("work"), forKey: "name")
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("House"), forKey: "name")
    let specs: [(String, Int64, Date?, String?, [ManagedObject])] = [
      ("Paint", 1, Date(timeIntervalSinceReferenceDate: 800_000_000.5), nil, [home]), ("Report", 3, nil, nil, []),
      ("Garden", 2, nil, "roses & café", [home, work]),
    ]
    for (title, priority, due, notes, tags) in specs {
      let task = try context.insert(entityNamed: "Task")
      try task.setValue(.uuid(UUID()), forKey: "id")
      try task.setValue(.string(title), forKey: "title")
      try task.setValue(.integer(priority), forKey: "priority")
      try task.setValue(due.map { .date($0) }, forKey: "dueDate")
      try task.setValue(notes.map { .string($0) }, forKey: "notes")
      for tag in tags { try task.addObject(tag, forKey: "tags") }
      if title == "Paint" { try task.setObject(project, forKey: "project") }
    }
    try context.save()
    return (url, try StoreConnection.readMetadata(at: url).storeUUID)
  }

  static func arguments(_ store: URL, _ extra: [String]) -> [String] {
    ["fetch", store.path, "--model", TestPaths.tasksModel.path, "--entity", "Task"] + extra
  }

  static func modelc(_ arguments: [String]) throws -> ProcessRun? {
    guard let executable = TestPaths.executable(named: "modelc") else { return nil }
    return try ProcessRun.run(executable, arguments)
  }

  @Test("Exit status: 0 for a fetch, 1 for a bad predicate, sort, entity or store, 2 for a wrong command line")
  func exitStatus() throws {
    let (store, _) = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.deletingLastPathComponent()) }
    #expect(CommandLineTool.run(Self.arguments(store, ["--where", "priority > 1", "--count"])) == .success)
    #expect(CommandLineTool.run(Self.arguments(store, ["--where", "title =! 'x'"])) == .failure)
    #expect(CommandLineTool.run(Self.arguments(store, ["--where", "titl == 'x'"])) == .failure)
    #expect(CommandLineTool.run(Self.arguments(store, ["--sort", "title:up"])) == .failure)
    #expect(
      CommandLineTool.run(["fetch", store.path, "--model", TestPaths.tasksModel.path, "--entity", "Tsk"]) == .failure)
    #expect(
      CommandLineTool.run(["fetch", "/nonexistent/x.sqlite", "--model", TestPaths.tasksModel.path, "--entity", "Task"])
        == .failure)
    #expect(CommandLineTool.run(Self.arguments(store, ["--bogus"])) == .usage)
    #expect(CommandLineTool.run(Self.arguments(store, ["--limit", "-1"])) == .usage)
    #expect(CommandLineTool.run(Self.arguments(store, ["--format", "xml"])) == .usage)
    #expect(CommandLineTool.run(["fetch", store.path, "--entity", "Task"]) == .usage)
  }

  @Test(
    "JSON: one object per result, _id in Core Data's URI form, every attribute and relationship",
    .enabled(if: TestPaths.executable(named: "modelc") != nil, "the modelc executable is not built"))
  func json() throws {
    let (store, storeUUID) = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.deletingLastPathComponent()) }
    let run = try #require(
      try Self.modelc(Self.arguments(store, ["--where", "ANY tags.name == 'home'", "--sort", "priority:desc"])))
    #expect(run.status == 0, "\(run.error)")
    let objects = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [[String: Any]])
    #expect(objects.map { $0["title"] as? String } == ["Garden", "Paint"])
    let garden = objects[0]
    let paint = objects[1]
    let prefix = "x-coredata://\(storeUUID)/"
    #expect((garden["_id"] as? String)?.hasPrefix(prefix + "Task/p") == true)
    #expect(garden["notes"] as? String == "roses & café")
    #expect(garden["dueDate"] is NSNull)
    #expect(garden["project"] is NSNull)
    #expect((garden["tags"] as? [String])?.count == 2)
    #expect((garden["tags"] as? [String])?.allSatisfy { $0.hasPrefix(prefix + "Tag/p") } == true)
    #expect(paint["priority"] as? Int == 1)
    #expect(paint["isCompleted"] as? Bool == false)
    #expect(paint["dueDate"] as? String == "2026-05-09T06:13:20.500Z")
    #expect((paint["project"] as? String)?.hasPrefix(prefix + "Project/p") == true)
    #expect(UUID(uuidString: paint["id"] as? String ?? "") != nil)
    // Keys in the entity's order: _id, attributes, relationships.
    let keys = run.output.split(separator: "\n").prefix(12).compactMap { line -> String? in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      guard trimmed.hasPrefix("\""), let end = trimmed.range(of: "\": ") else { return nil }
      return String(trimmed[trimmed.index(after: trimmed.startIndex)..<end.lowerBound])
    }
    #expect(keys == ["_id", "dueDate", "id", "isCompleted", "notes", "priority", "title", "project", "tags"])

    let empty = try #require(try Self.modelc(Self.arguments(store, ["--where", "FALSEPREDICATE"])))
    #expect(empty.output == "[]\n")
  }

  @Test(
    "--count prints the number alone; --limit and --offset slice; --format table aligns columns",
    .enabled(if: TestPaths.executable(named: "modelc") != nil, "the modelc executable is not built"))
  func countAndTable() throws {
    let (store, _) = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.deletingLastPathComponent()) }
    #expect(try Self.modelc(Self.arguments(store, ["--count", "--where", "priority >= 2"]))?.output == "2\n")
    let sliced = try #require(
      try Self.modelc(Self.arguments(store, ["--sort", "title", "--limit", "1", "--offset", "1"])))
    let titles = (try JSONSerialization.jsonObject(with: Data(sliced.output.utf8)) as? [[String: Any]])?.map {
      $0["title"] as? String
    }
    #expect(titles == ["Paint"])
    let table = try #require(try Self.modelc(Self.arguments(store, ["--format", "table", "--sort", "title"])))
    let lines = table.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 5)
    #expect(lines[0].hasPrefix("_id"))
    #expect(lines[1].contains("Garden") && lines[1].contains("2 objects"))
    #expect(lines[2].contains("Project/p"))
    #expect(lines[4] == "3 Task objects")
    // Cut at the header's columns (counted in characters: "café" is four), every row's cells
    // start where their column does.
    let header = Array(lines[0])
    let starts = header.indices.filter { $0 == 0 || (header[$0] != " " && header[$0 - 1] == " ") }
    let names = Self.cells(of: lines[0], at: starts)
    let rows = lines[1...3].map { Self.cells(of: $0, at: starts) }
    #expect(names.contains("title") && names.contains("notes"))
    for row in rows { #expect(row.allSatisfy { !$0.hasPrefix(" ") }, "\(row)") }
    let column = { (name: String) in names.firstIndex(of: name).map { index in rows.map { $0[index] } } }
    #expect(column("title") == ["Garden", "Paint", "Report"])
    #expect(column("notes") == ["roses & café", "", ""])
    #expect(column("priority") == ["2", "1", "3"])
  }

  /// The cells of a table line cut at `starts` (character offsets), trailing spaces removed.
  static func cells(of line: String, at starts: [Int]) -> [String] {
    let characters = Array(line)
    return starts.indices.map { index in
      let start = min(starts[index], characters.count)
      let end = index + 1 < starts.count ? min(starts[index + 1], characters.count) : characters.count
      var cell = String(characters[start..<end])
      while cell.hasSuffix(" ") { cell.removeLast() }
      return cell
    }
  }

  @Test(
    "A bad predicate prints the parse error with its column on standard error",
    .enabled(if: TestPaths.executable(named: "modelc") != nil, "the modelc executable is not built"))
  func badPredicate() throws {
    let (store, _) = try Self.makeStore()
    defer { try? FileManager.default.removeItem(at: store.deletingLastPathComponent()) }
    let run = try #require(try Self.modelc(Self.arguments(store, ["--where", "title =! 'x'"])))
    #expect(run.status == 1)
    #expect(run.output.isEmpty)
    #expect(run.error.contains("invalid predicate: column 8: expected a value after '='"))
    let flag = try #require(try Self.modelc(Self.arguments(store, ["--colour"])))
    #expect(flag.status == 2)
  }
}
