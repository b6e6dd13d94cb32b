extension MappingExpression {
  /// A value conversion modelc runs in SQL for hand-written mappings, written as a `FUNCTION`
  /// called on the value converted:
  ///
  /// | conversion   | written as                                   | SQL            |
  /// |--------------|----------------------------------------------|----------------|
  /// | `lowercase`  | `FUNCTION(x, "lowercaseString")`             | `lower(x)`     |
  /// | `uppercase`  | `FUNCTION(x, "uppercaseString")`             | `upper(x)`     |
  /// | `trim`       | `FUNCTION(x, "stringByTrimmingWhitespace")`  | `trim(x)`      |
  /// | `string`     | `FUNCTION(x, "stringValue")`                 | `CAST(x AS TEXT)` |
  /// | `integer`    | `FUNCTION(x, "longLongValue")`               | `CAST(x AS INTEGER)` |
  /// | `double`     | `FUNCTION(x, "doubleValue")`                 | `CAST(x AS REAL)` |
  /// | `coalesce`   | `FUNCTION(x, "coalesce:", y, …)`             | `COALESCE(x, y, …)` |
  ///
  /// The selectors are Foundation's (`NSString`, `NSNumber`) where Foundation has one, so a
  /// mapping using them means the same when Core Data runs it; `stringByTrimmingWhitespace` and
  /// `coalesce:` are modelc's own.
  public enum Conversion: String, Sendable, Hashable, Codable, CaseIterable {
    case lowercase, uppercase, trim, string, integer, double, coalesce

    /// The selector the conversion is written with.
    public var selector: String {
      switch self {
      case .lowercase: "lowercaseString"
      case .uppercase: "uppercaseString"
      case .trim: "stringByTrimmingWhitespace"
      case .string: "stringValue"
      case .integer: "longLongValue"
      case .double: "doubleValue"
      case .coalesce: "coalesce:"
      }
    }

    /// The conversion written with `selector`, if any.
    public init?(selector: String) {
      guard let match = Self.allCases.first(where: { $0.selector == selector }) else { return nil }
      self = match
    }
  }

  /// `FUNCTION(value, "<selector>", fallbacks…)`: `value` converted (see ``Conversion``);
  /// `fallbacks` are only used by ``Conversion/coalesce``.
  public static func conversion(
    _ conversion: Conversion, _ value: MappingExpression, _ fallbacks: MappingExpression...
  ) -> MappingExpression {
    .function(value, selector: conversion.selector, arguments: fallbacks)
  }

  /// The conversion and its operands (the value converted first) when the expression is one of
  /// the ``Conversion`` forms: one operand for all but `coalesce`, which takes two or more.
  public var conversion: (conversion: Conversion, operands: [MappingExpression])? {
    guard case .function(let receiver, let selector, let arguments) = self,
      let conversion = Conversion(selector: selector)
    else { return nil }
    if conversion == .coalesce {
      guard !arguments.isEmpty else { return nil }
    } else {
      guard arguments.isEmpty else { return nil }
    }
    return (conversion, [receiver] + arguments)
  }
}
