/// The type of an attribute, as `attributeType` names it in the model file.
///
/// The raw value is the exact XML spelling; ``typeCode`` is Core Data's `NSAttributeType` number,
/// which is also what the version hash feeds.
public enum AttributeType: String, Sendable, Hashable, Codable, CaseIterable {
  case undefined = "Undefined"
  case integer16 = "Integer 16"
  case integer32 = "Integer 32"
  case integer64 = "Integer 64"
  case decimal = "Decimal"
  case double = "Double"
  case float = "Float"
  case string = "String"
  case boolean = "Boolean"
  case date = "Date"
  case binary = "Binary"
  case uuid = "UUID"
  case uri = "URI"
  case transformable = "Transformable"
  case objectID = "ObjectID"
  case composite = "Composite"

  /// Core Data's `NSAttributeType` value.
  public var typeCode: Int32 {
    switch self {
    case .undefined: 0
    case .integer16: 100
    case .integer32: 200
    case .integer64: 300
    case .decimal: 400
    case .double: 500
    case .float: 600
    case .string: 700
    case .boolean: 800
    case .date: 900
    case .binary: 1000
    case .uuid: 1100
    case .uri: 1200
    case .transformable: 1800
    case .objectID: 2000
    case .composite: 2100
    }
  }

  /// Whether values are integers (`Integer 16`, `Integer 32`, `Integer 64`).
  public var isInteger: Bool {
    self == .integer16 || self == .integer32 || self == .integer64
  }

  /// Whether values are numbers of any kind (integers, `Decimal`, `Double`, `Float`).
  public var isNumeric: Bool {
    isInteger || self == .decimal || self == .double || self == .float
  }

  /// The range an integer attribute can hold, `nil` for other types.
  public var integerRange: ClosedRange<Int64>? {
    switch self {
    case .integer16: Int64(Int16.min)...Int64(Int16.max)
    case .integer32: Int64(Int32.min)...Int64(Int32.max)
    case .integer64: Int64.min...Int64.max
    default: nil
    }
  }

  /// Whether Core Data keeps values of this type in a column of the store.
  /// `Undefined` and `ObjectID` attributes exist only in memory.
  public var isStorable: Bool {
    self != .undefined && self != .objectID
  }
}
