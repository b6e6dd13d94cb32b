import Foundation

extension PredicateValue: CustomStringConvertible {
  /// The value as a literal of the format syntax, which ``FetchPredicate/init(format:_:)`` parses
  /// back to an equal value.
  ///
  /// Numbers, strings, booleans and `nil` print as plain literals (`42`, `1.5`, `"a\"b"`, `TRUE`,
  /// `nil`). A double always has a fraction or exponent so it re-parses as a double; infinities
  /// print as `1e999`/`-1e999`. Values with no literal syntax of their own print as a `CAST`
  /// (NSPredicate's conversion function), which the parser folds back into a constant:
  /// `CAST(726000000.0, "NSDate")` (seconds since 2001-01-01 UTC, as NSPredicate prints dates),
  /// `CAST("1.10", "NSDecimalNumber")`, `CAST("<uuid>", "NSUUID")`, `CAST("<url>", "NSURL")` and
  /// `CAST("<base64>", "NSData")`.
  public var description: String {
    switch self {
    case .null: "nil"
    case .bool(let value): value ? "TRUE" : "FALSE"
    case .integer(let value): String(value)
    case .double(let value): Self.formatDouble(value)
    case .decimal(let value): "CAST(\(Self.quoted(value.description)), \"NSDecimalNumber\")"
    case .string(let value): Self.quoted(value)
    case .date(let value): "CAST(\(Self.formatDouble(value.timeIntervalSinceReferenceDate)), \"NSDate\")"
    case .data(let value): "CAST(\(Self.quoted(value.base64EncodedString())), \"NSData\")"
    case .uuid(let value): "CAST(\(Self.quoted(value.uuidString)), \"NSUUID\")"
    case .url(let value): "CAST(\(Self.quoted(value.absoluteString)), \"NSURL\")"
    case .array(let values): "{" + values.map(\.description).joined(separator: ", ") + "}"
    }
  }

  /// A double literal that re-parses as a double (never as an integer).
  static func formatDouble(_ value: Double) -> String {
    if value.isNaN { return "CAST(\"nan\", \"NSNumber\")" }
    if value.isInfinite { return value < 0 ? "-1e999" : "1e999" }
    return value.description
  }

  /// A double-quoted string literal with the escapes the lexer understands; `%` is doubled
  /// because `%%` is how a format string spells a literal percent sign inside a string.
  package static func quoted(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case "%": result += "%%"
      case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value):
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
