import Foundation
import Persistence
import TestSupport
import Testing

/// The `task` executable, run with a temporary store.
@Suite(
  "task command line", .enabled(if: TestPaths.executable(named: "task") != nil, "the task executable is not built"))
struct TaskCommandLineTests {

  let store = TestPaths.temporaryDirectory("task-cli").appendingPathComponent("tasks.sqlite")

  /// Runs `task` on the test's store, in UTC (so that the times it prints can be checked).
  func task(_ arguments: String..., environment: [String: String?] = [:]) throws -> ProcessRun {
    let executable = try #require(TestPaths.executable(named: "task"))
    return try ProcessRun.run(
      executable, arguments + ["--store", store.path],
      environment: ["NO_COLOR": nil, "TZ": "UTC"].merging(environment) { $1 })
  }

  /// A date `task --json` wrote (ISO 8601).
  func isoDate(_ value: Any?) throws -> Date {
    let text = try #require(value as? String)
    return try #require(ISO8601DateFormatter().date(from: text), "not an ISO 8601 date: \(text)")
  }

  /// `YYYY-MM-DD HH:MM` in UTC, as `task` prints moments with `TZ=UTC`.
  func minute(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm"
    return formatter.string(from: date)
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
    #expect(rent["completedAt"] is NSNull)
    #expect(rent["notes"] as? [String] == [])
    #expect(tasks[1]["project"] as? String == "Family")
    #expect(tasks[1]["notes"] as? [String] == ["about the café"])
    #expect(
      tasks.map { $0.keys.sorted() }.allSatisfy {
        $0 == ["completedAt", "dueDate", "id", "isCompleted", "notes", "priority", "project", "tags", "title"]
      })
    #expect(tasks[2]["id"] as? String == id)
    // The table, without colour when stdout is not a terminal.
    let table = try task("list")
    #expect(table.output.contains("Pay rent"))
    #expect(!table.output.contains("\u{1B}["))
    #expect(table.output.split(separator: "\n").first?.hasPrefix("ID") == true)
  }

  @Test("The table's columns line up after titles with any characters, and due dates print as days")
  func tableColumns() throws {
    #expect(try task("add", "Plan the 🎉 party", "--due", "2026-03-07", "--tag", "fun").status == 0)
    #expect(try task("add", "Buy milk", "--tag", "shop").status == 0)
    #expect(try task("add", "Café", "--due", "2026-12-31", "--tag", "café").status == 0)
    let list = try task("list")
    #expect(list.status == 0, "\(list.error)")
    let lines = list.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    let header = try #require(lines.first)
    let tagsColumn = try #require(header.range(of: "TAGS")).lowerBound
    let offset = header.distance(from: header.startIndex, to: tagsColumn)
    for (line, tag) in zip(lines.dropFirst(), ["fun", "café", "shop"]) {
      // The tag starts at the header's column, counted in characters.
      #expect(String(line.dropFirst(offset)) == tag, "\(lines)")
    }
    #expect(lines[1].contains("2026-03-07") && lines[2].contains("2026-12-31"), "\(lines)")
    #expect(lines[3].contains(" - "), "an undated task shows -: \(lines)")
    // Empty cells at the end of a line leave no padding behind.
    #expect(try task("add", "Untagged, no project  ").status == 0)
    let again = try task("list").output.split(separator: "\n").map(String.init)
    #expect(again.count == 5)
    #expect(again.allSatisfy { !$0.hasSuffix(" ") }, "\(again)")
    #expect(again.contains { $0.hasSuffix("Untagged, no project") }, "\(again)")
    // Each run closes the store on its way out: the write-ahead log is checkpointed and removed,
    // not left to grow and to be read again by every later run.
    #expect(!FileManager.default.fileExists(atPath: store.path + "-wal"))
  }

  @Test("search, filters, done, reopen, edit, show and delete by prefix")
  func lifecycle() throws {
    let id = try task("add", "Write the café report", "--tag", "work").output.trimmingCharacters(
      in: .whitespacesAndNewlines)
    _ = try task("add", "Unrelated")
    #expect(try json(try task("list", "--search", "CAFE", "--json")).count == 1)
    #expect(try json(try task("list", "--tag", "work", "--json")).count == 1)
    let prefix = String(id.prefix(8))
    // Whole seconds: the JSON gives the completion date to the second.
    let before = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    #expect(try task("done", prefix).status == 0)
    let after = Date()
    let done = try json(try task("list", "--done", "--json"))
    #expect(done.map { $0["id"] as? String } == [id])
    #expect(done.first?["isCompleted"] as? Bool == true)
    let completedAt = try isoDate(done.first?["completedAt"])
    #expect(before <= completedAt && completedAt <= after, "\(completedAt) not within \(before)...\(after)")
    #expect((done.first?["completedAt"] as? String)?.hasSuffix("Z") == true)
    // The table of done tasks says when each was done (local time; UTC here).
    let doneTable = try task("list", "--done").output.split(separator: "\n").map(String.init)
    #expect(doneTable.count == 2)
    #expect(doneTable.first?.hasPrefix("ID        DONE              PRIORITY") == true, "\(doneTable)")
    #expect(doneTable.last?.hasPrefix("\(prefix)  \(minute(completedAt))  medium") == true, "\(doneTable)")
    #expect(try task("show", prefix).output.contains("\ndone     yes, \(minute(completedAt))\n"))
    // Marked done again: it keeps the date it was first done.
    #expect(try task("done", prefix).status == 0)
    #expect(
      try json(try task("show", prefix, "--json"))[0]["completedAt"] as? String == done.first?["completedAt"] as? String
    )
    let pending = try json(try task("list", "--pending", "--json"))
    #expect(pending.map { $0["title"] as? String } == ["Unrelated"])
    #expect(pending.first?["completedAt"] is NSNull)
    #expect(try task("reopen", prefix).status == 0)
    #expect(try json(try task("list", "--done", "--json")).isEmpty)
    let reopened = try json(try task("show", prefix, "--json"))[0]
    #expect(reopened["completedAt"] is NSNull)
    #expect(reopened["isCompleted"] as? Bool == false)
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

  @Test(
    "Notes: --notes adds them in order on add and edit, show lists them, --no-notes deletes them, search finds them")
  func notes() throws {
    let before = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
    let id = try task("add", "Plan the trip", "--notes", "book the train", "--notes", "ask Zoé\nabout the dates").output
      .trimmingCharacters(in: .whitespacesAndNewlines)
    let prefix = String(id.prefix(8))
    _ = try task("add", "Unrelated", "--notes", "nothing to see")
    #expect(try task("edit", prefix, "--notes", "pack light").status == 0)
    let after = Date()
    let shown = try json(try task("show", prefix, "--json"))[0]
    #expect(shown["notes"] as? [String] == ["book the train", "ask Zoé\nabout the dates", "pack light"])
    // `show` lists them in order, each with when it was written, lines of a note kept together.
    let text = try task("show", prefix).output
    let noteLines = text.split(separator: "\n").drop { !$0.hasPrefix("notes") }.map(String.init)
    #expect(noteLines.count == 4, "\(text)")
    let pattern = #/(\d{4}-\d{2}-\d{2} \d{2}:\d{2})  /#
    let stamps = noteLines.compactMap { $0.firstMatch(of: pattern).map { String($0.1) } }
    #expect(stamps.count == 3)
    #expect(stamps.allSatisfy { $0 >= minute(before) && $0 <= minute(after) }, "\(stamps)")
    if stamps.count == 3 {
      #expect(
        noteLines == [
          "notes    \(stamps[0])  book the train", "         \(stamps[1])  ask Zoé",
          "                           about the dates", "         \(stamps[2])  pack light",
        ])
    }
    // Search looks in the texts of the notes, ignoring case and accents.
    #expect(try json(try task("list", "--search", "ZOE", "--json")).map { $0["id"] as? String } == [id])
    #expect(try json(try task("list", "--search", "PACK LIGHT", "--json")).map { $0["id"] as? String } == [id])
    #expect(try json(try task("list", "--search", "nothing", "--json")).map { $0["title"] as? String } == ["Unrelated"])
    // --no-notes deletes them; with --notes, the new ones replace them.
    #expect(try task("edit", prefix, "--no-notes").status == 0)
    #expect(try json(try task("show", prefix, "--json"))[0]["notes"] as? [String] == [])
    #expect(try task("show", prefix).output.hasSuffix("\nnotes    -\n"))
    #expect(try json(try task("list", "--search", "zoé", "--json")).isEmpty)
    #expect(try task("edit", prefix, "--no-notes", "--notes", "new plan", "--notes", "then go").status == 0)
    #expect(try json(try task("show", prefix, "--json"))[0]["notes"] as? [String] == ["new plan", "then go"])
    // A note without text is refused, and nothing of the edit is kept.
    let blank = try task("edit", prefix, "--title", "Renamed", "--notes", "  ")
    #expect(blank.status == 1)
    #expect(blank.error.trimmingCharacters(in: .whitespacesAndNewlines) == "task edit: a note needs some text")
    let unchanged = try json(try task("show", prefix, "--json"))[0]
    #expect(unchanged["title"] as? String == "Plan the trip")
    #expect(unchanged["notes"] as? [String] == ["new plan", "then go"])
    let blankAdd = try task("add", "Another", "--notes", "")
    #expect(blankAdd.status == 1)
    #expect(blankAdd.error.trimmingCharacters(in: .whitespacesAndNewlines) == "task add: a note needs some text")
    #expect(
      try json(try task("list", "--json")).compactMap { $0["title"] as? String }.sorted() == [
        "Plan the trip", "Unrelated",
      ])
    // Deleting the task deletes its notes with it.
    #expect(try task("delete", prefix).status == 0)
    #expect(try json(try task("list", "--search", "plan", "--json")).isEmpty)
  }

  @Test(
    "A store written at model version 'Tasks' is migrated on open, with one line on stderr")
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
    #expect(lines.first?.contains("from model version 'Tasks' to 'Tasks 4'") == true)
    #expect(try json(run).map { $0["title"] as? String } == ["Old one", "Old two", "Old three"])
    // Opened again: nothing more to migrate, nothing printed.
    let again = try task("list")
    #expect(again.error.isEmpty)
  }
}
