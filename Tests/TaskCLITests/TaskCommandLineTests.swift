import Foundation
import Persistence
import TestSupport
import Testing

/// The `task` executable, run with a temporary store.
@Suite(
  "task command line", .enabled(if: TestPaths.executable(named: "task") != nil, "the task executable is not built"))
struct TaskCommandLineTests {

  let store = TestPaths.temporaryDirectory("task-cli").appendingPathComponent("tasks.sqlite")

  func task(_ arguments: String..., environment: [String: String?] = [:]) throws -> ProcessRun {
    let executable = try #require(TestPaths.executable(named: "task"))
    return try ProcessRun.run(
      executable, arguments + ["--store", store.path], environment: ["NO_COLOR": nil].merging(environment) { $1 })
  }

  func json(_ run: ProcessRun) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8))
    return (object as? [[String: Any]]) ?? [(object as? [String: Any]) ?? [:]]
  }

  @Test("add prints the id; list orders by priority and due date; JSON has every field")
  func addAndList() throws {
    let first = try task("add", "Try modelc")
    #expect(first.status == 0)
    let id = first.output.trimmingCharacters(in: .whitespacesAndNewlines)
    #expect(UUID(uuidString: id) != nil)
    #expect(
      try task("add", "Pay rent", "--due", "2026-12-01", "--priority", "high", "--tag", "home", "--tag", "money").status
        == 0)
    #expect(
      try task("add", "Call Zoé", "--priority", "high", "--notes", "about the café", "--project", "Family").status == 0)
    let list = try task("list", "--json")
    #expect(list.status == 0)
    let tasks = try json(list)
    #expect(tasks.map { $0["title"] as? String } == ["Pay rent", "Call Zoé", "Try modelc"])
    let rent = tasks[0]
    #expect(rent["dueDate"] as? String == "2026-12-01")
    #expect(rent["priority"] as? String == "high")
    #expect(rent["tags"] as? [String] == ["home", "money"])
    #expect(rent["project"] is NSNull)
    #expect(rent["isCompleted"] as? Bool == false)
    #expect(tasks[1]["project"] as? String == "Family")
    #expect(tasks[2]["id"] as? String == id)
    // The table, without colour when stdout is not a terminal.
    let table = try task("list")
    #expect(table.output.contains("Pay rent"))
    #expect(!table.output.contains("\u{1B}["))
    #expect(table.output.split(separator: "\n").first?.hasPrefix("ID") == true)
  }

  @Test("search, filters, done, reopen, edit, show and delete by prefix")
  func lifecycle() throws {
    let id = try task("add", "Write the café report", "--tag", "work").output.trimmingCharacters(
      in: .whitespacesAndNewlines)
    _ = try task("add", "Unrelated")
    #expect(try json(try task("list", "--search", "CAFE", "--json")).count == 1)
    #expect(try json(try task("list", "--tag", "work", "--json")).count == 1)
    let prefix = String(id.prefix(8))
    #expect(try task("done", prefix).status == 0)
    #expect(try json(try task("list", "--done", "--json")).map { $0["id"] as? String } == [id])
    #expect(try json(try task("list", "--pending", "--json")).count == 1)
    #expect(try task("reopen", prefix).status == 0)
    #expect(try json(try task("list", "--done", "--json")).isEmpty)
    #expect(try task("edit", prefix, "--title", "Report", "--due", "2027-01-15", "--priority", "low").status == 0)
    let shown = try json(try task("show", prefix, "--json"))[0]
    #expect(shown["title"] as? String == "Report")
    #expect(shown["dueDate"] as? String == "2027-01-15")
    #expect(shown["priority"] as? String == "low")
    #expect(try task("edit", prefix, "--no-due").status == 0)
    #expect(try json(try task("show", prefix, "--json"))[0]["dueDate"] is NSNull)
    #expect(try task("delete", prefix).status == 0)
    #expect(try json(try task("list", "--json")).count == 1)
  }

  @Test("Errors: one clear line on stderr, with exit codes 1 and 2")
  func errors() throws {
    let empty = try task("add", "")
    #expect(empty.status == 1)
    #expect(empty.error.trimmingCharacters(in: .whitespacesAndNewlines) == "task add: a task needs a title")
    // A title of only spaces is as empty as no title: refused, and no task is created.
    let blank = try task("add", "   ")
    #expect(blank.status == 1)
    #expect(blank.error.trimmingCharacters(in: .whitespacesAndNewlines) == "task add: a task needs a title")
    #expect(try json(try task("list", "--json")).isEmpty)
    let missing = try task("show", "abcd")
    #expect(missing.status == 1)
    #expect(missing.error.contains("no task with the identifier 'abcd'"))
    let badDate = try task("add", "x", "--due", "tomorrow")
    #expect(badDate.status == 2)
    #expect(badDate.error.contains("--due"))
    let badPriority = try task("add", "x", "--priority", "urgent")
    #expect(badPriority.status == 2)
    let unknown = try task("list", "--frobnicate")
    #expect(unknown.status == 2)
    #expect(unknown.error.contains("--frobnicate"))
    #expect(try task("list", "--pending", "--done").status == 2)
  }

  @Test("An ambiguous prefix lists the candidates; a longer one picks the task")
  func ambiguousPrefix() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    do {
      let context = try PersistentContainer(bundle: bundle, options: .file(store)).newContext()
      for id in ["abcd1234-0000-4000-8000-000000000001", "abcd5678-0000-4000-8000-000000000002"] {
        let object = try context.insert(entityNamed: "Task")
        try object.setValue(.uuid(UUID(uuidString: id)!), forKey: "id")
        try object.setValue(.string("Task \(id.prefix(8))"), forKey: "title")
      }
      try context.save()
    }
    let run = try task("show", "ABCD")
    #expect(run.status == 1)
    #expect(
      run.error.trimmingCharacters(in: .whitespacesAndNewlines)
        == "task show: the prefix 'ABCD' is ambiguous; it matches abcd1234-0000-4000-8000-000000000001, abcd5678-0000-4000-8000-000000000002"
    )
    let picked = try json(try task("show", "abcd5", "--json"))[0]
    #expect(picked["title"] as? String == "Task abcd5678")
  }

  @Test("A store written at model version 'Tasks' is migrated on open, with one line on stderr")
  func migratesOldStore() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    do {
      let container = try PersistentContainer(bundle: bundle, versionName: "Tasks", options: .file(store))
      let context = container.newContext()
      for (index, title) in ["Old one", "Old two", "Old three"].enumerated() {
        let object = try context.insert(entityNamed: "Task")
        try object.setValue(.uuid(UUID()), forKey: "id")
        try object.setValue(.string(title), forKey: "title")
        try object.setValue(.integer(Int64(index + 1)), forKey: "priority")
      }
      try context.save()
    }
    let run = try task("list", "--json")
    #expect(run.status == 0)
    let lines = run.error.split(separator: "\n")
    #expect(lines.count == 1)
    #expect(lines.first?.contains("from model version 'Tasks' to 'Tasks 3'") == true)
    #expect(try json(run).map { $0["title"] as? String } == ["Old one", "Old two", "Old three"])
    // Opened again: nothing more to migrate, nothing printed.
    let again = try task("list")
    #expect(again.error.isEmpty)
  }
}
