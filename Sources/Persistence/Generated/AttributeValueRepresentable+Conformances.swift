import Foundation

extension Int16: AttributeValueRepresentable {
  /// An integer (clamped to `Int16`'s range) or a boolean as 0 or 1.
  public init?(attributeValue: AttributeValue) {
    guard let value = attributeValue.integerForGeneratedCode else { return nil }
    self.init(clamping: value)
  }

  /// `.integer`.
  public var attributeValue: AttributeValue { .integer(Int64(self)) }

  /// 0.
  public static var zeroValue: Int16 { 0 }
}

extension Int32: AttributeValueRepresentable {
  /// An integer (clamped to `Int32`'s range) or a boolean as 0 or 1.
  public init?(attributeValue: AttributeValue) {
    guard let value = attributeValue.integerForGeneratedCode else { return nil }
    self.init(clamping: value)
  }

  /// `.integer`.
  public var attributeValue: AttributeValue { .integer(Int64(self)) }

  /// 0.
  public static var zeroValue: Int32 { 0 }
}

extension Int64: AttributeValueRepresentable {
  /// An integer, or a boolean as 0 or 1.
  public init?(attributeValue: AttributeValue) {
    guard let value = attributeValue.integerForGeneratedCode else { return nil }
    self = value
  }

  /// `.integer`.
  public var attributeValue: AttributeValue { .integer(self) }

  /// 0.
  public static var zeroValue: Int64 { 0 }
}

extension Double: AttributeValueRepresentable {
  /// A double, float, integer or decimal.
  public init?(attributeValue: AttributeValue) {
    switch attributeValue {
    case .double(let value): self = value
    case .float(let value): self = Double(value)
    case .integer(let value): self = Double(value)
    case .decimal(let value): self = NSDecimalNumber(decimal: value).doubleValue
    default: return nil
    }
  }

  /// `.double`.
  public var attributeValue: AttributeValue { .double(self) }

  /// 0.
  public static var zeroValue: Double { 0 }
}

extension Float: AttributeValueRepresentable {
  /// A float, double, integer or decimal, rounded to `Float`.
  public init?(attributeValue: AttributeValue) {
    switch attributeValue {
    case .float(let value): self = value
    case .double(let value): self = Float(value)
    case .integer(let value): self = Float(value)
    case .decimal(let value): self = NSDecimalNumber(decimal: value).floatValue
    default: return nil
    }
  }

  /// `.float`.
  public var attributeValue: AttributeValue { .float(self) }

  /// 0.
  public static var zeroValue: Float { 0 }
}

extension Bool: AttributeValueRepresentable {
  /// A boolean, or an integer (non-zero is true).
  public init?(attributeValue: AttributeValue) {
    switch attributeValue {
    case .boolean(let value): self = value
    case .integer(let value): self = value != 0
    default: return nil
    }
  }

  /// `.boolean`.
  public var attributeValue: AttributeValue { .boolean(self) }

  /// `false`.
  public static var zeroValue: Bool { false }
}

extension Decimal: AttributeValueRepresentable {
  /// A decimal, or an integer or double converted to decimal.
  public init?(attributeValue: AttributeValue) {
    switch attributeValue {
    case .decimal(let value): self = value
    case .integer(let value): self = Decimal(value)
    case .double(let value): self = Decimal(value)
    case .float(let value): self = Decimal(Double(value))
    default: return nil
    }
  }

  /// `.decimal`.
  public var attributeValue: AttributeValue { .decimal(self) }

  /// 0.
  public static var zeroValue: Decimal { 0 }
}

extension String: AttributeValueRepresentable {
  /// A string.
  public init?(attributeValue: AttributeValue) {
    guard case .string(let value) = attributeValue else { return nil }
    self = value
  }

  /// `.string`.
  public var attributeValue: AttributeValue { .string(self) }

  /// The empty string.
  public static var zeroValue: String { "" }
}

extension Date: AttributeValueRepresentable {
  /// A date.
  public init?(attributeValue: AttributeValue) {
    guard case .date(let value) = attributeValue else { return nil }
    self = value
  }

  /// `.date`.
  public var attributeValue: AttributeValue { .date(self) }

  /// The reference date, 2001-01-01 00:00:00 UTC (Core Data's zero date).
  public static var zeroValue: Date { Date(timeIntervalSinceReferenceDate: 0) }
}

extension Data: AttributeValueRepresentable {
  /// Binary data.
  public init?(attributeValue: AttributeValue) {
    guard case .binary(let value) = attributeValue else { return nil }
    self = value
  }

  /// `.binary`.
  public var attributeValue: AttributeValue { .binary(self) }

  /// Empty data.
  public static var zeroValue: Data { Data() }
}

extension UUID: AttributeValueRepresentable {
  /// A UUID.
  public init?(attributeValue: AttributeValue) {
    guard case .uuid(let value) = attributeValue else { return nil }
    self = value
  }

  /// `.uuid`.
  public var attributeValue: AttributeValue { .uuid(self) }

  /// The all-zero UUID, `00000000-0000-0000-0000-000000000000`.
  public static var zeroValue: UUID { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
}

extension URL: AttributeValueRepresentable {
  /// A URI.
  public init?(attributeValue: AttributeValue) {
    guard case .uri(let value) = attributeValue else { return nil }
    self = value
  }

  /// `.uri`.
  public var attributeValue: AttributeValue { .uri(self) }

  /// `about:blank`.
  public static var zeroValue: URL { URL(string: "about:blank")! }
}

extension AttributeValue {
  /// The value as an integer for the integer types of generated code: integers, and booleans
  /// as 0 or 1.
  fileprivate var integerForGeneratedCode: Int64? {
    switch self {
    case .integer(let value): value
    case .boolean(let value): value ? 1 : 0
    default: nil
    }
  }
}
