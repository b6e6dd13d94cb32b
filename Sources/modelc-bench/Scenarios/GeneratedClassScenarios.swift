import CSQLite
import Foundation
import Persistence
import TaskKit

/// Stores of the task list's own model (`TasksModel`, the version TaskKit's classes are
/// generated for) for the scenarios that go through the generated entity classes, as `task`
/// and users' code do.
struct GeneratedTaskStores {
  let configuration: BenchmarkConfiguration
  /// Task's entity number (`Z_ENT`) at the generated version.
  let taskEntityNumber: Int

  init(_ configuration: BenchmarkConfiguration) throws {
    self.configuration = configuration
    let bundle = try TasksModel.bundle()
    guard let version = bundle.version(named: TasksModel.generatedVersionName),
      let task = StoreSchema(model: version).mapping(forEntityNamed: "Task")
    else { throw BenchmarkError("TaskKit's model has no Task entity at '\(TasksModel.generatedVersionName)'") }
    taskEntityNumber = task.entityNumber
  }

  /// The columns both sides read from ZTASK at the generated version.
  static let columns = "Z_PK, Z_ENT, Z_OPT, ZPRIORITY, ZPROJECT, ZCOMPLETEDAT, ZDUEDATE, ZTITLE, ZID"

  /// An empty store, laid out by the container.
  func emptyStore() throws -> URL {
    let url = configuration.directory.appendingPathComponent("tasks-\(UUID().uuidString).sqlite")
    _ = try TasksModel.makeContainer(options: .file(url))
    try TaskStores.flush(url)
    return url
  }

  /// A store with `rows`, written with plain SQL (setup is not what is measured).
  func filledStore(_ rows: [TaskRow]) throws -> URL {
    let url = try emptyStore()
    let raw = try RawSQLite(path: url.path)
    try raw.insertTasks(rows, entityNumber: taskEntityNumber, completion: .completedAt)
    try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try TaskStores.flush(url)
    return url
  }

  /// What both sides wrote: every task row and the key counters.
  static func digest(_ url: URL) throws -> ResultDigest {
    let raw = try RawSQLite(path: url.path)
    var digest = try raw.digest(of: "SELECT \(columns) FROM ZTASK ORDER BY Z_PK")
    let keys = try raw.digest(of: "SELECT Z_ENT, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
    withUnsafeBytes(of: keys.checksum) { digest.mix(bytes: $0) }
    return digest
  }
}

extension TaskRow {
  /// When the task was done at the generated version (`completedAt` replaced `isCompleted`).
  var completedAt: Date? {
    isCompleted ? Date(timeIntervalSinceReferenceDate: 790_000_000 + Double(primaryKey)) : nil
  }
}

extension RawSQLite {
  /// The current row of a `SELECT` of ``GeneratedTaskStores/columns`` as a struct.
  func generatedTaskRow(_ statement: OpaquePointer) -> RawGeneratedTaskRow {
    func optionalDouble(_ index: Int32) -> Double? {
      sqlite3_column_type(statement, index) == SQLITE_NULL ? nil : sqlite3_column_double(statement, index)
    }
    var id: UUID?
    if sqlite3_column_bytes(statement, 8) == 16, let bytes = sqlite3_column_blob(statement, 8) {
      id = UUID(uuid: bytes.assumingMemoryBound(to: uuid_t.self).pointee)
    }
    return RawGeneratedTaskRow(
      primaryKey: sqlite3_column_int64(statement, 0), entity: sqlite3_column_int64(statement, 1),
      version: sqlite3_column_int64(statement, 2), priority: sqlite3_column_int64(statement, 3),
      project: sqlite3_column_type(statement, 4) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, 4),
      completedAt: optionalDouble(5), dueDate: optionalDouble(6),
      title: sqlite3_column_text(statement, 7).map { String(cString: $0) }, id: id)
  }
}

/// A task row of the generated version as an app using raw SQLite would keep it.
struct RawGeneratedTaskRow {
  var primaryKey: Int64
  var entity: Int64
  var version: Int64
  var priority: Int64
  var project: Int64?
  var completedAt: Double?
  var dueDate: Double?
  var title: String?
  var id: UUID?
}

extension ResultDigest {
  /// The digest of tasks of the generated version: id, title, priority, completion and due
  /// dates, in order.
  init(generatedTasks rows: [RawGeneratedTaskRow]) {
    self.init()
    for row in rows {
      nextRow()
      mix(row.id)
      mix(row.title)
      mix(row.priority)
      mix(row.completedAt)
      mix(row.dueDate)
    }
  }

  /// The digest of TaskKit's `Task` objects, as ``init(generatedTasks:)`` makes it of rows.
  init(generatedTasks tasks: [TaskKit.Task]) {
    self.init()
    for task in tasks {
      nextRow()
      mix(task.taskID)
      mix(task.title)
      mix(Int64(task.priority))
      mix(task.completedAt?.timeIntervalSinceReferenceDate)
      mix(task.dueDate?.timeIntervalSinceReferenceDate)
    }
  }
}

/// `insert`: N tasks made through TaskKit's generated `Task` class (its initializer and
/// properties, as `task add` and users' code make them) and saved in one save, against prepared
/// INSERTs in one transaction. `insert-slots` is the same work through attribute slots.
struct InsertScenario: Scenario {
  let name = "insert"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try GeneratedTaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    return try measure(
      configuration, setUp: { _ in try stores.emptyStore() },
      ours: { url, _ in
        let context = try TasksModel.makeContainer(options: .file(url)).newContext()
        for row in rows {
          let task = TaskKit.Task(context: context, taskID: row.id, title: row.title)
          task.priority = Int16(row.priority)
          task.completedAt = row.completedAt
          task.dueDate = row.dueDate
        }
        try context.save()
        return nil
      },
      baseline: { url, _ in
        try RawSQLite(path: url.path).insertTasks(rows, entityNumber: stores.taskEntityNumber, completion: .completedAt)
        return nil
      },
      result: { url in try GeneratedTaskStores.digest(url) })
  }
}

/// `fetch-all`: a new container and context fetch every task as TaskKit's generated `Task` and
/// read every attribute through its properties, against `SELECT` of every column into a struct
/// per row. `fetch-all-slots` is the same work through `ManagedObject` and attribute slots.
struct FetchAllScenario: Scenario {
  let name = "fetch-all"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try GeneratedTaskStores(configuration)
    let url = try stores.filledStore(TaskRow.make(configuration.rows))
    return try measure(
      configuration, setUp: { _ in url },
      ours: { url, checking in
        let context = try TasksModel.makeContainer(options: .file(url)).newContext()
        let tasks = try context.fetch(TaskKit.Task.fetchRequest())
        var touched = 0
        for task in tasks {
          touched &+= task.title.utf8.count &+ Int(task.priority) &+ (task.taskID.uuid.0 == 0 ? 0 : 1)
          if task.completedAt != nil { touched &+= 1 }
          if task.dueDate != nil { touched &+= 1 }
        }
        Measure.keep(touched)
        return checking ? ResultDigest(generatedTasks: tasks) : nil
      },
      baseline: { url, checking in
        let raw = try RawSQLite(path: url.path)
        let statement = try raw.prepare(
          "SELECT \(GeneratedTaskStores.columns) FROM ZTASK WHERE Z_ENT IN (\(stores.taskEntityNumber))")
        var rows: [RawGeneratedTaskRow] = []
        while try raw.step(statement) {
          rows.append(raw.generatedTaskRow(statement))
        }
        raw.finalize(statement)
        var touched = 0
        for row in rows {
          touched &+= (row.title?.utf8.count ?? 0) &+ Int(row.priority) &+ (row.id?.uuid.0 == 0 ? 0 : 1)
          if row.completedAt != nil { touched &+= 1 }
          if row.dueDate != nil { touched &+= 1 }
        }
        Measure.keep(touched)
        return checking ? ResultDigest(generatedTasks: rows) : nil
      })
  }
}
