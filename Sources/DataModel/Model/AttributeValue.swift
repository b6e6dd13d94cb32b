import Foundation

/// A typed value of an attribute: a default value, a minimum or maximum, or a stored value.
///
/// Integers of every width are ``integer(_:)``; the attribute's type says the width.
public enum AttributeValue: Sendable, Hashable, Codable, CustomStringConvertible {
  case integer(Int64)
  case decimal(Decimal)
  case double(Double)
  case float(Float)
  case string(String)
  case boolean(Bool)
  case date(Date)
  case binary(Data)
  case uuid(UUID)
  case uri(URL)

  /// The value as a `Double`, for numeric comparisons of ranges and defaults.
  public var numericValue: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .decimal(let value): NSDecimalNumber(decimal: value).doubleValue
    case .double(let value): value
    case .float(let value): Double(value)
    case .boolean(let value): value ? 1 : 0
    case .date(let value): value.timeIntervalSinceReferenceDate
    default: nil
    }
  }

  /// A readable rendering for diagnostics and dumps.
  public var description: String {
    switch self {
    case .integer(let value): String(value)
    case .decimal(let value): value.description
    case .double(let value): String(value)
    case .float(let value): String(value)
    case .string(let value): value
    case .boolean(let value): value ? "YES" : "NO"
    case .date(let value): String(value.timeIntervalSinceReferenceDate)
    case .binary(let value): value.base64EncodedString()
    case .uuid(let value): value.uuidString
    case .uri(let value): value.absoluteString
    }
  }
}
