import Foundation
import Testing

@testable import SQLite

/// Every value type goes into SQLite and comes back unchanged, both as a bound parameter
/// echoed by `SELECT ?` and stored in (and read back from) a table column.
@Suite struct SQLiteValueRoundTripTests {
  private func roundTrip(_ value: SQLiteValue) throws -> (echoed: SQLiteValue, stored: SQLiteValue) {
    let db = try SQLiteConnection()
    let echoed = try #require(try db.firstRow("SELECT \(value)") { $0.value(at: 0) })
    try db.execute("CREATE TABLE t (v)")
    try db.execute("INSERT INTO t (v) VALUES (\(value))")
    let stored = try #require(try db.firstRow("SELECT v FROM t") { $0.value(at: 0) })
    return (echoed, stored)
  }

  @Test(arguments: [Int64.min, Int64.min + 1, -1, 0, 1, Int64(Int32.max) + 1, Int64.max])
  func integers(_ integer: Int64) throws {
    let result = try roundTrip(.integer(integer))
    #expect(result.echoed == .integer(integer))
    #expect(result.stored == .integer(integer))
  }

  @Test(arguments: [
    0.0, 1.5, -2.25, Double.pi, Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude,
    Double.leastNormalMagnitude, Double.leastNonzeroMagnitude, Double.infinity, -Double.infinity, 1e-300,
  ])
  func reals(_ real: Double) throws {
    let result = try roundTrip(.real(real))
    #expect(result.echoed == .real(real))
    #expect(result.stored == .real(real))
  }

  @Test func negativeZeroKeepsItsSignWithoutAffinity() throws {
    let result = try roundTrip(.real(-0.0))
    #expect(result.stored.doubleValue?.sign == .minus)
  }

  @Test func nanIsStoredAsNull() throws {
    let result = try roundTrip(.real(.nan))
    #expect(result.echoed == .null)
    #expect(result.stored == .null)
  }

  @Test(arguments: [
    "", "plain", "it's \"quoted\"", "line one\nline two\r\n\ttabbed", "emoji 🧪👩‍👩‍👧‍👦 and flags 🇫🇷",
    "combining é vs é", "Robert'); DROP TABLE t;--", String(repeating: "long ", count: 20_000),
  ])
  func texts(_ text: String) throws {
    let result = try roundTrip(.text(text))
    #expect(result.echoed == .text(text))
    #expect(result.stored == .text(text))
  }

  @Test func textWithEmbeddedNULKeepsEveryByte() throws {
    let text = "before\u{0}after"
    let result = try roundTrip(.text(text))
    #expect(result.stored == .text(text))
  }

  @Test func emptyTextIsNotNull() throws {
    let db = try SQLiteConnection()
    #expect(try db.firstRow("SELECT typeof(\(""))") { $0.text(at: 0) } == "text")
  }

  @Test func blobs() throws {
    let large = (0..<(4 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    for bytes in [[], [0], [0, 255, 0, 1], large] as [[UInt8]] {
      let result = try roundTrip(.blob(bytes))
      #expect(result.echoed == .blob(bytes))
      #expect(result.stored == .blob(bytes))
    }
  }

  @Test func emptyBlobIsABlobNotNull() throws {
    let db = try SQLiteConnection()
    #expect(try db.firstRow("SELECT typeof(\(SQLiteValue.blob([])))") { $0.text(at: 0) } == "blob")
  }

  @Test func dataReadsAndBinds() throws {
    let db = try SQLiteConnection()
    let data = Data([1, 2, 3])
    #expect(try db.firstRow("SELECT \(data)") { $0.data(at: 0) } == data)
  }

  @Test func null() throws {
    let result = try roundTrip(.null)
    #expect(result.echoed == .null)
    #expect(result.stored == .null)
  }

  @Test func typedReadersAndNullConversions() throws {
    let db = try SQLiteConnection()
    try db.forEachRow("SELECT 42, 2.5, 'text', x'0102', NULL, 1") { row in
      #expect(row.columnCount == 6)
      #expect(row.int64(at: 0) == 42)
      #expect(row.int(at: 0) == 42)
      #expect(row.double(at: 1) == 2.5)
      #expect(row.text(at: 2) == "text")
      #expect(row.blob(at: 3) == [1, 2])
      #expect(row.isNull(at: 4))
      #expect(row.int64(at: 4) == 0)
      #expect(row.text(at: 4) == "")
      #expect(row.blob(at: 4) == [])
      #expect(row.bool(at: 5))
      #expect(
        (0..<6).map(row.columnType(at:)) == [.integer, .real, .text, .blob, .null, .integer])
      #expect(row.rowValues == [42, 2.5, "text", .blob([1, 2]), nil, 1])
    }
  }

  @Test func swiftTypesConvert() {
    #expect(Int(7).sqliteValue == .integer(7))
    #expect(Int32(-7).sqliteValue == .integer(-7))
    #expect(true.sqliteValue == .integer(1))
    #expect(Float(0.5).sqliteValue == .real(0.5))
    #expect("s"[...].sqliteValue == .text("s"))
    #expect([UInt8]([9]).sqliteValue == .blob([9]))
    #expect(String?.none.sqliteValue == .null)
    #expect(Optional("x").sqliteValue == .text("x"))
  }

  @Test func literalsRenderSafely() {
    #expect(SQLiteValue.null.sqlLiteral == "NULL")
    #expect(SQLiteValue.integer(-3).sqlLiteral == "-3")
    #expect(SQLiteValue.real(2).sqlLiteral == "2.0")
    #expect(SQLiteValue.real(.infinity).sqlLiteral == "9e999")
    #expect(SQLiteValue.real(.nan).sqlLiteral == "NULL")
    #expect(SQLiteValue.text("it's").sqlLiteral == "'it''s'")
    #expect(SQLiteValue.blob([0x0a, 0xff]).sqlLiteral == "X'0AFF'")
  }

  @Test func literalsReadBackAsTheSameValue() throws {
    let db = try SQLiteConnection()
    let values: [SQLiteValue] = [
      .null, .integer(.min), .real(0.1), .real(-1e300), .real(.infinity), .text("a'b\"c\n"), .blob([0, 1, 254]),
    ]
    for value in values {
      #expect(try db.firstRow("SELECT \(literal: value)") { $0.value(at: 0) } == value)
    }
  }
}
