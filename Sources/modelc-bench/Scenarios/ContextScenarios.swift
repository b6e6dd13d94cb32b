import Foundation
import Persistence

/// Slots of the Task attributes, resolved once as generated code does.
struct TaskSlots {
  let id: Int
  let title: Int
  let priority: Int
  let isCompleted: Int
  let dueDate: Int

  init(_ layout: ObjectLayout) {
    id = layout.attributeSlots["id"]!
    title = layout.attributeSlots["title"]!
    priority = layout.attributeSlots["priority"]!
    isCompleted = layout.attributeSlots["isCompleted"]!
    dueDate = layout.attributeSlots["dueDate"]!
  }
}

/// The columns both sides read from ZTASK.
let taskColumns = "Z_PK, Z_ENT, Z_OPT, ZISCOMPLETED, ZPRIORITY, ZPROJECT, ZDUEDATE, ZNOTES, ZTITLE, ZID"

/// `insert`: N tasks inserted and saved in one save, against prepared INSERTs in one transaction.
struct InsertScenario: Scenario {
  let name = "insert"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    return try measure(
      configuration, setUp: { _ in try stores.emptyStore() },
      ours: { url in
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
      },
      baseline: { url in
        try RawSQLite(path: url.path).insertTasks(rows, entityNumber: stores.taskEntityNumber)
      })
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
/// then every value read, as ``fetchAndRead(_:_:)`` reads the objects' values.
func rawFetch(_ url: URL, _ sql: String, bind: ((RawSQLite, OpaquePointer) -> Void)? = nil) throws -> Int {
  let raw = try RawSQLite(path: url.path)
  let statement = try raw.prepare(sql)
  bind?(raw, statement)
  var rows: [RawTaskRow] = []
  while try raw.step(statement) {
    rows.append(raw.taskRow(statement))
  }
  raw.finalize(statement)
  return rows.reduce(0) { $0 + $1.valueCount }
}

/// Fetches objects and reads every attribute, as code using them would.
func fetchAndRead(_ context: ObjectContext, _ request: FetchRequest<ManagedObject>) throws -> Int {
  var touched = 0
  for object in try context.fetch(request) {
    for slot in object.layout.attributes.indices where object.attributeValue(at: slot) != nil {
      touched += 1
    }
  }
  return touched
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
      ours: { url in
        let context = try PersistentContainer(bundle: stores.bundle, options: .file(url)).newContext()
        Measure.keep(try fetchAndRead(context, try request()))
      },
      baseline: { url in
        Measure.keep(
          try rawFetch(
            url, "SELECT \(taskColumns) FROM ZTASK WHERE Z_ENT IN (\(stores.taskEntityNumber))\(sqlAfterEntity)",
            bind: bind))
      })
  }
}

/// `fetch-all`: every task as an object with its values, against SELECT of every column.
struct FetchAllScenario: Scenario {
  let name = "fetch-all"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    try measureFetch(configuration, request: { FetchRequest<ManagedObject>(entityName: "Task") }, sqlAfterEntity: "")
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

/// `update`: every task's title changed and saved, against one prepared UPDATE per row.
struct UpdateScenario: Scenario {
  let name = "update"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    return try measure(
      configuration,
      setUp: { forBaseline in try stores.filledStoreWithTasks(rows, fetched: !forBaseline) },
      ours: { state in
        guard let context = state.1, let first = state.2.first else { return }
        let slot = first.layout.attributeSlots["title"]!
        for (index, object) in state.2.enumerated() {
          object.setAttributeValue(.string("Updated \(index)"), at: slot)
        }
        try context.save()
      },
      baseline: { state in
        let raw = try RawSQLite(path: state.0.path)
        try raw.execute("BEGIN IMMEDIATE")
        let update = try raw.prepare("UPDATE ZTASK SET ZTITLE = ?, Z_OPT = Z_OPT + 1 WHERE Z_PK = ?")
        for (index, row) in rows.enumerated() {
          raw.bind(update, 1, text: "Updated \(index)")
          raw.bind(update, 2, int: row.primaryKey)
          _ = try raw.step(update)
          raw.reset(update)
        }
        raw.finalize(update)
        try raw.execute("COMMIT")
      })
  }
}

/// `delete`: every task deleted (deletion rules applied) and saved, against one prepared DELETE
/// per row plus its join rows.
struct DeleteScenario: Scenario {
  let name = "delete"

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let stores = try TaskStores(configuration)
    let rows = TaskRow.make(configuration.rows)
    return try measure(
      configuration,
      setUp: { forBaseline in try stores.filledStoreWithTasks(rows, fetched: !forBaseline) },
      ours: { state in
        guard let context = state.1 else { return }
        for object in state.2 { context.delete(object) }
        try context.save()
      },
      baseline: { state in
        let raw = try RawSQLite(path: state.0.path)
        try raw.execute("BEGIN IMMEDIATE")
        let delete = try raw.prepare("DELETE FROM ZTASK WHERE Z_PK = ?")
        let links = try raw.prepare("DELETE FROM Z_2TASKS WHERE Z_3TASKS = ?")
        for row in rows {
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
      })
  }
}
