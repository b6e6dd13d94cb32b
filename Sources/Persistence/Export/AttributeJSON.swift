import Foundation

/// Attribute values as JSON and back, as `modelc store export`, `import` and `fetch` write and
/// read them.
///
/// Integers and floating-point values are JSON numbers (exact: an integer that does not fit its
/// attribute is an error, never truncated); the infinities, which JSON cannot hold, are the
/// strings `"inf"` and `"-inf"`, and negative zero is `-0.0`. Decimal is a string (reading also
/// takes a number), Boolean `true`/`false`, Date ISO 8601 in UTC with milliseconds (reading also
/// takes it without a fraction, or with an offset), Binary and Transformable base64, UUID its
/// canonical string (uppercase, as Foundation writes it; reading takes either case), URI its
/// absolute string.
public enum AttributeJSON {
  /// The JSON of an attribute value; nil is `null`.
  public static func json(_ value: AttributeValue?) -> JSONValue {
    guard let value else { return .null }
    switch value {
    case .integer(let integer): return .integer(integer)
    case .boolean(let flag): return .bool(flag)
    case .double(let double): return number(double)
    case .float(let float): return number(float)
    case .decimal(let decimal): return .string(decimal.description)
    case .string(let string): return .string(string)
    case .date(let date): return .string(ISO8601Milliseconds.string(from: date))
    case .binary(let data): return .string(data.base64EncodedString())
    case .uuid(let uuid): return .string(uuid.uuidString)
    case .uri(let url): return .string(url.absoluteString)
    }
  }

  /// A floating-point value as the shortest text that reads back as the same value.
  static func number<Value: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Value) -> JSONValue {
    if value.isNaN { return .string("nan") }
    if value.isInfinite { return .string(value < 0 ? "-inf" : "inf") }
    return .number(value.description)
  }

  /// The attribute value a JSON value stands for; `null` is nil.
  ///
  /// Throws when the JSON is of the wrong kind for the attribute's type, does not parse, or does
  /// not fit (an integer beyond its width, a number beyond `Float`'s or `Double`'s range, a
  /// Decimal with more digits than `Decimal` keeps, NaN, which SQLite cannot store).
  ///
  /// - Throws: ``AttributeJSONError`` (typed) saying what the attribute's type expects and what
  ///   the JSON holds.
  public static func value(_ json: JSONValue, for attribute: AttributeDescription) throws(AttributeJSONError)
    -> AttributeValue?
  {
    if case .null = json { return nil }
    let type = attribute.attributeType
    func wrongKind(_ expected: String) -> AttributeJSONError {
      AttributeJSONError("expected \(expected) for this \(type.rawValue) attribute, found \(json.kindName)")
    }
    switch type {
    case .integer16, .integer32, .integer64:
      guard case .number(let text) = json else { throw wrongKind("a whole number") }
      guard let integer = Int64(text) else {
        if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) {
          throw AttributeJSONError("\(text) is not a whole number, as this \(type.rawValue) attribute requires")
        }
        throw AttributeJSONError(
          "\(text) overflows \(type.rawValue) (\(type.integerRange!.lowerBound)…\(type.integerRange!.upperBound))")
      }
      guard let range = type.integerRange, range.contains(integer) else {
        throw AttributeJSONError(
          "\(text) overflows \(type.rawValue) (\(type.integerRange!.lowerBound)…\(type.integerRange!.upperBound))")
      }
      return .integer(integer)
    case .boolean:
      guard case .bool(let flag) = json else { throw wrongKind("true or false") }
      return .boolean(flag)
    case .double:
      return .double(try floatingPoint(json, as: Double.self, type: type))
    case .float:
      return .float(try floatingPoint(json, as: Float.self, type: type))
    case .decimal:
      let text: String
      switch json {
      case .string(let string): text = string
      case .number(let number): text = number
      default: throw wrongKind("a decimal number as a string")
      }
      return .decimal(try decimal(text))
    case .string:
      guard case .string(let string) = json else { throw wrongKind("a string") }
      return .string(string)
    case .date:
      guard case .string(let string) = json else { throw wrongKind("an ISO 8601 date string") }
      guard let date = ISO8601Milliseconds.date(from: string) else {
        throw AttributeJSONError("'\(string)' is not an ISO 8601 date like 2026-01-31T12:00:00.000Z")
      }
      return .date(date)
    case .binary, .transformable:
      guard case .string(let string) = json else { throw wrongKind("base64 text") }
      guard let data = Data(base64Encoded: string) else {
        throw AttributeJSONError("the text is not valid base64")
      }
      return .binary(data)
    case .uuid:
      guard case .string(let string) = json else { throw wrongKind("a UUID string") }
      guard let uuid = UUID(uuidString: string) else {
        throw AttributeJSONError("'\(string)' is not a UUID like 123E4567-E89B-12D3-A456-426614174000")
      }
      return .uuid(uuid)
    case .uri:
      guard case .string(let string) = json else { throw wrongKind("a URI string") }
      guard let url = URL(string: string) else { throw AttributeJSONError("'\(string)' is not a URI") }
      return .uri(url)
    case .undefined, .objectID, .composite:
      throw AttributeJSONError("\(type.rawValue) attributes are not stored, so they cannot be imported")
    }
  }

  private static func floatingPoint<Value: BinaryFloatingPoint & LosslessStringConvertible>(
    _ json: JSONValue, as: Value.Type, type: AttributeType
  ) throws(AttributeJSONError) -> Value {
    switch json {
    case .number(let text):
      guard let value = Value(text) else { throw AttributeJSONError("\(text) is not a number") }
      guard value.isFinite else {
        throw AttributeJSONError(
          "\(text) overflows \(type.rawValue) (largest magnitude \(Value.greatestFiniteMagnitude))")
      }
      return value
    case .string(let text):
      switch text {
      case "inf", "+inf", "Infinity", "+Infinity": return .infinity
      case "-inf", "-Infinity": return -.infinity
      case "nan", "NaN":
        throw AttributeJSONError("NaN cannot be stored: SQLite keeps a NaN REAL as NULL")
      default:
        throw AttributeJSONError(
          "expected a number (or \"inf\" or \"-inf\") for this \(type.rawValue) attribute, found the string '\(text)'")
      }
    default:
      throw AttributeJSONError("expected a number for this \(type.rawValue) attribute, found \(json.kindName)")
    }
  }

  /// The most significant digits a `Decimal` keeps.
  static let decimalDigits = 38

  /// Parses a decimal number exactly: `-12.5`, `1e-3`; more significant digits than `Decimal`
  /// keeps are an error rather than a rounded value.
  static func decimal(_ text: String) throws(AttributeJSONError) -> Decimal {
    let bytes = Array(text.utf8)
    var index = 0
    func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
    var digits: [UInt8] = []
    var sawPoint = false
    while index < bytes.count, isDigit(bytes[index]) || (!sawPoint && bytes[index] == UInt8(ascii: ".")) {
      if bytes[index] == UInt8(ascii: ".") { sawPoint = true } else { digits.append(bytes[index]) }
      index += 1
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
      let start = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      if index == start { digits = [] }
    }
    guard !digits.isEmpty, index == bytes.count,
      let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    else {
      throw AttributeJSONError("'\(text)' is not a decimal number like -1234.5678")
    }
    guard !value.isNaN else { throw AttributeJSONError("'\(text)' is beyond the range of Decimal") }
    // Leading and trailing zeros go into the exponent, not the mantissa.
    let significant = digits.drop { $0 == UInt8(ascii: "0") }
    let count = significant.count - significant.reversed().prefix { $0 == UInt8(ascii: "0") }.count
    guard count <= decimalDigits else {
      throw AttributeJSONError("'\(text)' has \(count) significant digits; Decimal keeps \(decimalDigits)")
    }
    return value
  }
}
