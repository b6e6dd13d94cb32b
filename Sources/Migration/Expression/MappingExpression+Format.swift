import Foundation
import Persistence

extension MappingExpression {
  /// The expression in NSExpression's format syntax, as Xcode's mapping editor shows it:
  /// `$source.owner.name`, `"privacy"`, `0`, `YES`, `nil`,
  /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", "PersonToPerson", $source.owner)`.
  ///
  /// The same expression always prints the same text, and ``init(format:)`` reads it back to an
  /// equal expression. Strings are double-quoted with `\"`, `\\`, `\n`, `\t`, `\r`, `\0` and
  /// `\uXXXX` escapes (and `%%` for `%`); integers print without a fraction, other numbers with
  /// one (`1.0`, `2.5e+20`); dates print as `CAST(<seconds since 2001-01-01>, "NSDate")`, bytes
  /// as `CAST("<base64>", "NSData")`, classes as `CAST("<name>", "Class")`.
  public var description: String {
    switch self {
    case .constant(let constant):
      return constant.formatted
    case .evaluatedObject:
      return "SELF"
    case .variable(let name):
      return "$\(name)"
    case .keyPath(.evaluatedObject, let keyPath):
      return Self.formattedKeyPath(keyPath, first: true)
    case .keyPath(let base, let keyPath):
      let baseText: String
      switch base {
      case .keyPath, .set: baseText = "(\(base))"
      default: baseText = base.description
      }
      return "\(baseText).\(Self.formattedKeyPath(keyPath, first: false))"
    case .function(let receiver, let selector, let arguments):
      let parts = [receiver.description, Self.quoted(selector)] + arguments.map(\.description)
      return "FUNCTION(\(parts.joined(separator: ", ")))"
    case .fetch(let request, let context, let countOnly):
      return "FETCH(\(request), \(context), \(countOnly ? "YES" : "NO"))"
    case .aggregate(let elements):
      return "{" + elements.map(\.description).joined(separator: ", ") + "}"
    case .set(let operation, let left, let right):
      let rightText: String
      if case .set = right { rightText = "(\(right))" } else { rightText = right.description }
      return "\(left) \(operation.rawValue) \(rightText)"
    case .symbol(let token):
      return token
    case .anyKey:
      return "ANYKEY"
    }
  }

  /// Words the parser reads as something other than a key: a key of that name is written `#name`.
  static let reservedWords: Set<String> = [
    "SELF", "NIL", "NULL", "YES", "NO", "TRUE", "FALSE", "FUNCTION", "FETCH", "CAST", "ANYKEY", "FIRST", "LAST",
    "SIZE", "UNION", "INTERSECT", "MINUS", "SUBQUERY", "TERNARY", "TRUEPREDICATE", "FALSEPREDICATE", "AND", "OR",
    "NOT", "IN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "ANY", "ALL", "NONE", "SOME",
  ]

  /// A key path as written after a base (`first` false) or on its own (`first` true), with a
  /// `#` before a first key that is a reserved word.
  static func formattedKeyPath(_ keyPath: String, first: Bool) -> String {
    var components = keyPath.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    if first, let head = components.first, reservedWords.contains(head.uppercased()) {
      components[0] = "#" + head
    }
    return components.joined(separator: ".")
  }

  /// A string literal that the predicate lexer reads back to `string`: the predicate printer's,
  /// since both are read by the same lexer.
  static func quoted(_ string: String) -> String {
    PredicateValue.quoted(string)
  }

  /// A number as the lexer reads it back: integers without a fraction, doubles with one.
  static func formattedNumber(_ value: Double) -> String {
    guard value.isFinite else {
      return value.isNaN ? "CAST(\"nan\", \"NSNumber\")" : "CAST(\"\(value > 0 ? "inf" : "-inf")\", \"NSNumber\")"
    }
    let text = String(value)
    return text.contains(".") || text.contains("e") ? text : text + ".0"
  }
}

extension MappingExpression.Constant {
  /// The constant in NSExpression's format syntax.
  var formatted: String {
    switch self {
    case .null: "nil"
    case .string(let string): MappingExpression.quoted(string)
    case .integer(let value): String(value)
    case .double(let value): MappingExpression.formattedNumber(value)
    case .bool(let value): value ? "YES" : "NO"
    case .date(let date):
      "CAST(\(Self.formattedSeconds(date.timeIntervalSinceReferenceDate)), \"NSDate\")"
    case .data(let data): "CAST(\(MappingExpression.quoted(data.base64EncodedString())), \"NSData\")"
    case .className(let name): "CAST(\(MappingExpression.quoted(name)), \"Class\")"
    }
  }

  /// Seconds of a date: whole seconds as an integer, others as a double.
  static func formattedSeconds(_ seconds: Double) -> String {
    if seconds.rounded() == seconds, abs(seconds) < 9e15 { return String(Int64(seconds)) }
    return MappingExpression.formattedNumber(seconds)
  }
}
