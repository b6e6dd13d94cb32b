import CSQLite
import Foundation

/// The baseline of every store scenario: the same work done the fastest plain way, with SQLite's
/// C API directly — prepared statements, one transaction, every result column read.
///
/// This is the one place outside the SQLite layer that calls SQLite's C functions: a baseline
/// measured through our own wrapper would hide the wrapper's cost.
final class RawSQLite {
  private var database: OpaquePointer?

  init(path: String) throws {
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
      throw BenchmarkError("cannot open \(path)")
    }
    sqlite3_busy_timeout(database, 5000)
  }

  deinit {
    sqlite3_close_v2(database)
  }

  func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(database, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "?"
      sqlite3_free(message)
      throw BenchmarkError("\(text) in \(sql)")
    }
  }

  func prepare(_ sql: String) throws -> OpaquePointer {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
      let statement
    else {
      throw BenchmarkError(String(cString: sqlite3_errmsg(database)) + " in \(sql)")
    }
    return statement
  }

  func step(_ statement: OpaquePointer) throws -> Bool {
    let code = sqlite3_step(statement)
    if code == SQLITE_ROW { return true }
    if code == SQLITE_DONE { return false }
    throw BenchmarkError(String(cString: sqlite3_errmsg(database)))
  }

  func finalize(_ statement: OpaquePointer) {
    sqlite3_finalize(statement)
  }

  /// The current row of a `SELECT` of `taskColumns` as a struct.
  func taskRow(_ statement: OpaquePointer) -> RawTaskRow {
    func optionalText(_ index: Int32) -> String? {
      guard sqlite3_column_type(statement, index) != SQLITE_NULL, let text = sqlite3_column_text(statement, index)
      else { return nil }
      return String(cString: text)
    }
    var id: UUID?
    if sqlite3_column_bytes(statement, 9) == 16, let bytes = sqlite3_column_blob(statement, 9) {
      id = UUID(uuid: bytes.assumingMemoryBound(to: uuid_t.self).pointee)
    }
    return RawTaskRow(
      primaryKey: sqlite3_column_int64(statement, 0), entity: sqlite3_column_int64(statement, 1),
      version: sqlite3_column_int64(statement, 2), isCompleted: sqlite3_column_int64(statement, 3) != 0,
      priority: sqlite3_column_int64(statement, 4),
      project: sqlite3_column_type(statement, 5) == SQLITE_NULL ? nil : sqlite3_column_int64(statement, 5),
      dueDate: sqlite3_column_type(statement, 6) == SQLITE_NULL ? nil : sqlite3_column_double(statement, 6),
      notes: optionalText(7), title: optionalText(8), id: id)
  }

  func bind(_ statement: OpaquePointer, _ index: Int32, int value: Int64) {
    sqlite3_bind_int64(statement, index, value)
  }

  func bind(_ statement: OpaquePointer, _ index: Int32, double value: Double?) {
    if let value { sqlite3_bind_double(statement, index, value) } else { sqlite3_bind_null(statement, index) }
  }

  func bind(_ statement: OpaquePointer, _ index: Int32, text value: String) {
    sqlite3_bind_text(statement, index, value, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
  }

  func bind(_ statement: OpaquePointer, _ index: Int32, blob value: [UInt8]) {
    value.withUnsafeBytes { buffer in
      _ = sqlite3_bind_blob(
        statement, index, buffer.baseAddress, Int32(buffer.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
    }
  }

  func reset(_ statement: OpaquePointer) {
    sqlite3_reset(statement)
    sqlite3_clear_bindings(statement)
  }
}

/// A benchmark that could not run.
struct BenchmarkError: Error, CustomStringConvertible {
  var description: String

  init(_ description: String) {
    self.description = description
  }
}

/// How a version of the Tasks model stores whether a task is done: `Tasks` to `Tasks 3` a
/// Boolean (`isCompleted`), `Tasks 4` a date (`completedAt`).
enum TaskCompletionColumn {
  case isCompleted
  case completedAt
}

extension RawSQLite {
  /// Inserts tasks with one prepared `INSERT` per row in one transaction and sets the Task
  /// hierarchy's `Z_MAX`: the `insert` baselines, and how stores are filled for the others.
  func insertTasks(_ rows: [TaskRow], entityNumber: Int, completion: TaskCompletionColumn = .isCompleted) throws {
    try execute("BEGIN IMMEDIATE")
    let column = completion == .isCompleted ? "ZISCOMPLETED" : "ZCOMPLETEDAT"
    let insert = try prepare(
      "INSERT INTO ZTASK (Z_PK, Z_ENT, Z_OPT, \(column), ZPRIORITY, ZDUEDATE, ZTITLE, ZID) VALUES (?, \(entityNumber), 1, ?, ?, ?, ?, ?)"
    )
    for row in rows {
      bind(insert, 1, int: row.primaryKey)
      switch completion {
      case .isCompleted: bind(insert, 2, int: row.isCompleted ? 1 : 0)
      case .completedAt: bind(insert, 2, double: row.completedAt?.timeIntervalSinceReferenceDate)
      }
      bind(insert, 3, int: row.priority)
      bind(insert, 4, double: row.dueDate?.timeIntervalSinceReferenceDate)
      bind(insert, 5, text: row.title)
      bind(insert, 6, blob: row.uuidBytes)
      _ = try step(insert)
      reset(insert)
    }
    finalize(insert)
    try execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows.count) WHERE Z_ENT = \(entityNumber)")
    try execute("COMMIT")
  }
}
