import Foundation
import TestSupport

/// The schema of a real Core Data store, extracted into `Tests/Fixtures/stores/` with the sqlite3
/// CLI module: `<name>.schema.sql` holds `sqlite_master.sql` in creation order, one statement
/// per line (SQLite's own `sqlite_autoindex_…` entries have no SQL and are left out), and
/// `<name>.primarykey.txt` holds `Z_PRIMARYKEY` as `Z_ENT|Z_NAME|Z_SUPER`.
struct SchemaFixture {
  /// The statements, in creation order.
  var statements: [String]
  /// The `Z_PRIMARYKEY` rows.
  var primaryKeys: [(number: Int, name: String, superNumber: Int)]

  init(named name: String) throws {
    let directory = TestPaths.fixtures.appendingPathComponent("stores")
    let sql = try String(contentsOf: directory.appendingPathComponent(name + ".schema.sql"), encoding: .utf8)
    statements = sql.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("--") && !$0.isEmpty }
    let keys = try String(contentsOf: directory.appendingPathComponent(name + ".primarykey.txt"), encoding: .utf8)
    primaryKeys = keys.split(separator: "\n").filter { !$0.hasPrefix("#") }.map { line in
      let fields = line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
      return (Int(fields[0]) ?? -1, fields[1], Int(fields[2]) ?? -1)
    }
  }

  /// The statement with whitespace runs collapsed and no space just inside parentheses, so
  /// comparisons ignore layout but not content.
  static func normalized(_ statement: String) -> String {
    var result = ""
    var pendingSpace = false
    for character in statement {
      if character.isWhitespace {
        pendingSpace = true
        continue
      }
      if pendingSpace && !result.isEmpty && result.last != "(" && character != ")" && character != "," {
        result.append(" ")
      }
      pendingSpace = false
      result.append(character)
    }
    return result
  }

  /// The name a `CREATE TABLE` or `CREATE [UNIQUE] INDEX` statement creates.
  static func createdName(_ statement: String) -> String {
    let words = normalized(statement).split(separator: " ")
    let position = words.firstIndex { $0 == "TABLE" || $0 == "INDEX" }.map { $0 + 1 } ?? 0
    return position < words.count ? String(words[position]) : ""
  }
}
