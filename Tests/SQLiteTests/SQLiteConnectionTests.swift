import Foundation
import TestSupport
import Testing

@testable import SQLite

/// Opening, closing and the connection's counters.
@Suite struct SQLiteConnectionTests {
  @Test func rowIDAndChangeCounters() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
    #expect(db.lastInsertRowID == 0)
    try db.execute("INSERT INTO t (v) VALUES ('a'), ('b'), ('c')")
    #expect(db.lastInsertRowID == 3)
    #expect(db.changes == 3)
    try db.execute("UPDATE t SET v = 'z' WHERE id > \(1)")
    #expect(db.changes == 2)
    #expect(db.totalChanges == 5)
  }

  @Test func closeFinalizesCachedStatementsAndRefusesWhileCallersHoldOne() throws {
    let db = try SQLiteConnection()
    _ = try db.cachedStatement("SELECT 1")
    var held: SQLiteStatement? = try db.prepare("SELECT 2")
    let error = #expect(throws: SQLiteError.self) { try db.close() }
    #expect(error?.isBusy == true)
    #expect(!db.isClosed)
    #expect(try held?.firstRow { $0.int(at: 0) } == 2)
    held = nil
    try db.close()
    #expect(db.isClosed)
    try db.close()
    let useAfterClose = #expect(throws: SQLiteError.self) { try db.execute("SELECT 1") }
    #expect(useAfterClose?.code == .misuse)
    #expect(db.lastInsertRowID == 0)
  }

  @Test func statementsOutliveTheirConnectionObject() throws {
    var db: SQLiteConnection? = try SQLiteConnection()
    try db?.execute("CREATE TABLE t (v); INSERT INTO t VALUES (9)")
    let statement = try db?.prepare("SELECT v FROM t")
    db = nil
    #expect(try statement?.firstRow { $0.int(at: 0) } == 9)
  }

  @Test func uriFilenames() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("uri.sqlite")
    try SQLiteConnection(path: path).execute("CREATE TABLE t (v)")
    let readOnly = try SQLiteConnection(.uri("file:\(path)?mode=ro"), mode: .readWrite)
    #expect(readOnly.isReadOnly)
    #expect(try readOnly.tableNames() == ["t"])
  }

  @Test func forEachRowResetsAfterAnEarlyExit() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("locks.sqlite")
    let db = try SQLiteConnection(path: path)
    try db.execute("CREATE TABLE t (v); INSERT INTO t VALUES (1), (2), (3)")
    struct Stop: Error {}
    #expect(throws: Stop.self) { try db.forEachRow("SELECT v FROM t") { _ in throw Stop() } }
    // Had the statement kept its read lock, this rollback-journal write from another
    // connection would be busy.
    try SQLiteConnection(path: path).execute("INSERT INTO t VALUES (4)")
    #expect(try db.firstRow("SELECT count(*) FROM t") { $0.int(at: 0) } == 4)
  }
}
