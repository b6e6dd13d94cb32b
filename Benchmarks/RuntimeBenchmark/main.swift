import CSQLite
import Foundation
import Persistence

// Inserting N tasks in one save and fetching them all back, through the object context and
// through raw prepared SQLite statements in one transaction, in the same run, on stores of the
// same layout (the Tasks model's). Prints figures; asserts nothing.
//
//     swift run -c release runtime-benchmark [N] [ROUNDS]

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let rounds = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 3 : 3
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let bundle = try ModelBundle(contentsOf: packageRoot.appendingPathComponent("Models/Tasks.xcdatamodeld").path)
let directory = FileManager.default.temporaryDirectory.appendingPathComponent("modelc-benchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: directory) }

/// The values of task `index`, the same for both sides.
struct TaskValues {
  var id: UUID
  var title: String
  var priority: Int64
  var due: Date?
  var notes: String?

  init(_ index: Int) {
    var bytes = [UInt8](repeating: 0, count: 16)
    withUnsafeBytes(of: UInt64(index).bigEndian) { bytes.replaceSubrange(8..<16, with: $0) }
    bytes[0] = 0x42
    id = UUID(
      uuid: (
        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
        bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
      ))
    title = "Task number \(index)"
    priority = Int64(1 + index % 3)
    due = index % 4 == 0 ? nil : Date(timeIntervalSinceReferenceDate: 800_000_000 + Double(index) * 60.5)
    notes = index % 2 == 0 ? "Some notes about task \(index)" : nil
  }
}

let values = (0..<count).map(TaskValues.init)

@MainActor func measure(_ body: () throws -> Void) rethrows -> Duration {
  let clock = ContinuousClock()
  let start = clock.now
  try body()
  return clock.now - start
}

@MainActor func freshStore(_ name: String) throws -> URL {
  let url = directory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite")
  _ = try PersistentContainer(bundle: bundle, options: .file(url))
  return url
}

// MARK: - The object context

@MainActor func contextInsert(_ url: URL) throws -> Duration {
  let container = try PersistentContainer(bundle: bundle, options: .file(url))
  let context = container.newContext()
  return try measure {
    for task in values {
      let object = try context.insert(entityNamed: "Task")
      try object.setValue(.uuid(task.id), forKey: "id")
      try object.setValue(.string(task.title), forKey: "title")
      try object.setValue(.integer(task.priority), forKey: "priority")
      try object.setValue(task.due.map { .date($0) }, forKey: "dueDate")
      try object.setValue(task.notes.map { .string($0) }, forKey: "notes")
    }
    try context.save()
  }
}

@MainActor func contextFetch(_ url: URL) throws -> Duration {
  let container = try PersistentContainer(bundle: bundle, options: .file(url))
  let context = container.newContext()
  var checksum = 0
  var tasks: [ManagedObject] = []  // freed after the measure, as the raw rows are
  let duration = try measure {
    tasks = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    for task in tasks {
      if case .string(let title)? = try task.value(forKey: "title") { checksum &+= title.utf8.count }
    }
    precondition(tasks.count == count)
  }
  precondition(checksum > 0)
  return duration
}

// MARK: - Raw SQLite

@MainActor func check(_ code: Int32, _ database: OpaquePointer?, _ what: String) {
  guard code == SQLITE_OK || code == SQLITE_DONE || code == SQLITE_ROW else {
    fatalError("\(what): \(String(cString: sqlite3_errmsg(database)))")
  }
}

let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

@MainActor func rawInsert(_ url: URL) throws -> Duration {
  let mapping = StoreSchema(model: bundle.currentVersion).mapping(forEntityNamed: "Task")!
  func column(_ name: String) -> String { mapping.column(forAttribute: name)!.column }
  var database: OpaquePointer?
  check(sqlite3_open(url.path, &database), database, "open")
  defer { sqlite3_close(database) }
  return measure {
    check(sqlite3_exec(database, "BEGIN IMMEDIATE", nil, nil, nil), database, "begin")
    var statement: OpaquePointer?
    let sql =
      "INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, \(column("isCompleted")), \(column("priority")), \(column("dueDate")), \(column("notes")), \(column("title")), \(column("id"))) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)"
    check(sqlite3_prepare_v2(database, sql, -1, &statement, nil), database, "prepare")
    for (index, task) in values.enumerated() {
      sqlite3_bind_int64(statement, 1, Int64(index + 1))
      sqlite3_bind_int64(statement, 2, Int64(mapping.entityNumber))
      sqlite3_bind_int64(statement, 3, 0)
      sqlite3_bind_int64(statement, 4, task.priority)
      if let due = task.due {
        sqlite3_bind_double(statement, 5, due.timeIntervalSinceReferenceDate)
      } else {
        sqlite3_bind_null(statement, 5)
      }
      if let notes = task.notes {
        sqlite3_bind_text(statement, 6, notes, -1, transient)
      } else {
        sqlite3_bind_null(statement, 6)
      }
      sqlite3_bind_text(statement, 7, task.title, -1, transient)
      withUnsafeBytes(of: task.id.uuid) { _ = sqlite3_bind_blob(statement, 8, $0.baseAddress, 16, transient) }
      check(sqlite3_step(statement), database, "insert")
      sqlite3_reset(statement)
    }
    sqlite3_finalize(statement)
    check(
      sqlite3_exec(
        database, "UPDATE Z_PRIMARYKEY SET Z_MAX = \(count) WHERE Z_ENT = \(mapping.entityNumber)", nil, nil, nil),
      database, "keys")
    check(sqlite3_exec(database, "COMMIT", nil, nil, nil), database, "commit")
  }
}

@MainActor func rawFetch(_ url: URL) throws -> Duration {
  var database: OpaquePointer?
  check(sqlite3_open(url.path, &database), database, "open")
  defer { sqlite3_close(database) }
  var rows: [TaskValues] = []
  let duration = measure {
    var statement: OpaquePointer?
    check(
      sqlite3_prepare_v2(
        database,
        "SELECT Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZPROJECT, ZDUEDATE, ZNOTES, ZTITLE, ZID FROM ZTASK",
        -1, &statement, nil), database, "prepare")
    rows.reserveCapacity(count)
    while sqlite3_step(statement) == SQLITE_ROW {
      var task = TaskValues(0)
      task.priority = sqlite3_column_int64(statement, 4)
      task.due =
        sqlite3_column_type(statement, 6) == SQLITE_NULL
        ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 6))
      task.notes = sqlite3_column_text(statement, 7).map { String(cString: $0) }
      task.title = String(cString: sqlite3_column_text(statement, 8))
      let blob = sqlite3_column_blob(statement, 9)!.assumingMemoryBound(to: UInt8.self)
      task.id = UUID(
        uuid: (
          blob[0], blob[1], blob[2], blob[3], blob[4], blob[5], blob[6], blob[7], blob[8], blob[9], blob[10], blob[11],
          blob[12], blob[13], blob[14], blob[15]
        ))
      rows.append(task)
    }
    sqlite3_finalize(statement)
  }
  precondition(rows.count == count)
  return duration
}

// MARK: - Run

@MainActor func seconds(_ duration: Duration) -> String {
  let value = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  return String(format: "%.3f s", value)
}

print("\(count) tasks, best of \(rounds) rounds (Tasks model, file stores in WAL mode)")
var best: [String: Duration] = [:]
for round in 1...rounds {
  let raw = try freshStore("raw")
  let runtime = try freshStore("runtime")
  let figures = [
    ("raw insert", try rawInsert(raw)), ("context insert + save", try contextInsert(runtime)),
    ("raw fetch", try rawFetch(raw)), ("context fetch", try contextFetch(runtime)),
  ]
  for (name, duration) in figures { best[name] = min(best[name] ?? duration, duration) }
  print("round \(round): " + figures.map { "\($0.0) \(seconds($0.1))" }.joined(separator: ", "))
}
let insertRatio = best["context insert + save"]! / best["raw insert"]!
let fetchRatio = best["context fetch"]! / best["raw fetch"]!
print(
  "best: raw insert \(seconds(best["raw insert"]!)), context insert + save \(seconds(best["context insert + save"]!)) (\(String(format: "%.2f", insertRatio))×)"
)
print(
  "best: raw fetch \(seconds(best["raw fetch"]!)), context fetch \(seconds(best["context fetch"]!)) (\(String(format: "%.2f", fetchRatio))×)"
)
