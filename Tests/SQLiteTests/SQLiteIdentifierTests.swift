import Testing

@testable import SQLite

/// Identifier quoting, checked against SQLite itself.
@Suite struct SQLiteIdentifierTests {
  @Test func quotesAndDoublesEmbeddedQuotes() {
    #expect(SQLiteIdentifier.quote("ZTASK") == "\"ZTASK\"")
    #expect(SQLiteIdentifier.quote("we\"ird") == "\"we\"\"ird\"")
    #expect(SQLiteIdentifier.quote("") == "\"\"")
    #expect(SQLiteIdentifier.quote("\"\"") == "\"\"\"\"\"\"")
  }

  @Test(arguments: ["we\"ird", "order", "with space", "semi;colon", "emoji🧪", "\"); DROP TABLE x; --"])
  func quotedNamesWorkAgainstSQLite(_ name: String) throws {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE \(identifier: name) (\(identifier: name) INTEGER, plain TEXT)")
    try db.execute("CREATE INDEX \(identifier: name + "_idx") ON \(identifier: name) (\(identifier: name))")
    try db.execute("INSERT INTO \(identifier: name) (\(identifiers: [name, "plain"])) VALUES (\(1), \(name))")
    #expect(try db.tableNames() == [name])
    #expect(try db.tableExists(name))
    #expect(try db.columns(in: name).map(\.name) == [name, "plain"])
    #expect(try db.indexes(on: name).map(\.name) == [name + "_idx"])
    #expect(
      try db.firstRow("SELECT \(identifier: name), plain FROM \(identifier: name)") { $0.rowValues } == [
        1, .text(name),
      ])
  }
}
