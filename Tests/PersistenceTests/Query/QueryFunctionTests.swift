import Foundation
import SQLite
import Testing

@testable import Persistence

/// The SQL functions compiled queries call give the evaluator's answers, on ASCII and
/// non-ASCII text, for every option.
@Suite("Query SQL functions")
struct QueryFunctionTests {
  static let strings = QueryTestModel.strings + ["", "e", "É", "ss", "SS", "İ", "i\u{307}", "a*", "*", "?", "ab?", "%"]

  @Test("Folding, CONTAINS, BEGINSWITH, ENDSWITH, LIKE and MATCHES agree with the evaluator")
  func agreement() throws {
    let connection = try SQLiteConnection(.inMemory)
    try QueryFunctions.register(on: connection)
    let optionSets: [PredicateComparisonOptions] = [
      [], .caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
    ]
    let contains = try connection.prepare(
      "SELECT modelc_contains(?, ?, ?), modelc_beginswith(?, ?, ?), modelc_endswith(?, ?, ?), modelc_like(?, ?, ?)")
    let fold = try connection.prepare("SELECT modelc_fold(?, ?, ?)")
    for options in optionSets {
      let flags = QueryFunctions.flags(options)
      for string in Self.strings {
        try fold.bind([.text(string), .integer(flags & 1), .integer(flags >> 1)])
        _ = try fold.step()
        #expect(fold.text(at: 0) == PredicateStringFolding.fold(string, options: options))
        fold.reset()
        for other in Self.strings {
          let arguments: [SQLiteValue] = [.text(string), .text(other), .integer(flags)]
          try contains.bind(arguments + arguments + arguments + arguments)
          _ = try contains.step()
          #expect((contains.int64(at: 0) == 1) == PredicateStringMatching.contains(string, other, options: options))
          #expect((contains.int64(at: 1) == 1) == PredicateStringMatching.beginsWith(string, other, options: options))
          #expect((contains.int64(at: 2) == 1) == PredicateStringMatching.endsWith(string, other, options: options))
          #expect(
            (contains.int64(at: 3) == 1) == PredicateStringMatching.like(string, pattern: other, options: options))
          contains.reset()
        }
      }
    }
    // Non-text operands never match; an invalid pattern is an error.
    #expect(
      try connection.firstRow("SELECT modelc_contains(NULL, 'a', 0), modelc_contains(12, '1', 0)") {
        [$0.int64(at: 0), $0.int64(at: 1)]
      } == [0, 0])
    #expect(try connection.firstRow("SELECT modelc_matches('Café', 'caf.', 3)") { $0.int64(at: 0) } == 1)
    #expect(throws: SQLiteError.self) {
      try connection.firstRow("SELECT modelc_matches('a', '(', 0)") { $0.int64(at: 0) }
    }
  }

  @Test("A search string that changes from row to row is folded for each row")
  func changingNeedles() throws {
    let connection = try SQLiteConnection(.inMemory)
    try QueryFunctions.register(on: connection)
    try connection.execute("CREATE TABLE t (h TEXT, n TEXT)")
    let pairs = [
      ("Café", "AFÉ"), ("Café", "XYZ"), ("naïve", "ÏVE"), ("naïve", "ABC"), ("Straße", "SS"), ("Straße", "TT"),
    ]
    for (haystack, needle) in pairs {
      try connection.execute("INSERT INTO t VALUES (\(haystack), \(needle))")
    }
    let found = try connection.mapRows("SELECT modelc_contains(h, n, 1) FROM t ORDER BY rowid") { $0.int64(at: 0) == 1 }
    #expect(found == pairs.map { PredicateStringMatching.contains($0.0, $0.1, options: .caseInsensitive) })
    #expect(found == [true, false, true, false, true, false])
  }

  @Test("modelc_compare compares decimals exactly, whether stored as REAL or as text")
  func decimals() throws {
    let connection = try SQLiteConnection(.inMemory)
    try QueryFunctions.register(on: connection)
    func compare(
      _ code: QueryFunctions.ComparisonCode, _ a: SQLiteValue, _ kindA: SQLValueKind, _ b: SQLiteValue,
      _ kindB: SQLValueKind
    ) throws -> Bool {
      try connection.firstRow(
        "SELECT modelc_compare(\(code.rawValue), 0, \(Int64(kindA.rawValue)), \(a), \(Int64(kindB.rawValue)), \(b))"
      ) { $0.int64(at: 0) == 1 } ?? false
    }
    let long = SQLiteValue.blob(Array("12345678901234567890.5".utf8))
    #expect(try compare(.greater, long, .decimal, .text("12345678901234567890"), .decimalText))
    #expect(try !compare(.equal, long, .decimal, .integer(Int64.max), .integer))
    #expect(try compare(.equal, .real(0.1), .decimal, .text("0.1"), .decimalText))
    #expect(try compare(.less, .real(0.1), .decimal, .real(0.25), .real))
    #expect(try compare(.notEqual, .null, .decimal, .integer(1), .integer))
    #expect(try !compare(.less, .null, .decimal, .integer(1), .integer))
  }
}
