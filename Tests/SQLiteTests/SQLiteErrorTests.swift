import TestSupport
import Testing

@testable import SQLite

/// Errors carry the result codes, SQLite's message and the SQL that failed.
@Suite struct SQLiteErrorTests {
  @Test func syntaxErrorCarriesCodeMessageSQLAndOffset() throws {
    let db = try SQLiteConnection()
    let error = #expect(throws: SQLiteError.self) { try db.execute("SELEC 1") }
    #expect(error?.code == .error)
    #expect(error?.message == "near \"SELEC\": syntax error")
    #expect(error?.sql == "SELEC 1")
    #expect(error?.offset == 0)
    #expect(
      error?.description
        == "SQLite error 1 [SQLITE_ERROR]: near \"SELEC\": syntax error — while executing: SELEC 1 (at byte 0)")
  }

  @Test func prepareReportsTheStatement() throws {
    let db = try SQLiteConnection()
    let error = #expect(throws: SQLiteError.self) { try db.prepare("SELECT * FROM missing") }
    #expect(error?.message == "no such table: missing")
    #expect(error?.sql == "SELECT * FROM missing")
  }

  @Test func uniqueConstraintIsDistinguishable() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (v TEXT UNIQUE)")
    try db.execute("INSERT INTO t VALUES (\("a"))")
    let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (\("a"))") }
    #expect(error?.isConstraintViolation == true)
    #expect(error?.isBusy == false)
    #expect(error?.code == .constraint)
    #expect(error?.extendedCode == .constraintUnique)
    #expect(error?.extendedCode.matches(.constraint) == true)
    #expect(error?.message == "UNIQUE constraint failed: t.v")
    #expect(error?.sql == "INSERT INTO t VALUES (?)")
    #expect(error?.description.contains("SQLITE_CONSTRAINT_UNIQUE") == true)
  }

  @Test func notNullConstraint() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (v NOT NULL)")
    let error = #expect(throws: SQLiteError.self) { try db.execute("INSERT INTO t VALUES (NULL)") }
    #expect(error?.extendedCode == .constraintNotNull)
  }

  @Test func scriptErrorsNameTheFailingStatement() throws {
    let db = try SQLiteConnection()
    let error = #expect(throws: SQLiteError.self) {
      try db.execute("CREATE TABLE a (x); INSERT INTO nowhere VALUES (1); CREATE TABLE b (y)")
    }
    #expect(error?.message == "no such table: nowhere")
    #expect(error?.sql?.hasPrefix(" INSERT INTO nowhere VALUES (1);") == true)
    #expect(try db.tableNames() == ["a"])
  }

  @Test func prepareRejectsEmptySQLAndMultipleStatements() throws {
    let db = try SQLiteConnection()
    let empty = #expect(throws: SQLiteError.self) { try db.prepare("  -- nothing") }
    #expect(empty?.code == .misuse)
    let two = #expect(throws: SQLiteError.self) { try db.prepare("SELECT 1; SELECT 2") }
    #expect(two?.code == .misuse)
    #expect(two?.message.contains("more than one SQL statement") == true)
    _ = try db.prepare("SELECT 1;  \n")
  }

  @Test func scriptArgumentsMustMatchParameters() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (a, b); INSERT INTO t VALUES (\(1), \(2)); INSERT INTO t VALUES (\(3), \(4))")
    #expect(try db.firstRow("SELECT sum(a * b) FROM t") { $0.int(at: 0) } == 14)
    let extra = #expect(throws: SQLiteError.self) {
      try db.execute(SQLiteSQL(verbatim: "SELECT 1; SELECT 2", arguments: [1]))
    }
    #expect(extra?.code == .range)
  }

  @Test func writingAReadOnlyConnectionFails() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("ro.sqlite")
    try SQLiteConnection(path: path).execute("CREATE TABLE t (v)")
    let reader = try SQLiteConnection(path: path, mode: .readOnly)
    #expect(reader.isReadOnly)
    let error = #expect(throws: SQLiteError.self) { try reader.execute("INSERT INTO t VALUES (1)") }
    #expect(error?.code == .readOnly)
  }

  @Test func openingAMissingFileWithoutCreateFails() throws {
    let directory = try TemporaryDirectory()
    let error = #expect(throws: SQLiteError.self) {
      try SQLiteConnection(path: directory.path("absent.sqlite"), mode: .readWrite)
    }
    #expect(error?.code == .cannotOpen)
  }

  @Test func resultCodeNames() {
    #expect(SQLiteResultCode.busy.name == "SQLITE_BUSY")
    #expect(SQLiteResultCode.constraintPrimaryKey.name == "SQLITE_CONSTRAINT_PRIMARYKEY")
    #expect(SQLiteResultCode(rawValue: 19 | (99 << 8)).name == "SQLITE_CONSTRAINT (25363)")
    #expect(SQLiteResultCode.busy.description == "SQLITE_BUSY (database is locked)")
    #expect(SQLiteResultCode.constraintUnique.primary == .constraint)
  }
}
