import Testing

@testable import SQLite

private struct NotARegex: Error, CustomStringConvertible {
  var description: String { "invalid pattern" }
}

/// Scalar SQL functions implemented by Swift closures.
@Suite struct SQLiteFunctionTests {
  @Test func calledFromSQLWithConvertedArguments() throws {
    let db = try SQLiteConnection()
    try db.createFunction(name: "fold", argumentCount: 1) { arguments in
      guard case .text(let text) = arguments[0] else { return .null }
      return .text(text.lowercased())
    }
    #expect(try db.firstRow("SELECT fold(\("ÉCOLE"))") { $0.text(at: 0) } == "école")
    #expect(try db.firstRow("SELECT fold(NULL)") { $0.isNull(at: 0) } == true)
    try db.execute("CREATE TABLE t (name TEXT); INSERT INTO t VALUES ('Alpha'), ('BETA'), ('gamma')")
    #expect(try db.mapRows("SELECT name FROM t WHERE fold(name) = \("beta")") { $0.text(at: 0) } == ["BETA"])
  }

  @Test func everyResultTypeAndVariadicArguments() throws {
    let db = try SQLiteConnection()
    try db.createFunction(name: "echo", argumentCount: nil) { $0.last ?? .null }
    try db.createFunction(name: "count_arguments", argumentCount: nil) { .integer(Int64($0.count)) }
    let values: [SQLiteValue] = [
      .null, .integer(.max), .real(-0.5), .text("t'x"), .text(""), .blob([]), .blob([1, 2]),
    ]
    for value in values {
      #expect(try db.firstRow("SELECT echo(1, \(value)), typeof(echo(\(value)))") { $0.value(at: 0) } == value)
    }
    #expect(try db.firstRow("SELECT count_arguments(), count_arguments(1, 2, 3)") { $0.rowValues } == [0, 3])
  }

  @Test func aThrowingFunctionFailsTheStatementWithItsMessage() throws {
    let db = try SQLiteConnection()
    try db.createFunction(name: "regexp", argumentCount: 2) { arguments in
      if arguments[0] == "(" { throw NotARegex() }
      return .integer(1)
    }
    #expect(try db.firstRow("SELECT 'abc' REGEXP 'b'") { $0.int(at: 0) } == 1)
    let error = #expect(throws: SQLiteError.self) {
      try db.firstRow("SELECT 'abc' REGEXP \("(")") { $0.int(at: 0) }
    }
    #expect(error?.code == .error)
    #expect(error?.message == "regexp(): invalid pattern")
    #expect(error?.sql == "SELECT 'abc' REGEXP ?")
  }

  @Test func aThrownSQLiteErrorKeepsItsCode() throws {
    let db = try SQLiteConnection()
    try db.createFunction(name: "refuse", argumentCount: 0) { _ in
      throw SQLiteError(code: .constraint, message: "refused")
    }
    let error = #expect(throws: SQLiteError.self) { try db.execute("SELECT refuse()") }
    #expect(error?.code == .constraint)
    #expect(error?.message == "refuse(): refused")
  }

  @Test func replacingAndRemovingReleaseTheClosure() throws {
    let db = try SQLiteConnection()
    final class Token {}
    weak var weakToken: Token?
    do {
      let token = Token()
      weakToken = token
      try db.createFunction(name: "f", argumentCount: 0) { _ in
        _ = token
        return 1
      }
    }
    #expect(weakToken != nil)
    try db.createFunction(name: "f", argumentCount: 0) { _ in 2 }
    #expect(weakToken == nil)
    #expect(try db.firstRow("SELECT f()") { $0.int(at: 0) } == 2)
    try db.removeFunction(name: "f", argumentCount: 0)
    #expect(throws: SQLiteError.self) { try db.execute("SELECT f()") }
  }

  @Test func deterministicFunctionsCanBeIndexed() throws {
    let db = try SQLiteConnection()
    try db.createFunction(name: "twice", argumentCount: 1, deterministic: true) {
      .integer(($0[0].int64Value ?? 0) * 2)
    }
    try db.createFunction(name: "random_twice", argumentCount: 1, deterministic: false) {
      .integer(($0[0].int64Value ?? 0) * 2)
    }
    try db.execute("CREATE TABLE t (v INTEGER); CREATE INDEX t_twice ON t (twice(v))")
    #expect(throws: SQLiteError.self) { try db.execute("CREATE INDEX t_random ON t (random_twice(v))") }
  }

  /// A per-statement cache, as the query functions keep one: made once for a constant argument,
  /// reached by every row after the first, and made again when the argument changes per row.
  final class CachedPattern {
    let text: String
    nonisolated(unsafe) static var made = 0

    init(_ text: String) {
      self.text = text
      Self.made += 1
    }
  }

  @Test func auxiliaryDataIsKeptForAConstantArgumentAndReachedWithoutCopies() throws {
    let db = try SQLiteConnection()
    try db.createFunction(name: "has_prefix", argumentCount: 2) { call in
      guard let subject = call.text(at: 0), let pattern = call.text(at: 1) else { return call.resultNull() }
      let found = call.withAuxiliary(at: 1, as: CachedPattern.self) { cached in
        cached.text == pattern ? subject.hasPrefix(cached.text) : nil
      }
      if let found = found ?? nil { return call.result(found) }
      let made = CachedPattern(pattern)
      call.setAuxiliary(made, at: 1)
      call.result(subject.hasPrefix(made.text))
    }
    try db.execute("CREATE TABLE t (name TEXT, prefix TEXT)")
    try db.execute("INSERT INTO t VALUES ('alpha', 'al'), ('beta', 'be'), ('alps', 'x'), ('gamma', 'ga')")
    CachedPattern.made = 0
    #expect(
      try db.mapRows("SELECT name FROM t WHERE has_prefix(name, 'al') ORDER BY rowid") { $0.text(at: 0) } == [
        "alpha", "alps",
      ])
    #expect(CachedPattern.made == 1)
    CachedPattern.made = 0
    #expect(
      try db.mapRows("SELECT name FROM t WHERE has_prefix(name, prefix) ORDER BY rowid") { $0.text(at: 0) } == [
        "alpha", "beta", "gamma",
      ])
    #expect(CachedPattern.made == 4)
  }
}
