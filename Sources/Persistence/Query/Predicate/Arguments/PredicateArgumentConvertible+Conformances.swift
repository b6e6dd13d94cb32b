import Foundation

extension PredicateValue: PredicateArgumentConvertible {
  /// The value itself.
  public var predicateValue: PredicateValue { self }
}

extension PredicateKeyPath: PredicateArgumentConvertible {
  /// The dotted key path as a string, so a key path can be passed for `%K`.
  public var predicateValue: PredicateValue { .string(dotted) }
}

extension String: PredicateArgumentConvertible {
  /// A string constant.
  public var predicateValue: PredicateValue { .string(self) }
}

extension Substring: PredicateArgumentConvertible {
  /// A string constant.
  public var predicateValue: PredicateValue { .string(String(self)) }
}

extension Bool: PredicateArgumentConvertible {
  /// A boolean constant.
  public var predicateValue: PredicateValue { .bool(self) }
}

extension Int: PredicateArgumentConvertible {
  /// An integer constant.
  public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension Int8: PredicateArgumentConvertible {
  /// An integer constant.
  public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension Int16: PredicateArgumentConvertible {
  /// An integer constant.
  public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension Int32: PredicateArgumentConvertible {
  /// An integer constant.
  public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension Int64: PredicateArgumentConvertible {
  /// An integer constant.
  public var predicateValue: PredicateValue { .integer(self) }
}

extension UInt: PredicateArgumentConvertible {
  /// An integer constant, or a decimal constant when the value exceeds `Int64.max`.
  public var predicateValue: PredicateValue { UInt64(self).predicateValue }
}

extension UInt8: PredicateArgumentConvertible {
  /// An integer constant.
  public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension UInt16: PredicateArgumentConvertible {
  /// An integer constant.
  public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension UInt32: PredicateArgumentConvertible {
  /// An integer constant.
  public var predicateValue: PredicateValue { .integer(Int64(self)) }
}

extension UInt64: PredicateArgumentConvertible {
  /// An integer constant, or a decimal constant (which is exact) when the value exceeds `Int64.max`.
  public var predicateValue: PredicateValue {
    if let value = Int64(exactly: self) { return .integer(value) }
    return .decimal(Decimal(self))
  }
}

extension Double: PredicateArgumentConvertible {
  /// A double constant.
  public var predicateValue: PredicateValue { .double(self) }
}

extension Float: PredicateArgumentConvertible {
  /// A double constant holding the float's exact value.
  public var predicateValue: PredicateValue { .double(Double(self)) }
}

extension Decimal: PredicateArgumentConvertible {
  /// A decimal constant.
  public var predicateValue: PredicateValue { .decimal(self) }
}

extension Date: PredicateArgumentConvertible {
  /// A date constant.
  public var predicateValue: PredicateValue { .date(self) }
}

extension UUID: PredicateArgumentConvertible {
  /// A UUID constant.
  public var predicateValue: PredicateValue { .uuid(self) }
}

extension URL: PredicateArgumentConvertible {
  /// A URL constant.
  public var predicateValue: PredicateValue { .url(self) }
}

extension Data: PredicateArgumentConvertible {
  /// A binary data constant.
  public var predicateValue: PredicateValue { .data(self) }
}

extension Optional: PredicateArgumentConvertible where Wrapped: PredicateArgumentConvertible {
  /// The wrapped value's constant, or `nil`.
  public var predicateValue: PredicateValue { self?.predicateValue ?? .null }
}

extension Array: PredicateArgumentConvertible where Element: PredicateArgumentConvertible {
  /// An array constant of the elements' constants, in order.
  public var predicateValue: PredicateValue { .array(map(\.predicateValue)) }
}

extension Set: PredicateArgumentConvertible where Element: PredicateArgumentConvertible {
  /// An array constant of the elements' constants, in the set's iteration order.
  public var predicateValue: PredicateValue { .array(map(\.predicateValue)) }
}
