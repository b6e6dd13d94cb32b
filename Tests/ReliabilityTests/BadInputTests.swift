import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Every command's inputs in every bad shape — missing, a directory, the wrong format,
/// unreadable, huge, not UTF-8, a path with spaces and non-ASCII letters — end with exit 1 or 2
/// and one clear message naming the problem, never a crash or SQLite's own wording.
@Suite("Bad input across the command line")
struct BadInputTests {
  /// One run of `modelc` or `task` and what it must print.
  struct Case: CustomTestStringConvertible, Sendable {
    enum Tool: Sendable { case modelc, task }
    var name: String
    var tool: Tool
    /// The arguments; `@` is replaced by the scratch folder's path, `MODEL` by the Tasks model.
    var arguments: [String]
    /// The exit status expected.
    var status: Int32
    /// Text standard error must contain (empty for a successful run).
    var message: String
    /// Whether the case depends on file permissions being enforced.
    var needsPermissions = false

    var testDescription: String { name }
  }

  static let cases: [Case] = [
    // Stores of every bad kind, for each command that opens one.
    .init(
      name: "store info: missing store", tool: .modelc,
      arguments: ["store", "info", "@/missing.sqlite", "--model", "MODEL"], status: 1, message: "no store at"),
    .init(
      name: "store info: directory", tool: .modelc,
      arguments: ["store", "info", "@/folder.sqlite", "--model", "MODEL"], status: 1, message: "is a directory"),
    .init(
      name: "store info: empty file", tool: .modelc,
      arguments: ["store", "info", "@/empty.sqlite", "--model", "MODEL"], status: 1,
      message: "is not a store: the file is empty"),
    .init(
      name: "store info: text file", tool: .modelc, arguments: ["store", "info", "@/text.sqlite", "--model", "MODEL"],
      status: 1, message: "is not a store: it is not a SQLite database"),
    .init(
      name: "store info: truncated", tool: .modelc,
      arguments: ["store", "info", "@/truncated.sqlite", "--model", "MODEL"], status: 1,
      message: "is not a store: it is truncated"),
    .init(
      name: "store info: plain SQLite database", tool: .modelc,
      arguments: ["store", "info", "@/plain.sqlite", "--model", "MODEL"], status: 1,
      message: "without a Z_METADATA table"),
    .init(
      name: "store info: unreadable", tool: .modelc,
      arguments: ["store", "info", "@/unreadable.sqlite", "--model", "MODEL"], status: 1,
      message: "not readable (permission denied)", needsPermissions: true),
    .init(
      name: "store info: spaces and non-ASCII", tool: .modelc,
      arguments: ["store", "info", "@/a folder é/Tâches 1.sqlite", "--model", "MODEL"], status: 0, message: ""),
    .init(
      name: "store info: read-only folder", tool: .modelc,
      arguments: ["store", "info", "@/locked/Tasks.sqlite", "--model", "MODEL"], status: 0, message: "",
      needsPermissions: true),
    .init(
      name: "store export: read-only folder", tool: .modelc,
      arguments: ["store", "export", "@/locked/Tasks.sqlite", "--model", "MODEL", "--format", "json"], status: 0,
      message: "", needsPermissions: true),
    .init(
      name: "store export: directory", tool: .modelc,
      arguments: ["store", "export", "@/folder.sqlite", "--model", "MODEL", "--format", "json"], status: 1,
      message: "is a directory"),
    .init(
      name: "store export: text file", tool: .modelc,
      arguments: ["store", "export", "@/text.sqlite", "--model", "MODEL", "--format", "json"], status: 1,
      message: "not a SQLite database"),
    .init(
      name: "store export: truncated", tool: .modelc,
      arguments: ["store", "export", "@/truncated.sqlite", "--model", "MODEL", "--format", "json"], status: 1,
      message: "truncated"),
    .init(
      name: "fetch: text file", tool: .modelc,
      arguments: ["fetch", "@/text.sqlite", "--model", "MODEL", "--entity", "Task"], status: 1,
      message: "not a SQLite database"),
    .init(
      name: "fetch: empty file", tool: .modelc,
      arguments: ["fetch", "@/empty.sqlite", "--model", "MODEL", "--entity", "Task"], status: 1,
      message: "the file is empty"),
    .init(
      name: "migrate: text file", tool: .modelc, arguments: ["migrate", "@/text.sqlite", "--model", "MODEL"], status: 1,
      message: "not a SQLite database"),
    .init(
      name: "migrate: directory", tool: .modelc, arguments: ["migrate", "@/folder.sqlite", "--model", "MODEL"],
      status: 1, message: "is a directory"),
    .init(
      name: "migrate: truncated", tool: .modelc, arguments: ["migrate", "@/truncated.sqlite", "--model", "MODEL"],
      status: 1, message: "truncated"),
    .init(
      name: "store seed: text file", tool: .modelc,
      arguments: ["store", "seed", "@/text.sqlite", "--model", "MODEL", "--rows", "1"], status: 1,
      message: "not a SQLite database"),
    .init(
      name: "store seed: huge row count", tool: .modelc,
      arguments: ["store", "seed", "@/new.sqlite", "--model", "MODEL", "--rows", "99999999999999999999"], status: 2,
      message: "invalid value '99999999999999999999' for option '--rows'"),
    .init(
      name: "store create: existing directory", tool: .modelc,
      arguments: ["store", "create", "@/folder.sqlite", "--model", "MODEL"], status: 1, message: "already exists"),
    .init(
      name: "store import: into a text file", tool: .modelc,
      arguments: ["store", "import", "@/text.sqlite", "--model", "MODEL", "@/one.json"], status: 1,
      message: "not a SQLite database"),
    .init(
      name: "store import: into a read-only file", tool: .modelc,
      arguments: ["store", "import", "@/readonly.sqlite", "--model", "MODEL", "@/one.json"], status: 1,
      message: "the file is read-only", needsPermissions: true),
    // Import files.
    .init(
      name: "store import: missing file", tool: .modelc,
      arguments: ["store", "import", "@/Tasks.sqlite", "--model", "MODEL", "@/missing.json"], status: 1,
      message: "cannot read '@/missing.json': no such file"),
    .init(
      name: "store import: directory", tool: .modelc,
      arguments: ["store", "import", "@/Tasks.sqlite", "--model", "MODEL", "@/folder.sqlite"], status: 1,
      message: "it is a directory"),
    .init(
      name: "store import: invalid UTF-8", tool: .modelc,
      arguments: ["store", "import", "@/Tasks.sqlite", "--model", "MODEL", "@/latin1.json"], status: 1,
      message: "@/latin1.json:2:16: the file is not UTF-8 text"),
    .init(
      name: "store import: not JSON", tool: .modelc,
      arguments: ["store", "import", "@/Tasks.sqlite", "--model", "MODEL", "@/text.sqlite"], status: 1,
      message: "the file is not valid JSON"),
    .init(
      name: "store import: nesting too deep", tool: .modelc,
      arguments: ["store", "import", "@/Tasks.sqlite", "--model", "MODEL", "@/deep.json"], status: 1,
      message: "nesting is too deep"),
    .init(
      name: "store import: huge number", tool: .modelc,
      arguments: ["store", "import", "@/Tasks.sqlite", "--model", "MODEL", "@/huge.json"], status: 1,
      message: "property 'priority'"),
    .init(
      name: "store import: unreadable file", tool: .modelc,
      arguments: ["store", "import", "@/Tasks.sqlite", "--model", "MODEL", "@/unreadable.json"], status: 1,
      message: "permission denied", needsPermissions: true),
    // Models.
    .init(
      name: "validate: missing model", tool: .modelc, arguments: ["validate", "@/missing.xcdatamodeld"], status: 1,
      message: "no model at"),
    .init(
      name: "validate: text file", tool: .modelc, arguments: ["validate", "@/text.sqlite"], status: 1,
      message: "malformed XML"),
    .init(
      name: "validate: contents not UTF-8", tool: .modelc, arguments: ["validate", "@/Latin1.xcdatamodel"], status: 1,
      message: "not valid UTF-8"),
    .init(
      name: "validate: nesting too deep", tool: .modelc, arguments: ["validate", "@/Deep.xcdatamodel"], status: 1,
      message: "nested more than"),
    .init(
      name: "dump: directory without versions", tool: .modelc, arguments: ["dump", "@/folder.sqlite"], status: 1,
      message: "holds no .xcdatamodel"),
    .init(
      name: "diff: text file", tool: .modelc, arguments: ["diff", "@/text.sqlite"], status: 1, message: "malformed XML"),
    .init(
      name: "generate: output is a file", tool: .modelc, arguments: ["generate", "MODEL", "--output", "@/text.sqlite"],
      status: 1, message: "cannot create the output directory"),
    .init(
      name: "store info: model missing", tool: .modelc,
      arguments: ["store", "info", "@/Tasks.sqlite", "--model", "@/missing.xcdatamodeld"], status: 1,
      message: "no model at"),
    .init(
      name: "store info: model unreadable", tool: .modelc,
      arguments: ["store", "info", "@/Tasks.sqlite", "--model", "@/Unreadable.xcdatamodel"], status: 1,
      message: "Unreadable.xcdatamodel", needsPermissions: true),
    // Values.
    .init(
      name: "fetch: huge limit", tool: .modelc,
      arguments: [
        "fetch", "@/Tasks.sqlite", "--model", "MODEL", "--entity", "Task", "--limit", "99999999999999999999",
      ], status: 2, message: "'--limit'"),
    .init(
      name: "fetch: negative offset", tool: .modelc,
      arguments: ["fetch", "@/Tasks.sqlite", "--model", "MODEL", "--entity", "Task", "--offset", "-1"], status: 2,
      message: "'--offset'"),
    .init(
      name: "fetch: predicate nested 30,000 deep", tool: .modelc,
      arguments: [
        "fetch", "@/Tasks.sqlite", "--model", "MODEL", "--entity", "Task", "--where",
        String(repeating: "NOT ", count: 30_000) + "title == 'a'",
      ], status: 1, message: "nests more than 200 levels"),
    .init(
      name: "fetch: unparsable sort", tool: .modelc,
      arguments: ["fetch", "@/Tasks.sqlite", "--model", "MODEL", "--entity", "Task", "--sort", "title:up"], status: 1,
      message: "invalid sort"),
    .init(
      name: "fetch: non-ASCII predicate", tool: .modelc,
      arguments: [
        "fetch", "@/Tasks.sqlite", "--model", "MODEL", "--entity", "Task", "--where", "title CONTAINS[cd] 'café ✓'",
      ], status: 0, message: ""),
    .init(
      name: "fetch: unknown entity", tool: .modelc,
      arguments: ["fetch", "@/Tasks.sqlite", "--model", "MODEL", "--entity", "Tâche"], status: 1,
      message: "no entity 'Tâche'"),
    // task.
    .init(
      name: "task list: directory", tool: .task, arguments: ["list", "--store", "@/folder.sqlite"], status: 1,
      message: "is a directory"),
    .init(
      name: "task add: text file", tool: .task, arguments: ["add", "x", "--store", "@/text.sqlite"], status: 1,
      message: "not a SQLite database"),
    .init(
      name: "task list: truncated", tool: .task, arguments: ["list", "--store", "@/truncated.sqlite"], status: 1,
      message: "truncated"),
    .init(
      name: "task add: read-only file", tool: .task, arguments: ["add", "x", "--store", "@/readonly.sqlite"], status: 1,
      message: "the file is read-only", needsPermissions: true),
    .init(
      name: "task add: read-only folder", tool: .task, arguments: ["add", "x", "--store", "@/locked/Tasks.sqlite"],
      status: 1, message: "is not writable", needsPermissions: true),
    .init(
      name: "task list: unreadable", tool: .task, arguments: ["list", "--store", "@/unreadable.sqlite"], status: 1,
      message: "not readable", needsPermissions: true),
    .init(
      name: "task add: impossible date", tool: .task,
      arguments: ["add", "x", "--due", "99999-99-99", "--store", "@/t.sqlite"], status: 2,
      message: "invalid value '99999-99-99' for option '--due'"),
    .init(
      name: "task add: unknown priority", tool: .task,
      arguments: ["add", "x", "--priority", String(repeating: "h", count: 10_000), "--store", "@/t.sqlite"], status: 2,
      message: "'--priority'"),
    .init(
      name: "task add: empty title", tool: .task, arguments: ["add", "", "--store", "@/t.sqlite"], status: 1,
      message: "title"),
    .init(
      name: "task add: spaces and non-ASCII store path", tool: .task,
      arguments: ["add", "Café ✓", "--store", "@/a folder é/Tâches 2.sqlite"], status: 0, message: ""),
    .init(
      name: "task show: unknown identifier", tool: .task, arguments: ["show", "zzzzzzzz", "--store", "@/t.sqlite"],
      status: 1, message: "no task"),
  ]

  /// The scratch folder with every kind of file the cases name.
  static func makeInputs() throws -> Scratch {
    let scratch = Scratch("bad-input")
    let good = try Reliability.seededStore(in: scratch.url)
    let goodBytes = [UInt8](try Data(contentsOf: good))
    try FileManager.default.createDirectory(at: scratch.file("folder.sqlite"), withIntermediateDirectories: true)
    try scratch.write("empty.sqlite", [])
    try scratch.write("text.sqlite", "hello, this is not a database\n")
    try scratch.write("truncated.sqlite", Array(goodBytes.prefix(3000)))
    try scratch.write("unreadable.sqlite", goodBytes)
    chmod(scratch.path("unreadable.sqlite"), 0)
    try scratch.write("readonly.sqlite", goodBytes)
    chmod(scratch.path("readonly.sqlite"), 0o444)
    try scratch.write("a folder é/Tâches 1.sqlite", goodBytes)
    try scratch.write("locked/Tasks.sqlite", goodBytes)
    chmod(scratch.path("locked"), 0o555)
    let plain = try SQLiteConnection(.file(scratch.path("plain.sqlite")))
    try plain.execute("CREATE TABLE notes (body TEXT)")
    try plain.close()

    let one = """
      {"Task": [{"_id": "t1", "id": "8E3C5B0A-64E6-4E4B-9C59-3C4E2B5C6D7E", "title": "One", "priority": 1, "completedAt": null}]}
      """
    try scratch.write("one.json", one)
    try scratch.write("latin1.json", Array("{\n  \"Task\": [\"caf".utf8) + [0xE9] + Array("\"]}".utf8))
    try scratch.write("deep.json", String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000))
    try scratch.write("huge.json", #"{"Task": [{"_id": "a", "title": "x", "priority": 1e400}]}"#)
    try scratch.write("unreadable.json", one)
    chmod(scratch.path("unreadable.json"), 0)

    try scratch.write(
      "Latin1.xcdatamodel/contents", Array("<?xml version=\"1.0\"?>\n<model>caf".utf8) + [0xE9] + Array("</model>".utf8)
    )
    try scratch.write(
      "Deep.xcdatamodel/contents",
      "<model>" + String(repeating: "<a>", count: 5_000) + String(repeating: "</a>", count: 5_000) + "</model>")
    let contents = try String(
      contentsOf: TestPaths.tasksModel.appendingPathComponent("Tasks 3.xcdatamodel/contents"), encoding: .utf8)
    try scratch.write("Unreadable.xcdatamodel/contents", contents)
    chmod(scratch.path("Unreadable.xcdatamodel/contents"), 0)
    return scratch
  }

  @Test(
    "Each bad input ends with exit 1 or 2 and one clear message",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)), arguments: cases)
  func badInput(_ testCase: Case) throws {
    if testCase.needsPermissions, let reason = Reliability.permissionWrapper.skipReason {
      print("skipping '\(testCase.name)': \(reason)")
      return
    }
    let scratch = try Self.makeInputs()
    let root = scratch.url.path
    let arguments = testCase.arguments.map {
      $0 == "MODEL" ? Reliability.tasksModel : $0.replacingOccurrences(of: "@/", with: root + "/")
    }
    let executable = testCase.tool == .modelc ? Reliability.modelc! : Reliability.task!
    let result = try Reliability.run(executable, arguments, enforcingPermissions: testCase.needsPermissions)
    let message = testCase.message.replacingOccurrences(of: "@/", with: root + "/")
    #expect(result.status == testCase.status, "\(testCase.name): \(result.error)")
    if testCase.status == 0 {
      #expect(result.error.isEmpty || !result.error.contains("error"), "\(result.error)")
    } else {
      #expect(result.error.contains(message), "\(testCase.name): \(result.error)")
      #expect(!result.error.contains("SQLite error"), "SQLite's own wording reached the user: \(result.error)")
      #expect(!result.error.contains("Fatal error") && !result.error.contains("crashed"), "\(result.error)")
      // One message: an error line (and notes under it), not a cascade.
      let errorLines = result.error.split(separator: "\n").filter { $0.contains("error") || $0.hasPrefix("task ") }
      #expect(errorLines.count <= 2, "\(result.error)")
    }
  }

  @Test(
    "A command-line argument that is not UTF-8 is read, repaired, and never crashes",
    .enabled(if: Reliability.executablesBuilt, Comment(rawValue: Reliability.executablesAbsent)))
  func invalidUTF8Arguments() throws {
    let scratch = try Self.makeInputs()
    let store = scratch.path("t.sqlite")
    // A Swift string cannot hold invalid UTF-8, so the shell's printf makes the argument.
    let show = try ProcessRun.run(
      URL(fileURLWithPath: "/bin/sh"),
      ["-c", #"exec "$0" show "$(printf 'ab\377\376cd')" --store "$1""#, Reliability.task!.path, store])
    #expect(show.status == 1)
    #expect(show.error.contains("no task with the identifier"), "\(show.error)")
    let fetch = try ProcessRun.run(
      URL(fileURLWithPath: "/bin/sh"),
      [
        "-c", #"exec "$0" fetch "$1" --model "$2" --entity Task --where "$(printf 'title == "\377"')""#,
        Reliability.modelc!.path, scratch.path("Tasks.sqlite"), Reliability.tasksModel,
      ])
    #expect(fetch.status == 0, "\(fetch.error)")
    #expect(fetch.output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
  }
}
