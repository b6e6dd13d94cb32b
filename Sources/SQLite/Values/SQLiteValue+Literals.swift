/// Literal conformances so parameter lists read naturally: `[1, "two", 3.0, nil, true]`.
extension SQLiteValue: ExpressibleByNilLiteral {
  /// Creates `.null` from `nil`.
  public init(nilLiteral: ()) {
    self = .null
  }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
  /// Creates `.integer` from an integer literal.
  public init(integerLiteral value: Int64) {
    self = .integer(value)
  }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
  /// Creates `.real` from a floating-point literal.
  public init(floatLiteral value: Double) {
    self = .real(value)
  }
}

extension SQLiteValue: ExpressibleByStringLiteral {
  /// Creates `.text` from a string literal.
  public init(stringLiteral value: String) {
    self = .text(value)
  }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
  /// Creates `.integer(1)` or `.integer(0)`: SQLite has no boolean type.
  public init(booleanLiteral value: Bool) {
    self = .integer(value ? 1 : 0)
  }
}
