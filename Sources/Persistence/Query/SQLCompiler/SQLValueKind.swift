import Foundation
import SQLite

/// What kind of value an SQL expression of a compiled query yields, known when compiling: it
/// decides how a comparison translates, because SQLite compares by storage class while
/// predicates compare by kind (a date never equals a number, though both are stored as REAL).
///
/// The raw value is the code the `modelc_compare` SQL function receives to turn a stored
/// value back into the ``PredicateValue`` the in-memory evaluator would compare.
enum SQLValueKind: Int, Sendable, Hashable {
  /// An `Integer 16/32/64` column: INTEGER.
  case integer = 1
  /// A `Boolean` column: 0 or 1.
  case boolean = 2
  /// A `Double` or `Float` column: REAL.
  case real = 3
  /// A `Decimal` column: REAL, or a BLOB of decimal text when a double cannot hold it.
  case decimal = 4
  /// A number computed in SQL (`@sum`): INTEGER or REAL.
  case number = 5
  /// A `Date` column: REAL seconds since 2001-01-01.
  case date = 6
  /// A `String` column: TEXT.
  case string = 7
  /// A `URI` column: the absolute string as TEXT.
  case uri = 8
  /// A `UUID` column: a 16-byte BLOB.
  case uuid = 9
  /// A `Binary` (without external storage) or `Transformable` column: a BLOB.
  case binary = 10
  /// A decimal constant given as its decimal text, so that it is compared exactly.
  case decimalText = 11

  /// The kind of an attribute's column, or nil when its values cannot be compared in SQL
  /// (binary data that may live in an external file).
  init?(encoding: ValueEncoding) {
    switch encoding {
    case .integer: self = .integer
    case .boolean: self = .boolean
    case .real: self = .real
    case .timestamp: self = .date
    case .decimal: self = .decimal
    case .text: self = .string
    case .uri: self = .uri
    case .uuid: self = .uuid
    case .binary, .transformable: self = .binary
    case .externalBinary: return nil
    }
  }

  /// Whether values of this kind are numbers (booleans count as 0 and 1).
  var isNumber: Bool {
    switch self {
    case .integer, .boolean, .real, .decimal, .number, .decimalText: true
    default: false
    }
  }

  /// Whether SQLite compares two values of this kind exactly as predicates do: numbers other
  /// than decimals, strings by their bytes, dates by their seconds.
  var isOrderedNatively: Bool {
    switch self {
    case .integer, .boolean, .real, .number, .date, .string: true
    default: false
    }
  }

  /// Whether SQLite's `=` on two values of this kind is the predicates' equality.
  var hasNativeEquality: Bool {
    switch self {
    case .integer, .boolean, .real, .number, .date, .string, .uri, .uuid, .binary: true
    case .decimal, .decimalText: false
    }
  }

  /// The kind class two values must share to be comparable natively: all non-decimal numbers
  /// form one class; every other kind is its own.
  var comparisonClass: Int {
    switch self {
    case .integer, .boolean, .real, .number: 0
    case .decimal, .decimalText: 0
    default: rawValue
    }
  }

  /// The predicate value a stored value of this kind stands for, as the object layer would
  /// decode it; nil for NULL.
  func predicateValue(of stored: SQLiteValue) -> PredicateValue {
    switch (self, stored) {
    case (_, .null): return .null
    case (.integer, .integer(let value)), (.number, .integer(let value)): return .integer(value)
    case (.integer, .real(let value)), (.number, .real(let value)), (.real, .real(let value)): return .double(value)
    case (.real, .integer(let value)): return .double(Double(value))
    case (.boolean, _): return .bool((stored.int64Value ?? 0) != 0)
    case (.decimal, .integer(let value)), (.decimalText, .integer(let value)): return .decimal(Decimal(value))
    case (.decimal, .real(let value)), (.decimalText, .real(let value)):
      return .decimal(Decimal(string: "\(value)", locale: Locale(identifier: "en_US_POSIX")) ?? Decimal(value))
    case (.decimal, .text(let text)), (.decimalText, .text(let text)):
      return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(PredicateValue.decimal) ?? .null
    case (.decimal, .blob(let bytes)), (.decimalText, .blob(let bytes)):
      let text = String(decoding: bytes, as: UTF8.self)
      return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")).map(PredicateValue.decimal) ?? .null
    case (.date, _): return stored.doubleValue.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
    case (.string, .text(let text)): return .string(text)
    case (.uri, .text(let text)): return URL(string: text).map(PredicateValue.url) ?? .null
    case (.uuid, .blob(let bytes)) where bytes.count == 16:
      return .uuid(
        UUID(
          uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
            bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
          )))
    case (.binary, .blob(let bytes)): return .data(Data(bytes))
    default: return .null
    }
  }
}
