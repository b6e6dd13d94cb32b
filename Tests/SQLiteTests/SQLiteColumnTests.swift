import Foundation
import Testing

@testable import SQLite

/// Columns read in place: storage classes and values agree with the statement's own readers.
@Suite struct SQLiteColumnTests {
  @Test func readsEveryStorageClassAsTheStatementReadersDo() throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n TEXT)")
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
    try insert.execute([.integer(Int64.min), .real(-1.5), .text("café \"q\"\n🎉"), .blob([0, 1, 255]), .null])
    try db.forEachRow("SELECT i, r, s, b, n FROM t") { statement in
      #expect(
        (0..<5).map { statement.column(at: $0).storageClass } == [.integer, .real, .text, .blob, .null])
      #expect((0..<5).map { statement.column(at: $0).storageClass } == (0..<5).map { statement.columnType(at: $0) })
      #expect(statement.column(at: 0).int64 == Int64.min)
      #expect(statement.column(at: 1).double == -1.5)
      #expect(statement.column(at: 2).text == "café \"q\"\n🎉")
      #expect(statement.column(at: 3).data == Data([0, 1, 255]))
      #expect(statement.column(at: 3).withBytes { Array($0) } == [0, 1, 255])
      // NULL reads as SQLite converts it.
      #expect(statement.column(at: 4).int64 == 0)
      #expect(statement.column(at: 4).text == "")
      #expect(statement.column(at: 4).data.isEmpty)
      #expect(statement.column(at: 4).withBytes { $0.count } == 0)
    }
  }

  @Test func aColumnOutOfRangeReadsAsNull() throws {
    let db = try SQLiteConnection()
    try db.forEachRow("SELECT 1") { statement in
      #expect(statement.column(at: 3).storageClass == .null)
      #expect(statement.column(at: -1).int64 == 0)
    }
  }

  @Test func anEmptyBlobAndAnEmptyStringAreNotNull() throws {
    let db = try SQLiteConnection()
    try db.forEachRow("SELECT x'', ''") { statement in
      #expect(statement.column(at: 0).storageClass == .blob)
      #expect(statement.column(at: 0).data.isEmpty)
      #expect(statement.column(at: 1).storageClass == .text)
      #expect(statement.column(at: 1).text == "")
    }
  }
}
