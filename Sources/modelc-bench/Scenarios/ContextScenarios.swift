import Foundation
import Persistence

/// Slots of the Task attributes, resolved once as generated code does.
struct TaskSlots {
  let id: Int
  let title: Int
  let priority: Int
  let isCompleted: Int
  let dueDate: Int
  let notes: Int

  init(_ layout: ObjectLayout) {
    id = layout.attributeSlots["id"]!
    title = layout.attributeSlots["title"]!
    priority = layout.attributeSlots["priority"]!
    isCompleted = layout.attributeSlots["isCompleted"]!
    dueDate = layout.attributeSlots["dueDate"]!
    notes = layout.attributeSlots["notes"]!
  }
}

/// The columns both sides read from ZTASK.
let taskColumns = "Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZPROJECT, ZDUEDATE, ZNOTES, ZTITLE, ZID"

/// `insert-slots`: N tasks inserted and saved in one save, their values set through attribute
/// slots resolved once (the path under the generated properties; `insert` goes through them),
/// against prepared INSERTs in one transaction.
struct InsertSlotsScenario: Scenario {
  let name = "insert-slots"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    return try measure(
      configuration, setUp: { _ in try stores.emptyStore() },
      ours: { url, _ in
        let container = try PersistentContainer(bundle: stores.bundle, options: .file(url))
        let context = container.newContext()
        var slots: TaskSlots?
        for row in rows {
          let task = try context.insert(entityNamed: "Task")
          let resolved = slots ?? TaskSlots(task.layout)
          slots = resolved
          task.setAttributeValue(.uuid(row.id), at: resolved.id)
          task.setAttributeValue(.string(row.title), at: resolved.title)
          task.setAttributeValue(.integer(row.priority), at: resolved.priority)
          task.setAttributeValue(.boolean(row.isCompleted), at: resolved.isCompleted)
          task.setAttributeValue(row.dueDate.map { .date($0) }, at: resolved.dueDate)
        }
        try context.save()
        return nil
      },
      baseline: { url, _ in
        try RawSQLite(path: url.path).insertTasks(rows, entityNumber: stores.taskEntityNumber)
        return nil
      },
      result: { url in try RawSQLite.taskDigest(url) })
  }
}

/// A task row as an app using raw SQLite would keep it: every column of `ZTASK` in a struct.
struct RawTaskRow {
  var primaryKey: Int64
  var entity: Int64
  var version: Int64
  var isCompleted: Bool
  var priority: Int64
  var project: Int64?
  var dueDate: Double?
  var notes: String?
  var title: String?
  var id: UUID?
}

extension RawTaskRow {
  /// How many attribute values the row has (not nil), as ``fetchAndRead(_:_:)`` counts them.
  var valueCount: Int {
    2 + (dueDate == nil ? 0 : 1) + (notes == nil ? 0 : 1) + (title == nil ? 0 : 1) + (id == nil ? 0 : 1)
  }
}

/// The baseline of fetches: every row of a query read into a `RawTaskRow` (the columns of
/// `taskColumns`, in order) and kept in an array, as fetching the tasks back means having them,
/// then every value read, as ``fetchAndRead(_:_:checking:)`` reads the objects' values. When
/// `checking`, returns the digest of the rows' values.
func rawFetch(
  _ url: URL, _ sql: String, bind: ((RawSQLite, OpaquePointer) -> Void)? = nil, checking: Bool
) throws -> ResultDigest? {
  let raw = try RawSQLite(path: url.path)
  let statement = try raw.prepare(sql)
  bind?(raw, statement)
  var rows: [RawTaskRow] = []
  while try raw.step(statement) {
    rows.append(raw.taskRow(statement))
  }
  raw.finalize(statement)
  Measure.keep(rows.reduce(0) { $0 + $1.valueCount })
  return checking ? ResultDigest(tasks: rows) : nil
}

/// Fetches objects and reads every attribute, as code using them would. When `checking`,
/// returns the digest of the objects' values.
func fetchAndRead(
  _ context: ObjectContext, _ request: FetchRequest<ManagedObject>, checking: Bool
) throws -> ResultDigest? {
  var touched = 0
  let objects = try context.fetch(request)
  for object in objects {
    for slot in object.layout.attributes.indices where object.attributeValue(at: slot) != nil {
      touched += 1
    }
  }
  Measure.keep(touched)
  return checking ? ResultDigest(tasks: objects) : nil
}

extension ResultDigest {
  /// The digest of Tasks 3 task rows: id, title, priority, done, due date and notes, in order.
  init(tasks rows: [RawTaskRow]) {
    self.init()
    for row in rows {
      nextRow()
      mix(row.id)
      mix(row.title)
      mix(row.priority)
      mix(row.isCompleted)
      mix(row.dueDate)
      mix(row.notes)
    }
  }

  /// The digest of Tasks 3 task objects, as ``init(tasks:)-([RawTaskRow])`` makes it of rows.
  init(tasks objects: [ManagedObject]) {
    self.init()
    guard let first = objects.first else { return }
    let slots = TaskSlots(first.layout)
    for object in objects {
      nextRow()
      if case .uuid(let id) = object.attributeValue(at: slots.id) { mix(id) } else { mix(nil as UUID?) }
      if case .string(let title) = object.attributeValue(at: slots.title) { mix(title) } else { mix(nil as String?) }
      if case .integer(let priority) = object.attributeValue(at: slots.priority) {
        mix(priority)
      } else {
        mix(nil as Int64?)
      }
      if case .boolean(let done) = object.attributeValue(at: slots.isCompleted) { mix(done) } else { mix(false) }
      if case .date(let due) = object.attributeValue(at: slots.dueDate) {
        mix(due.timeIntervalSinceReferenceDate)
      } else {
        mix(nil as Double?)
      }
      if case .string(let notes) = object.attributeValue(at: slots.notes) { mix(notes) } else { mix(nil as String?) }
    }
  }
}

extension Scenario {
  /// A fetch scenario: a new container and context fetch `request` (built inside the timing,
  /// predicate parsing included) and read every value, against `sql` read into `RawTaskRow`s.
  /// `sql` ends with the part after `FROM ZTASK WHERE Z_ENT IN (<Task>)`.
  func measureFetch(
    _ configuration: BenchmarkConfiguration, request: @escaping () throws -> FetchRequest<ManagedObject>,
    sqlAfterEntity: String, bind: ((RawSQLite, OpaquePointer) -> Void)? = nil
  ) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let url = try stores.filledStore(TaskRow.make(configuration.rows))
    return try measure(
      configuration, setUp: { _ in url },
      ours: { url, checking in
        let context = try PersistentContainer(bundle: stores.bundle, options: .file(url)).newContext()
        return try fetchAndRead(context, try request(), checking: checking)
      },
      baseline: { url, checking in
        try rawFetch(
          url, "SELECT \(taskColumns) FROM ZTASK WHERE Z_ENT IN (\(stores.taskEntityNumber))\(sqlAfterEntity)",
          bind: bind, checking: checking)
      })
  }
}

/// `fetch-all-slots`: every task as an object (`ManagedObject`, its values read through
/// attribute slots: the path under the generated properties; `fetch-all` goes through them),
/// against SELECT of every column.
struct FetchAllSlotsScenario: Scenario {
  let name = "fetch-all-slots"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    try measureFetch(
      configuration, request: { FetchRequest<ManagedObject>(entityName: "Task") }, sqlAfterEntity: "")
  }
}

/// `fetch-indexed`: a predicate and a sort that the (priority, dueDate) index serves.
struct FetchIndexedScenario: Scenario {
  let name = "fetch-indexed"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let cutoff = Date(timeIntervalSinceReferenceDate: 800_000_000 + 500 * 3600)
    return try measureFetch(
      configuration,
      request: {
        FetchRequest<ManagedObject>(
          entityName: "Task", predicate: try FetchPredicate(format: "priority == 1 AND dueDate >= %@", cutoff),
          sortDescriptors: [FetchSortDescriptor("priority"), FetchSortDescriptor("dueDate")])
      },
      sqlAfterEntity: " AND ZPRIORITY = 1 AND ZDUEDATE >= ? ORDER BY ZPRIORITY, ZDUEDATE, Z_PK",
      bind: { raw, statement in raw.bind(statement, 1, double: cutoff.timeIntervalSinceReferenceDate) })
  }
}

/// `search-contains-cd`: `title CONTAINS[cd]` over every title, against `LIKE` (which folds
/// ASCII case only: the search term is ASCII, so both find the same rows).
struct SearchScenario: Scenario {
  let name = "search-contains-cd"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    try measureFetch(
      configuration,
      request: {
        FetchRequest<ManagedObject>(
          entityName: "Task", predicate: try FetchPredicate(format: "title CONTAINS[cd] %@", "REPORT"))
      },
      sqlAfterEntity: " AND ZTITLE LIKE '%report%' ORDER BY Z_PK")
  }
}

/// `update`: both sides start from the store alone, inside the timing. Ours: a new container and
/// context fetch every task, change its title and save (optimistic-locking checks included).
/// The baseline: opens a connection, reads every row into a `RawTaskRow`, then one prepared
/// UPDATE per row in one transaction.
struct UpdateScenario: Scenario {
  let name = "update"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    let select = "SELECT \(taskColumns) FROM ZTASK WHERE Z_ENT IN (\(stores.taskEntityNumber))"
    return try measure(
      configuration, setUp: { _ in try stores.filledStore(rows) },
      ours: { url, _ in
        let context = try PersistentContainer(bundle: stores.bundle, options: .file(url)).newContext()
        let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
        guard let first = objects.first else { return nil }
        let slot = first.layout.attributeSlots["title"]!
        for (index, object) in objects.enumerated() {
          object.setAttributeValue(.string("Updated \(index)"), at: slot)
        }
        try context.save()
        return nil
      },
      baseline: { url, _ in
        let raw = try RawSQLite(path: url.path)
        let fetched = try raw.taskRows(select)
        try raw.execute("BEGIN IMMEDIATE")
        let update = try raw.prepare("UPDATE ZTASK SET ZTITLE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?")
        for (index, row) in fetched.enumerated() {
          raw.bind(update, 1, text: "Updated \(index)")
          raw.bind(update, 2, int: row.primaryKey)
          _ = try raw.step(update)
          raw.reset(update)
        }
        raw.finalize(update)
        try raw.execute("COMMIT")
        return nil
      },
      result: { url in try RawSQLite.taskDigest(url) })
  }
}

/// `delete`: both sides start from the store alone, inside the timing. Ours: a new container
/// and context fetch every task, delete it (deletion rules applied) and save. The baseline:
/// opens a connection, reads every row into a `RawTaskRow`, then one prepared DELETE per row
/// and one of its join rows, in one transaction.
struct DeleteScenario: Scenario {
  let name = "delete"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    let select = "SELECT \(taskColumns) FROM ZTASK WHERE Z_ENT IN (\(stores.taskEntityNumber))"
    return try measure(
      configuration, setUp: { _ in try stores.filledStore(rows) },
      ours: { url, _ in
        let context = try PersistentContainer(bundle: stores.bundle, options: .file(url)).newContext()
        for object in try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")) { context.delete(object) }
        try context.save()
        return nil
      },
      baseline: { url, _ in
        let raw = try RawSQLite(path: url.path)
        let fetched = try raw.taskRows(select)
        try raw.execute("BEGIN IMMEDIATE")
        let delete = try raw.prepare("DELETE FROM ZTASK WHERE Z_PK = ?")
        let links = try raw.prepare("DELETE FROM Z_2TASKS WHERE Z_3TASKS = ?")
        for row in fetched {
          raw.bind(delete, 1, int: row.primaryKey)
          _ = try raw.step(delete)
          raw.reset(delete)
          raw.bind(links, 1, int: row.primaryKey)
          _ = try raw.step(links)
          raw.reset(links)
        }
        raw.finalize(delete)
        raw.finalize(links)
        try raw.execute("COMMIT")
        return nil
      },
      result: { url in try RawSQLite.taskDigest(url) })
  }
}

extension RawSQLite {
  /// Every row of a `SELECT` of `taskColumns`, as structs.
  func taskRows(_ sql: String) throws -> [RawTaskRow] {
    let statement = try prepare(sql)
    defer { finalize(statement) }
    var rows: [RawTaskRow] = []
    while try step(statement) {
      rows.append(taskRow(statement))
    }
    return rows
  }
}
