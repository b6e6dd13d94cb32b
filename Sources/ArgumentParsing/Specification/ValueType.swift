/// What an option's value or a positional argument must look like.
///
/// The parser checks every value against its type while parsing, so a bad value is reported
/// as a usage error naming the option and the expected form, before the command runs; the
/// typed accessors of ``ParsedArguments`` then cannot fail.
public enum ValueType: Sendable {
  /// Any string.
  case string
  /// A decimal integer, optionally restricted to a range.
  case integer(ClosedRange<Int>? = nil)
  /// A decimal floating-point number.
  case number
  /// One of a fixed list of words (case-sensitive).
  case choice([String])
  /// Anything `isValid` accepts; `expected` completes "expected …" in error messages
  /// (e.g. `"a date like 2026-01-31"`).
  case custom(expected: String, isValid: @Sendable (String) -> Bool)

  /// The choices of a string-backed enum, in declaration order.
  public static func choice<Choice: CaseIterable & RawRepresentable>(of type: Choice.Type) -> ValueType
  where Choice.RawValue == String {
    .choice(type.allCases.map(\.rawValue))
  }

  /// `nil` when `raw` is acceptable, else what was expected ("an integer from 1 to 10").
  func expectation(for raw: String) -> String? {
    switch self {
    case .string:
      return nil
    case .integer(let range):
      guard let value = Int(raw) else { return describedExpectation }
      if let range, !range.contains(value) { return describedExpectation }
      return nil
    case .number:
      return Double(raw).map { $0.isFinite } == true ? nil : describedExpectation
    case .choice(let choices):
      return choices.contains(raw) ? nil : describedExpectation
    case .custom(_, let isValid):
      return isValid(raw) ? nil : describedExpectation
    }
  }

  /// The expectation in words, for error messages.
  var describedExpectation: String {
    switch self {
    case .string: return "a string"
    case .integer(nil): return "an integer"
    case .integer(let range?): return "an integer from \(range.lowerBound) to \(range.upperBound)"
    case .number: return "a number"
    case .choice(let choices): return "one of: \(choices.joined(separator: ", "))"
    case .custom(let expected, _): return expected
    }
  }

  /// The constraint shown in help text (`one of: json, table`, `1 to 100`), if any.
  var helpConstraint: String? {
    switch self {
    case .string, .integer(nil), .number, .custom: return nil
    case .integer(let range?): return "\(range.lowerBound) to \(range.upperBound)"
    case .choice(let choices): return "one of: \(choices.joined(separator: ", "))"
    }
  }
}
