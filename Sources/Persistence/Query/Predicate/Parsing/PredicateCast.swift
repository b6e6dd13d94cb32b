import Foundation

/// The constant conversions of `CAST(value, "Type")`, which is how the format syntax spells
/// constants that have no literal of their own (dates, decimals, UUIDs, URLs, data).
enum PredicateCast {
  /// The type names `CAST` accepts (NSPredicate's class names, and their Swift spellings).
  static let typeNames = ["NSDate", "NSNumber", "NSDecimalNumber", "NSString", "NSUUID", "NSURL", "NSData"]

  /// Converts a constant to the named type; nil when this value cannot become that type.
  /// Throws for an unknown type name.
  static func convert(_ value: PredicateValue, to typeName: String, column: Int, token: String)
    throws(PredicateSyntaxError) -> PredicateValue?
  {
    switch typeName.hasPrefix("NS") ? String(typeName.dropFirst(2)) : typeName {
    case "Date":
      switch value {
      case .date: return value
      case .integer(let seconds): return .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
      case .double(let seconds): return .date(Date(timeIntervalSinceReferenceDate: seconds))
      default: return nil
      }
    case "Number":
      switch value {
      case .integer, .double, .decimal, .bool: return value
      case .string(let text): return Int64(text).map(PredicateValue.integer) ?? Double(text).map(PredicateValue.double)
      default: return nil
      }
    case "DecimalNumber", "Decimal":
      switch value {
      case .decimal: return value
      case .integer(let integer): return .decimal(Decimal(integer))
      case .double(let double) where double.isFinite:
        return .decimal(Decimal(string: double.description) ?? Decimal(double))
      case .string(let text) where isDecimalLiteral(text): return Decimal(string: text).map(PredicateValue.decimal)
      default: return nil
      }
    case "String":
      switch value {
      case .string: return value
      case .integer, .double, .bool, .decimal: return .string(value.description)
      default: return nil
      }
    case "UUID":
      guard case .string(let text) = value else { return value.uuidValue.map { _ in value } }
      return UUID(uuidString: text).map(PredicateValue.uuid)
    case "URL":
      guard case .string(let text) = value else { return value.urlValue.map { _ in value } }
      return URL(string: text).map(PredicateValue.url)
    case "Data":
      guard case .string(let text) = value else { return value.dataValue.map { _ in value } }
      return Data(base64Encoded: text).map(PredicateValue.data)
    default:
      throw PredicateSyntaxError(
        .unknownKeyword, column: column, token: token,
        message: "unsupported CAST type \(token); use one of \(typeNames.joined(separator: ", "))")
    }
  }

  /// Whether `text` is a plain decimal number: optional sign, digits with an optional fraction,
  /// optional exponent. (`Decimal(string:)` alone accepts trailing garbage such as `"1.5x"`.)
  static func isDecimalLiteral(_ text: String) -> Bool {
    var scalars = Substring(text).unicodeScalars[...]
    func digits() -> Int {
      var count = 0
      while let first = scalars.first, ("0"..."9").contains(first) {
        scalars.removeFirst()
        count += 1
      }
      return count
    }
    if scalars.first == "-" || scalars.first == "+" { scalars.removeFirst() }
    var count = digits()
    if scalars.first == "." {
      scalars.removeFirst()
      count += digits()
    }
    guard count > 0 else { return false }
    if scalars.first == "e" || scalars.first == "E" {
      scalars.removeFirst()
      if scalars.first == "-" || scalars.first == "+" { scalars.removeFirst() }
      guard digits() > 0 else { return false }
    }
    return scalars.isEmpty
  }
}

extension PredicateValue {
  /// The UUID, when the value is one.
  fileprivate var uuidValue: UUID? {
    if case .uuid(let value) = self { return value }
    return nil
  }

  /// The URL, when the value is one.
  fileprivate var urlValue: URL? {
    if case .url(let value) = self { return value }
    return nil
  }

  /// The data, when the value is data.
  fileprivate var dataValue: Data? {
    if case .data(let value) = self { return value }
    return nil
  }

  /// The kind of value in words, for error messages ("a string", "nil").
  var kindDescription: String {
    switch self {
    case .null: "nil"
    case .bool: "a boolean"
    case .integer: "an integer"
    case .double: "a double"
    case .decimal: "a decimal"
    case .string: "a string"
    case .date: "a date"
    case .data: "data"
    case .uuid: "a UUID"
    case .url: "a URL"
    case .array: "an array"
    }
  }
}
