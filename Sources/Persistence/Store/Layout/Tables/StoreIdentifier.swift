/// How identifiers appear in the SQL this layout generates.
///
/// Core Data writes every identifier bare (`ZTASK`, `Z_Task_byPriorityAndDueDate`), and so does
/// modelc whenever the bare spelling is safe, so generated text equals Core Data's. A name is
/// safe bare when it starts with a letter or `_` and holds only ASCII letters, digits, `_` and
/// characters above U+007F (which SQLite's tokenizer accepts in identifiers). Every generated
/// table and column name starts with `Z`, and no SQLite keyword starts with `Z`, so none of them
/// can be mistaken for a keyword. Anything else (a space, a quote, `-`, `$` from an odd index
/// name) is double-quoted with `"` doubled, which SQLite always reads as an identifier.
///
/// Internal on purpose: the SQLite layer has its own quoting helper; this one only serves the
/// layout's `CREATE` statements.
enum StoreIdentifier {
  /// The identifier as it appears in SQL: bare when safe, else double-quoted.
  static func sql(_ name: String) -> String {
    isSafeBare(name) ? name : quoted(name)
  }

  /// Whether the identifier can be written without quotes.
  static func isSafeBare(_ name: String) -> Bool {
    guard let first = name.unicodeScalars.first else { return false }
    guard isLetter(first) || first == "_" else { return false }
    return name.unicodeScalars.allSatisfy { isLetter($0) || isDigit($0) || $0 == "_" }
  }

  /// The identifier in double quotes, inner quotes doubled.
  static func quoted(_ name: String) -> String {
    var result = "\""
    for character in name {
      result.append(character)
      if character == "\"" { result.append("\"") }
    }
    return result + "\""
  }

  private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
    (scalar >= "A" && scalar <= "Z") || (scalar >= "a" && scalar <= "z") || scalar.value > 0x7F
  }

  private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
    scalar >= "0" && scalar <= "9"
  }
}
