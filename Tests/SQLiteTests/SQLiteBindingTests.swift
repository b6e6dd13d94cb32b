import Testing

@testable import SQLite

/// Indexed, named and array binding, and the strictness that catches argument mistakes.
@Suite struct SQLiteBindingTests {
  private func makeTable() throws -> SQLiteConnection {
    let db = try SQLiteConnection()
    try db.execute("CREATE TABLE task (id INTEGER PRIMARY KEY, title TEXT, priority INTEGER, note TEXT)")
    return db
  }

  @Test func bindsByOneBasedIndex() throws {
    let db = try makeTable()
    let insert = try db.prepare("INSERT INTO task (title, priority) VALUES (?, ?)")
    #expect(insert.parameterCount == 2)
    try insert.bind("first", at: 1)
    try insert.bind(3, at: 2)
    try insert.execute()
    #expect(
      try db.firstRow("SELECT title, priority FROM task") { [$0.value(at: 0), $0.value(at: 1)] } == ["first", 3])
  }

  @Test func bindsByName() throws {
    let db = try makeTable()
    let insert = try db.prepare("INSERT INTO task (title, priority, note) VALUES (:title, @priority, $note)")
    #expect(insert.parameterName(at: 1) == ":title")
    #expect(insert.parameterIndex(named: ":title") == 1)
    #expect(insert.parameterIndex(named: "priority") == 2)
    #expect(insert.parameterIndex(named: "$note") == 3)
    #expect(insert.parameterIndex(named: "missing") == nil)
    try insert.bind("named", named: ":title")
    try insert.bind(["priority": 5, "note": nil])
    try insert.execute()
    #expect(try db.firstRow("SELECT title, priority, note FROM task") { $0.rowValues } == ["named", 5, nil])
  }

  @Test func unknownNameOrIndexIsARangeError() throws {
    let db = try makeTable()
    let statement = try db.prepare("SELECT * FROM task WHERE id = :id")
    let nameError = #expect(throws: SQLiteError.self) { try statement.bind(1, named: "identifier") }
    #expect(nameError?.code == .range)
    #expect(nameError?.message == "no parameter named 'identifier'")
    let indexError = #expect(throws: SQLiteError.self) { try statement.bind(1, at: 2) }
    #expect(indexError?.message == "parameter index 2 is out of range 1...1")
  }

  @Test func bindsAnArrayAndRequiresExactlyOneValuePerParameter() throws {
    let db = try makeTable()
    let insert = try db.prepare("INSERT INTO task (title, priority) VALUES (?, ?)")
    try insert.execute(["a", 1])
    try insert.execute(["b", 2])
    let tooFew = #expect(throws: SQLiteError.self) { try insert.execute(["c"]) }
    #expect(tooFew?.message == "the statement has 2 parameter(s) but 1 value(s) were given")
    #expect(throws: SQLiteError.self) { try insert.execute(["c", 3, 4]) }
    #expect(try db.mapRows("SELECT title FROM task ORDER BY id") { $0.text(at: 0) } == ["a", "b"])
  }

  @Test func resetKeepsBindingsAndClearBindingsNullsThem() throws {
    let db = try makeTable()
    let select = try db.prepare("SELECT ?")
    try select.bind(7, at: 1)
    #expect(try select.firstRow { $0.int64(at: 0) } == 7)
    select.reset()
    #expect(try select.firstRow { $0.int64(at: 0) } == 7)
    select.clearBindings()
    #expect(try select.firstRow { $0.isNull(at: 0) } == true)
  }

  @Test func interpolatedValuesAreBoundNeverSpliced() throws {
    let db = try makeTable()
    let hostile = "x'); DROP TABLE task; --"
    let priority: Int? = nil
    let sql: SQLiteSQL = "INSERT INTO task (title, priority) VALUES (\(hostile), \(priority))"
    #expect(sql.text == "INSERT INTO task (title, priority) VALUES (?, ?)")
    #expect(sql.arguments == [.text(hostile), .null])
    try db.execute(sql)
    #expect(try db.tableExists("task"))
    #expect(try db.firstRow("SELECT title FROM task") { $0.text(at: 0) } == hostile)
  }

  @Test func fragmentsComposeWithTheirArguments() throws {
    let db = try makeTable()
    try db.execute("INSERT INTO task (title, priority) VALUES ('a', 1), ('b', 2), ('c', 3)")
    let conditions: [SQLiteSQL] = ["priority >= \(2)", "title <> \("c")"]
    var query: SQLiteSQL = "SELECT \(identifier: "title") FROM task WHERE "
    query += conditions.joined(separator: " AND ")
    query = query + " ORDER BY id LIMIT \(10)"
    #expect(query.text == "SELECT \"title\" FROM task WHERE priority >= ? AND title <> ? ORDER BY id LIMIT ?")
    #expect(query.arguments == [2, "c", 10])
    #expect(try db.mapRows(query) { $0.text(at: 0) } == ["b"])
    #expect(query.description.hasSuffix("-- arguments: 2, 'c', 10"))
  }

  @Test func columnMetadata() throws {
    let db = try makeTable()
    let select = try db.prepare("SELECT id, title AS name, priority + 1 FROM task")
    #expect(select.columnCount == 3)
    #expect(select.columnNames == ["id", "name", "priority + 1"])
    #expect(select.columnIndex(named: "name") == 1)
    #expect(select.declaredType(at: 0) == "INTEGER")
    #expect(select.declaredType(at: 1) == "TEXT")
    #expect(select.declaredType(at: 2) == nil)
    #expect(select.isReadOnly)
    #expect(try !db.prepare("DELETE FROM task").isReadOnly)
  }

  @Test func expandedSQLShowsBindings() throws {
    let db = try makeTable()
    let select = try db.prepare("SELECT * FROM task WHERE title = \("it's")")
    #expect(select.expandedSQL == "SELECT * FROM task WHERE title = 'it''s'")
  }

  @Test func placeholdersListOnePerValueAndBindThem() throws {
    #expect(SQLiteSQL.placeholders(count: 0) == "")
    #expect(SQLiteSQL.placeholders(count: 1) == "?")
    #expect(SQLiteSQL.placeholders(count: 3) == "?, ?, ?")
    let db = try SQLiteConnection(.inMemory)
    let keys: [SQLiteValue] = (1...500).map { .integer(Int64($0)) }
    let sum = try db.firstRow(
      SQLiteSQL(
        verbatim:
          "SELECT sum(value) FROM json_each('[1, 250, 500, 501]') WHERE value IN (\(SQLiteSQL.placeholders(count: 500)))",
        arguments: keys)
    ) { $0.int64(at: 0) }
    #expect(sum == 751)
  }

  @Test func aParameterCursorBindsInOrderRowAfterRow() throws {
    let db = try makeTable()
    let insert = try db.prepare("INSERT INTO task (title, priority, note) VALUES (?, ?, ?)")
    for (title, priority) in [("first", Int64(1)), ("second", 2)] {
      // The statement ran for the row before: the cursor resets it before binding.
      var row = SQLiteParameterCursor(insert)
      try row.bind(.text(title))
      try row.bind(.integer(priority))
      try row.bind(.null)
      #expect(row.boundCount == 3)
      try row.execute()
    }
    #expect(
      try db.mapRows("SELECT title, priority, note FROM task ORDER BY id") {
        [$0.value(at: 0), $0.value(at: 1), $0.value(at: 2)]
      } == [["first", 1, .null], ["second", 2, .null]])
  }

  @Test func bytesBindAsTheBlobOfTheSameBytesWould() throws {
    let db = try makeTable()
    let select = try db.prepare("SELECT ?, typeof(?), ?")
    var row = SQLiteParameterCursor(select)
    let uuid: (UInt8, UInt8, UInt8, UInt8) = (0, 7, 0xFE, 1)
    try withUnsafeBytes(of: uuid) { try row.bind(bytes: $0) }
    try [UInt8]().withUnsafeBytes { try row.bind(bytes: $0) }
    try row.bind(.blob([0, 7, 0xFE, 1]))
    let tooMany = #expect(throws: SQLiteError.self) {
      try [UInt8](repeating: 1, count: 3).withUnsafeBytes { try row.bind(bytes: $0) }
    }
    #expect(tooMany?.code == .range)
    #expect(tooMany?.message == "parameter index 4 is out of range 1...3")
    #expect(try select.step())
    // Equal to the array's blob, and an empty buffer an empty blob (as an empty array is), not NULL.
    #expect(select.value(at: 0) == .blob([0, 7, 0xFE, 1]))
    #expect(select.value(at: 0) == select.value(at: 2))
    #expect(select.text(at: 1) == "blob")
  }

  @Test func textBytesBindAsTheStringOfTheSameBytesWould() throws {
    let db = try makeTable()
    let select = try db.prepare("SELECT ?, ?, typeof(?), length(CAST(? AS BLOB)), ?")
    var row = SQLiteParameterCursor(select)
    var text = "caf\u{E9}\u{0}end"
    try text.withUTF8 { try row.bind(text: $0) }
    try row.bind(.text(text))
    try text.withUTF8 { try row.bind(text: $0) }
    try text.withUTF8 { try row.bind(text: $0) }
    try row.bind(text: UnsafeBufferPointer(start: nil, count: 0))
    let tooMany = #expect(throws: SQLiteError.self) { try text.withUTF8 { try row.bind(text: $0) } }
    #expect(tooMany?.code == .range)
    #expect(tooMany?.message == "parameter index 6 is out of range 1...5")
    #expect(try select.step())
    // The string's own binding, every byte of it (the NUL too); an empty buffer is the empty
    // string, not NULL.
    #expect(select.value(at: 0) == .text(text))
    #expect(select.value(at: 0) == select.value(at: 1))
    #expect(select.text(at: 2) == "text")
    #expect(select.int64(at: 3) == 9)
    #expect(select.value(at: 4) == .text(""))
  }

  @Test func aParameterCursorRefusesTooFewOrTooManyValues() throws {
    let db = try makeTable()
    let insert = try db.prepare("INSERT INTO task (title, priority) VALUES (?, ?)")
    var short = SQLiteParameterCursor(insert)
    try short.bind(.text("only a title"))
    let tooFew = #expect(throws: SQLiteError.self) { try short.execute() }
    #expect(tooFew?.code == .range)
    #expect(tooFew?.message.contains("2 parameter(s) but 1 value(s)") == true)
    var long = SQLiteParameterCursor(insert)
    try long.bind(.text("title"))
    try long.bind(1)
    let tooMany = #expect(throws: SQLiteError.self) { try long.bind(.text("one too many")) }
    #expect(tooMany?.code == .range)
    #expect(try db.firstRow("SELECT count(*) FROM task") { $0.int(at: 0) } == 0)
  }
}
