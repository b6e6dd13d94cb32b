import Foundation

extension BinaryPropertyList {
  /// One value of a property list, as a binary property list (`bplist00`) holds it.
  ///
  /// Keyed archives (`NSKeyedArchiver`), which hold the expressions and model snapshots of mapping
  /// models, are binary property lists whose objects point at each other through ``uid(_:)``
  /// values. Booleans and integers stay apart (Foundation's `Any` bridging would merge them), and
  /// dictionaries keep any key type, so a reader can tell exactly what the file says.
  public indirect enum Value: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    /// Seconds since 2001-01-01 00:00:00 UTC, as Foundation's `Date`.
    case date(Date)
    case data(Data)
    case array([Value])
    /// A set, in the order the file lists it.
    case set([Value])
    /// A dictionary, in the order the file lists its keys.
    case dictionary([(key: Value, value: Value)])
    /// A reference to an object of a keyed archive: an index into its `$objects`.
    case uid(UInt64)
    /// The null marker (rare: keyed archives use the string `$null` instead).
    case null

    /// The value of a dictionary's string key.
    public subscript(key: String) -> Value? {
      guard case .dictionary(let pairs) = self else { return nil }
      return pairs.first { $0.key == .string(key) }?.value
    }

    /// A short name of the value's kind, for error messages.
    public var kindName: String {
      switch self {
      case .string: "string"
      case .integer: "integer"
      case .real: "real"
      case .bool: "boolean"
      case .date: "date"
      case .data: "data"
      case .array: "array"
      case .set: "set"
      case .dictionary: "dictionary"
      case .uid: "object reference"
      case .null: "null"
      }
    }

    public static func == (lhs: Value, rhs: Value) -> Bool {
      switch (lhs, rhs) {
      case (.string(let a), .string(let b)): a == b
      case (.integer(let a), .integer(let b)): a == b
      case (.real(let a), .real(let b)): a == b
      case (.bool(let a), .bool(let b)): a == b
      case (.date(let a), .date(let b)): a == b
      case (.data(let a), .data(let b)): a == b
      case (.array(let a), .array(let b)): a == b
      case (.set(let a), .set(let b)): a == b
      case (.dictionary(let a), .dictionary(let b)):
        a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
      case (.uid(let a), .uid(let b)): a == b
      case (.null, .null): true
      default: false
      }
    }

    public func hash(into hasher: inout Hasher) {
      switch self {
      case .string(let value):
        hasher.combine(0)
        hasher.combine(value)
      case .integer(let value):
        hasher.combine(1)
        hasher.combine(value)
      case .real(let value):
        hasher.combine(2)
        hasher.combine(value)
      case .bool(let value):
        hasher.combine(3)
        hasher.combine(value)
      case .date(let value):
        hasher.combine(4)
        hasher.combine(value)
      case .data(let value):
        hasher.combine(5)
        hasher.combine(value)
      case .array(let values):
        hasher.combine(6)
        hasher.combine(values)
      case .set(let values):
        hasher.combine(7)
        hasher.combine(values)
      case .dictionary(let pairs):
        hasher.combine(8)
        hasher.combine(pairs.count)
        for pair in pairs {
          hasher.combine(pair.key)
          hasher.combine(pair.value)
        }
      case .uid(let value):
        hasher.combine(9)
        hasher.combine(value)
      case .null: hasher.combine(10)
      }
    }
  }
}

/// A property list or keyed archive that cannot be read: what is wrong, in words.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong.
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
