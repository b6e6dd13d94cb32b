import Persistence
import Testing

/// Deeply nested predicates are refused with a column instead of overflowing the parser's stack
/// (found by the bad-input campaign: 30,000 NOTs crashed `modelc fetch --where`).
@Suite("Predicate nesting limit")
struct PredicateNestingTests {
  /// A nested format string, shown in test output by its name only.
  struct Nested: CustomTestStringConvertible, Sendable {
    var name: String
    var format: String
    var testDescription: String { name }
  }

  @Test(
    "Nesting past the limit is a syntax error, not a crash",
    arguments: [
      ("30,000 NOTs", String(repeating: "NOT ", count: 30_000) + "title == 'a'"),
      (
        "50,000 parentheses",
        String(repeating: "(", count: 50_000) + "title == 'a'" + String(repeating: ")", count: 50_000)
      ),
      ("20,000 !(", String(repeating: "!(", count: 20_000) + "a == 1" + String(repeating: ")", count: 20_000)),
      ("20,000 {", "a IN " + String(repeating: "{", count: 20_000) + "1" + String(repeating: "}", count: 20_000)),
      (
        "5,000 SUBQUERYs",
        String(repeating: "SUBQUERY(items, $x, ", count: 5_000) + "$x == 1"
          + String(repeating: ").@count > 0", count: 5_000)
      ),
    ].map { Nested(name: $0.0, format: $0.1) })
  func deepNestingIsRefused(_ nested: Nested) {
    let format = nested.format
    #expect {
      _ = try FetchPredicate(format: format)
    } throws: { error in
      "\(error)".contains("nests more than 200 levels")
    }
  }

  @Test("Nesting up to the limit parses")
  func nestingWithinTheLimitParses() throws {
    let format = String(repeating: "NOT (", count: 99) + "title == 'a'" + String(repeating: ")", count: 99)
    let predicate = try FetchPredicate(format: format)
    #expect("\(predicate)".contains("title"))
  }
}
