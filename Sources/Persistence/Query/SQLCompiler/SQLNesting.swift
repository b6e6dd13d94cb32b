import SQLite

/// How deeply a compiled condition nests, against what SQLite's parser takes.
///
/// SQLite parses with a fixed stack (`YYSTACKDEPTH`, 100 entries) and refuses a statement that
/// nests deeper with "parser stack overflow". The predicate parser allows 200 levels, and the
/// in-memory evaluator answers any of them, so a condition too deep for SQLite is not sent to
/// it: the compiler returns nil and the fetch evaluates the predicate in memory, with the same
/// semantics (found by the `Predicate` fuzz target: 125 `!` before a comparison, which the
/// evaluator answered and SQLite refused).
///
/// Each parenthesis open at a point of the condition costs entries of the parser's stack: up
/// to about ten when it opens a subquery (`EXISTS (SELECT …` nested ten deep overflows), up to
/// about five and a half otherwise (a function call nested eighteen deep, `(a OR (b AND …`
/// fifteen deep). The condition fits when the costs of the parentheses open at its deepest
/// point, counted with those upper bounds, leave room for the statement around it.
enum SQLNesting {
  /// The stack entries a condition may use, of SQLite's 100: the rest is left for the
  /// statement around it (select list, `FROM`, ordering, and one enclosing subquery, as a batch
  /// update's `WHERE Z_PK IN (SELECT …)`).
  static let budget = 70
  /// The cost of a parenthesis that opens a subquery.
  static let subqueryCost = 10
  /// The cost of any other parenthesis.
  static let parenthesisCost = 6

  /// Whether SQLite's parser takes `condition` inside a statement.
  static func fits(_ condition: SQLiteSQL) -> Bool {
    cost(of: condition.text) <= budget
  }

  /// The largest sum of the costs of the parentheses open at one point of `sql`, outside quoted
  /// names and string literals.
  static func cost(of sql: String) -> Int {
    var open: [Int] = []
    var current = 0
    var deepest = 0
    var quote: UInt8? = nil
    let bytes = Array(sql.utf8)
    for (index, byte) in bytes.enumerated() {
      if let closing = quote {
        if byte == closing { quote = nil }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "`"):
        quote = byte
      case UInt8(ascii: "("):
        let cost = opensSubquery(bytes, after: index) ? subqueryCost : parenthesisCost
        open.append(cost)
        current += cost
        deepest = max(deepest, current)
      case UInt8(ascii: ")"):
        current -= open.popLast() ?? 0
      default:
        break
      }
    }
    return deepest
  }

  /// Whether the parenthesis at `index` is followed by `SELECT` (after spaces).
  private static func opensSubquery(_ bytes: [UInt8], after index: Int) -> Bool {
    var position = index + 1
    while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 }
    let keyword = Array("SELECT".utf8)
    guard position + keyword.count <= bytes.count else { return false }
    return zip(bytes[position..<position + keyword.count], keyword).allSatisfy { $0 & 0xDF == $1 }
  }
}
