/// A JSON document whose objects keep their key order and whose numbers keep their exact text.
///
/// `modelc dump`, `modelc store export` and `import` need output that is byte-identical from run
/// to run and input read without silent rounding (an integer that overflows its attribute must
/// be an error, not a truncated value), which `JSONSerialization` does not promise.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  /// A number, as its JSON text (`-12`, `3.5`, `1e100`).
  case number(String)
  case string(String)
  case array([JSONValue])
  /// An object; keys keep the order they were given or read in.
  case object([(key: String, value: JSONValue)])

  /// A number from an integer.
  public static func integer<T: BinaryInteger>(_ value: T) -> JSONValue { .number(String(value)) }

  /// A number from a floating-point value; non-finite values, which JSON cannot hold, become
  /// the strings `"nan"`, `"inf"` and `"-inf"`.
  public static func double(_ value: Double) -> JSONValue {
    guard value.isFinite else { return .string(value.isNaN ? "nan" : (value < 0 ? "-inf" : "inf")) }
    if value == value.rounded(), abs(value) < 1e15 {
      return .number(String(Int64(value)))
    }
    return .number("\(value)")
  }

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)):
      a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    default: false
    }
  }

  public func hash(into hasher: inout Hasher) {
    switch self {
    case .null: hasher.combine(0)
    case .bool(let value): hasher.combine(value)
    case .number(let value): hasher.combine(value)
    case .string(let value): hasher.combine(value)
    case .array(let value): hasher.combine(value)
    case .object(let pairs):
      for pair in pairs {
        hasher.combine(pair.key)
        hasher.combine(pair.value)
      }
    }
  }

  /// The value for a key of an object (the first, if repeated); nil for other values.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let pairs) = self else { return nil }
    return pairs.first { $0.key == key }?.value
  }

  /// The string, if this is a string.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The elements, if this is an array.
  public var arrayValue: [JSONValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The key-value pairs, if this is an object.
  public var objectValue: [(key: String, value: JSONValue)]? {
    if case .object(let value) = self { return value }
    return nil
  }

  /// A short name of the value's kind, for error messages.
  public var kindName: String {
    switch self {
    case .null: "null"
    case .bool: "a Boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

/// Building objects in order, without the noise of tuples at every call site.
public struct JSONObjectBuilder: Sendable {
  public private(set) var pairs: [(key: String, value: JSONValue)] = []

  public init() {}

  /// Adds a key.
  public mutating func add(_ key: String, _ value: JSONValue) {
    pairs.append((key, value))
  }

  /// Adds a key when the value is present.
  public mutating func add(_ key: String, _ value: String?) {
    if let value { pairs.append((key, .string(value))) }
  }

  /// Adds a Boolean key, only when it is true (the way Xcode writes flags).
  public mutating func addFlag(_ key: String, _ value: Bool) {
    if value { pairs.append((key, .bool(true))) }
  }

  /// Adds a Boolean key when the value is present.
  public mutating func add(_ key: String, _ value: Bool?) {
    if let value { pairs.append((key, .bool(value))) }
  }

  /// Adds an integer key when the value is present.
  public mutating func add(_ key: String, _ value: Int?) {
    if let value { pairs.append((key, .integer(value))) }
  }

  /// Adds an array key when it is not empty.
  public mutating func addNonEmpty(_ key: String, _ values: [JSONValue]) {
    if !values.isEmpty { pairs.append((key, .array(values))) }
  }

  /// The object.
  public var value: JSONValue { .object(pairs) }
}
