import Testing

@testable import SQLite

private struct Failure: Error {}

/// Transactions commit on return and roll back on throw; savepoints nest.
@Suite struct SQLiteTransactionTests {
  private func makeTable() throws -> SQLiteConnection {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (v INTEGER)")
    return db
  }

  private func values(_ db: SQLiteConnection) throws -> [Int] {
    try db.mapRows("SELECT v FROM t ORDER BY v") { $0.int(at: 0) }
  }

  @Test(arguments: SQLiteTransactionKind.allCases)
  func commitsWhenTheBodyReturns(_ kind: SQLiteTransactionKind) throws {
    let db = try makeTable()
    let result = try db.transaction(kind) {
      #expect(db.isInTransaction)
      try db.execute("INSERT INTO t VALUES (1)")
      return "done"
    }
    #expect(result == "done")
    #expect(!db.isInTransaction)
    #expect(try values(db) == [1])
  }

  @Test func rollsBackWhenTheBodyThrows() throws {
    let db = try makeTable()
    try db.execute("INSERT INTO t VALUES (1)")
    #expect(throws: Failure.self) {
      try db.transaction(.immediate) {
        try db.execute("INSERT INTO t VALUES (2)")
        throw Failure()
      }
    }
    #expect(!db.isInTransaction)
    #expect(try values(db) == [1])
  }

  @Test func rollsBackWhenAStatementFails() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (v INTEGER UNIQUE)")
    let error = #expect(throws: SQLiteError.self) {
      try db.transaction {
        try db.execute("INSERT INTO t VALUES (1)")
        try db.execute("INSERT INTO t VALUES (1)")
      }
    }
    #expect(error?.isConstraintViolation == true)
    #expect(try db.firstRow("SELECT count(*) FROM t") { $0.int(at: 0) } == 0)
  }

  @Test func transactionsDoNotNest() throws {
    let db = try makeTable()
    try db.transaction {
      let error = #expect(throws: SQLiteError.self) { try db.transaction {} }
      #expect(error?.message.contains("within a transaction") == true)
    }
  }

  @Test func nestedSavepointRollsBackOnlyItsOwnWork() throws {
    // The expectations' results are bound with `let`: with Swift 6.3.1, two unbound
    // `#expect(throws:)` in nested closures here were miscompiled (the second one ran the
    // first one's closure).
    let db = try makeTable()
    try db.transaction {
      try db.execute("INSERT INTO t VALUES (1)")
      try db.savepoint(name: "outer") {
        try db.execute("INSERT INTO t VALUES (2)")
        let inner = #expect(throws: Failure.self) {
          try db.savepoint(name: "inner") {
            try db.execute("INSERT INTO t VALUES (3)")
            throw Failure()
          }
        }
        #expect(inner != nil)
        try db.execute("INSERT INTO t VALUES (4)")
      }
      let discarded = #expect(throws: Failure.self) {
        try db.savepoint(name: "discarded") {
          try db.execute("INSERT INTO t VALUES (5)")
          throw Failure()
        }
      }
      #expect(discarded != nil)
    }
    #expect(try values(db) == [1, 2, 4])
  }

  @Test func savepointOutsideATransactionCommits() throws {
    let db = try makeTable()
    try db.savepoint {
      #expect(db.isInTransaction)
      try db.execute("INSERT INTO t VALUES (1)")
    }
    #expect(!db.isInTransaction)
    #expect(try values(db) == [1])
    #expect(throws: Failure.self) {
      try db.savepoint {
        try db.execute("INSERT INTO t VALUES (2)")
        throw Failure()
      }
    }
    #expect(!db.isInTransaction)
    #expect(try values(db) == [1])
  }

  @Test func savepointNamesAreQuoted() throws {
    let db = try makeTable()
    try db.savepoint(name: "we\"ird; ROLLBACK") {
      try db.execute("INSERT INTO t VALUES (1)")
    }
    #expect(try values(db) == [1])
  }
}
