import Foundation

/// A property-list value, as stored in a store's metadata (`Z_METADATA.Z_PLIST`).
///
/// Keys that Core Data or an app wrote and modelc does not own must survive a rewrite, so the
/// metadata is kept as these values rather than decoded into a fixed structure.
public enum PropertyListValue: Sendable, Hashable {
  case string(String)
  case integer(Int64)
  case real(Double)
  case bool(Bool)
  case date(Date)
  case data(Data)
  case array([PropertyListValue])
  case dictionary([String: PropertyListValue])

  /// Converts what `PropertyListSerialization` returns.
  public init?(foundationValue value: Any) {
    switch value {
    case let string as String: self = .string(string)
    case let data as Data: self = .data(data)
    case let date as Date: self = .date(date)
    case let array as [Any]:
      var converted: [PropertyListValue] = []
      for element in array {
        guard let value = PropertyListValue(foundationValue: element) else { return nil }
        converted.append(value)
      }
      self = .array(converted)
    case let dictionary as [String: Any]:
      var converted: [String: PropertyListValue] = [:]
      for (key, element) in dictionary {
        guard let value = PropertyListValue(foundationValue: element) else { return nil }
        converted[key] = value
      }
      self = .dictionary(converted)
    case let flag as Bool where type(of: value) == Bool.self:
      self = .bool(flag)
    case let number as NSNumber:
      let kind = String(cString: number.objCType)
      if kind == "c" || kind == "B" {
        self = .bool(number.boolValue)
      } else if kind == "d" || kind == "f" {
        self = .real(number.doubleValue)
      } else {
        self = .integer(number.int64Value)
      }
    default:
      return nil
    }
  }

  /// Converts what ``BinaryPropertyList/decode(_:)`` read.
  ///
  /// A dictionary whose file lists a key twice keeps the first value, as Foundation's reader
  /// does.
  ///
  /// - Throws: ``PropertyListError`` for what metadata cannot hold: a set, an object reference
  ///   (`uid`, found only in keyed archives), a null, or a dictionary key that is not a string.
  public init(binary value: BinaryPropertyList.Value) throws(PropertyListError) {
    switch value {
    case .string(let string): self = .string(string)
    case .integer(let integer): self = .integer(integer)
    case .real(let real): self = .real(real)
    case .bool(let flag): self = .bool(flag)
    case .date(let date): self = .date(date)
    case .data(let data): self = .data(data)
    case .array(let elements):
      var converted: [PropertyListValue] = []
      converted.reserveCapacity(elements.count)
      for element in elements { converted.append(try PropertyListValue(binary: element)) }
      self = .array(converted)
    case .dictionary(let pairs):
      var converted: [String: PropertyListValue] = [:]
      converted.reserveCapacity(pairs.count)
      for pair in pairs {
        guard case .string(let key) = pair.key else {
          throw PropertyListError("a dictionary has a key of kind \(pair.key.kindName), not a string")
        }
        let element = try PropertyListValue(binary: pair.value)
        if converted[key] == nil { converted[key] = element }
      }
      self = .dictionary(converted)
    case .set, .uid, .null:
      throw PropertyListError("it holds a \(value.kindName), which store metadata never does")
    }
  }

  /// The value as a ``BinaryPropertyList`` writes it; a dictionary's keys sorted.
  public var binaryValue: BinaryPropertyList.Value {
    switch self {
    case .string(let value): .string(value)
    case .integer(let value): .integer(value)
    case .real(let value): .real(value)
    case .bool(let value): .bool(value)
    case .date(let value): .date(value)
    case .data(let value): .data(value)
    case .array(let values): .array(values.map(\.binaryValue))
    case .dictionary(let values):
      .dictionary(values.sorted { $0.key < $1.key }.map { (key: .string($0.key), value: $0.value.binaryValue) })
    }
  }

  /// The string, if this is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The integer, if this is one (or a real with an integral value).
  public var integerValue: Int64? {
    switch self {
    case .integer(let value): value
    case .real(let value) where value == value.rounded(): Int64(exactly: value)
    case .string(let value): Int64(value)
    default: nil
    }
  }
}
