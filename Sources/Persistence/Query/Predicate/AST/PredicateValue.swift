import Foundation

/// A constant in a predicate: a literal of the format string, a format argument, or a scalar
/// value read from an object during evaluation.
///
/// The cases cover the attribute types of a Core Data model. Numbers keep their kind (an
/// integer, a double and a decimal are different cases) but compare numerically with each other
/// and with booleans, as `NSNumber` does.
public enum PredicateValue: Sendable, Hashable, Codable {
  /// `nil` / `NULL`: no value.
  case null
  /// `YES`/`TRUE` or `NO`/`FALSE`. Compares numerically as 1 or 0.
  case bool(Bool)
  /// An integer (integer literals, `%d`, Swift integer arguments).
  case integer(Int64)
  /// A binary floating-point number (literals with a fraction or exponent, `%f`, `Double`, `Float`).
  case double(Double)
  /// A decimal number (`Decimal` arguments, `CAST("1.10", "NSDecimalNumber")`).
  case decimal(Decimal)
  /// A string.
  case string(String)
  /// A point in time (`Date` arguments, `CAST(<seconds since 2001>, "NSDate")`).
  case date(Date)
  /// Binary data (`Data` arguments, `CAST("<base64>", "NSData")`).
  case data(Data)
  /// A UUID (`UUID` arguments, `CAST("<uuid>", "NSUUID")`).
  case uuid(UUID)
  /// A URL (`URL` arguments, `CAST("<url>", "NSURL")`).
  case url(URL)
  /// An ordered collection of values (`{1, 2}`, array or set arguments), used by `IN` and `BETWEEN`.
  case array([PredicateValue])

  /// Whether the value is ``null``.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }
}

extension PredicateValue: ExpressibleByNilLiteral {
  /// Creates ``null`` from `nil`.
  public init(nilLiteral: ()) { self = .null }
}

extension PredicateValue: ExpressibleByBooleanLiteral {
  /// Creates a ``bool(_:)`` from `true` or `false`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension PredicateValue: ExpressibleByIntegerLiteral {
  /// Creates an ``integer(_:)`` from an integer literal.
  public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PredicateValue: ExpressibleByFloatLiteral {
  /// Creates a ``double(_:)`` from a floating-point literal.
  public init(floatLiteral value: Double) { self = .double(value) }
}

extension PredicateValue: ExpressibleByStringLiteral {
  /// Creates a ``string(_:)`` from a string literal.
  public init(stringLiteral value: String) { self = .string(value) }
}

extension PredicateValue: ExpressibleByArrayLiteral {
  /// Creates an ``array(_:)`` from an array literal.
  public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
}
