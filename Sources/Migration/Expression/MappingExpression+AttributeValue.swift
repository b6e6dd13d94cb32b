import DataModel
import Foundation

extension MappingExpression {
  /// A constant holding an attribute value (a model's default value), or `nil` for nil.
  ///
  /// Values NSExpression has no literal for are written as text that converts back exactly to
  /// the attribute's type (see ``Constant/attributeValue(for:)``): a decimal as its digits, a
  /// UUID as its `uuidString`, a URI as its absolute string; a float widens to a double.
  public static func value(_ value: AttributeValue?) -> MappingExpression {
    guard let value else { return .constant(.null) }
    switch value {
    case .integer(let integer): return .constant(.integer(integer))
    case .decimal(let decimal): return .constant(.string(decimal.description))
    case .double(let double): return .constant(.double(double))
    case .float(let float): return .constant(.double(Double(float)))
    case .string(let string): return .constant(.string(string))
    case .boolean(let flag): return .constant(.bool(flag))
    case .date(let date): return .constant(.date(date))
    case .binary(let data): return .constant(.data(data))
    case .uuid(let uuid): return .constant(.string(uuid.uuidString))
    case .uri(let url): return .constant(.string(url.absoluteString))
    }
  }
}

extension MappingExpression.Constant {
  /// The constant as a value of an attribute of `type`, converted the way Core Data's key-value
  /// coding of a mapping's constants would need: numbers between number types, `YES`/`NO` as
  /// 1/0, text to numbers, decimals, UUIDs and URIs when it reads as one. `nil` for a nil
  /// constant.
  ///
  /// - Throws: ``MappingConstantError`` when the constant cannot be stored in such an attribute
  ///   (text that is not a number for an integer attribute, a date for a string attribute, …).
  public func attributeValue(for type: AttributeType) throws(MappingConstantError) -> AttributeValue? {
    if case .null = self { return nil }
    let posix = Locale(identifier: "en_US_POSIX")
    let converted: AttributeValue?
    switch (type, self) {
    case (.integer16, _), (.integer32, _), (.integer64, _):
      switch self {
      case .integer(let value): converted = .integer(value)
      case .bool(let flag): converted = .integer(flag ? 1 : 0)
      case .double(let value) where value.rounded() == value && abs(value) < 9e18: converted = .integer(Int64(value))
      case .string(let text): converted = Int64(text.trimmingCharacters(in: .whitespaces)).map(AttributeValue.integer)
      default: converted = nil
      }
    case (.double, _), (.float, _), (.decimal, _):
      let number: Double?
      switch self {
      case .integer(let value): number = Double(value)
      case .double(let value): number = value
      case .bool(let flag): number = flag ? 1 : 0
      case .string(let text): number = Double(text.trimmingCharacters(in: .whitespaces))
      default: number = nil
      }
      if type == .decimal {
        if case .string(let text) = self {
          converted = Decimal(string: text, locale: posix).map(AttributeValue.decimal)
        } else if case .integer(let value) = self {
          converted = .decimal(Decimal(value))
        } else {
          converted = number.flatMap { Decimal(string: String($0), locale: posix) }.map(AttributeValue.decimal)
        }
      } else if type == .float {
        converted = number.map { .float(Float($0)) }
      } else {
        converted = number.map(AttributeValue.double)
      }
    case (.string, .string(let text)): converted = .string(text)
    case (.string, .integer(let value)): converted = .string(String(value))
    case (.string, .double(let value)): converted = .string(String(value))
    case (.boolean, .bool(let flag)): converted = .boolean(flag)
    case (.boolean, .integer(let value)): converted = .boolean(value != 0)
    case (.boolean, .string(let text)):
      switch text.uppercased() {
      case "YES", "TRUE", "1": converted = .boolean(true)
      case "NO", "FALSE", "0": converted = .boolean(false)
      default: converted = nil
      }
    case (.date, .date(let date)): converted = .date(date)
    case (.date, .integer(let seconds)): converted = .date(Date(timeIntervalSinceReferenceDate: Double(seconds)))
    case (.date, .double(let seconds)): converted = .date(Date(timeIntervalSinceReferenceDate: seconds))
    case (.binary, .data(let data)), (.transformable, .data(let data)): converted = .binary(data)
    case (.uuid, .string(let text)): converted = UUID(uuidString: text).map(AttributeValue.uuid)
    case (.uri, .string(let text)): converted = URL(string: text).map(AttributeValue.uri)
    case (.undefined, _), (.transformable, _), (.objectID, _), (.composite, _): converted = naturalAttributeValue
    default: converted = nil
    }
    guard let converted else { throw MappingConstantError(constant: self, type: type) }
    return converted
  }

  /// The attribute value of the constant's own kind, for attributes whose type says nothing
  /// about their values (undefined, transformable, composite).
  var naturalAttributeValue: AttributeValue? {
    switch self {
    case .null, .className: nil
    case .string(let text): .string(text)
    case .integer(let value): .integer(value)
    case .double(let value): .double(value)
    case .bool(let flag): .boolean(flag)
    case .date(let date): .date(date)
    case .data(let data): .binary(data)
    }
  }
}

/// A constant of a mapping that an attribute of some type cannot hold.
public struct MappingConstantError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The constant.
  public var constant: MappingExpression.Constant
  /// The attribute type it was meant for.
  public var type: AttributeType

  public var description: String {
    "the constant \(MappingExpression.constant(constant)) cannot be stored in a \(type.rawValue) attribute; write a constant of that type"
  }
}
