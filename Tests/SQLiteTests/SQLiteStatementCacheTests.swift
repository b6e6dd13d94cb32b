import Testing

@testable import SQLite

/// The connection's statement cache reuses prepared statements by SQL text.
@Suite struct SQLiteStatementCacheTests {
  @Test func reusesTheSameStatementForTheSameSQL() throws {
    let db = try SQLiteConnection()
    let first = try db.cachedStatement("SELECT 1")
    let second = try db.cachedStatement("SELECT 1")
    #expect(first === second)
    #expect(db.cachedStatementCount == 1)
    let other = try db.cachedStatement("SELECT 2")
    #expect(other !== first)
    #expect(db.cachedStatementCount == 2)
  }

  @Test func checkoutResetsAndRebinds() throws {
    let db = try SQLiteConnection()
    #expect(try db.cachedStatement("SELECT \(1)").firstRow { $0.int(at: 0) } == 1)
    #expect(try db.cachedStatement("SELECT \(2)").firstRow { $0.int(at: 0) } == 2)
    let unbound = try db.cachedStatement("SELECT ?")
    #expect(try unbound.firstRow { $0.isNull(at: 0) } == true)
  }

  @Test func executeCachesSingleStatementsButNotScripts() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (v); CREATE INDEX t_v ON t (v)")
    #expect(db.cachedStatementCount == 0)
    for value in 0..<10 {
      try db.execute("INSERT INTO t VALUES (\(value))")
    }
    #expect(db.cachedStatementCount == 1)
    #expect(try db.firstRow("SELECT sum(v) FROM t") { $0.int(at: 0) } == 45)
  }

  @Test func aBusyCachedStatementIsNotHandedOutTwice() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (v); INSERT INTO t VALUES (1), (2)")
    var pairs: [[Int]] = []
    try db.forEachRow("SELECT v FROM t ORDER BY v") { outer in
      let a = outer.int(at: 0)
      try db.forEachRow("SELECT v FROM t ORDER BY v") { inner in
        pairs.append([a, inner.int(at: 0)])
      }
    }
    #expect(pairs == [[1, 1], [1, 2], [2, 1], [2, 2]])
  }

  @Test func evictsTheLeastRecentlyUsedBeyondCapacity() throws {
    let db = try SQLiteConnection()
    db.statementCacheCapacity = 2
    let one = try db.cachedStatement("SELECT 1")
    _ = try db.cachedStatement("SELECT 2")
    _ = try db.cachedStatement("SELECT 1")
    _ = try db.cachedStatement("SELECT 3")  // evicts SELECT 2
    #expect(db.cachedStatementCount == 2)
    #expect(try db.cachedStatement("SELECT 1") === one)
    db.statementCacheCapacity = 0
    #expect(db.cachedStatementCount == 0)
    _ = try db.cachedStatement("SELECT 1")
    #expect(db.cachedStatementCount == 0)
  }

  @Test func staysValidAcrossSchemaChanges() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (a)")
    try db.execute("INSERT INTO t VALUES (1)")
    #expect(try db.mapRows("SELECT * FROM t") { $0.columnCount } == [1])
    try db.execute("ALTER TABLE t ADD COLUMN b")
    #expect(try db.mapRows("SELECT * FROM t") { $0.columnCount } == [2])
  }
}
