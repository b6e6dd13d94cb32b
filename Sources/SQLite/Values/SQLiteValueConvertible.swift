import Foundation

/// A Swift type that has a natural SQLite representation.
///
/// Values interpolated into ``SQLiteSQL`` must conform: each becomes a `?` placeholder and the
/// value is bound as a parameter, so interpolation can never splice data into SQL text.
public protocol SQLiteValueConvertible {
  /// The value as SQLite stores it.
  var sqliteValue: SQLiteValue { get }
}

extension SQLiteValue: SQLiteValueConvertible {
  /// The value itself.
  public var sqliteValue: SQLiteValue { self }
}

extension Int64: SQLiteValueConvertible {
  /// `.integer(self)`.
  public var sqliteValue: SQLiteValue { .integer(self) }
}

extension Int: SQLiteValueConvertible {
  /// `.integer(self)`; `Int` is 64 bits on every platform this project supports.
  public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int32: SQLiteValueConvertible {
  /// `.integer(self)`.
  public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Int16: SQLiteValueConvertible {
  /// `.integer(self)`.
  public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
}

extension Double: SQLiteValueConvertible {
  /// `.real(self)`; NaN is stored as `NULL` by SQLite.
  public var sqliteValue: SQLiteValue { .real(self) }
}

extension Float: SQLiteValueConvertible {
  /// `.real(Double(self))`.
  public var sqliteValue: SQLiteValue { .real(Double(self)) }
}

extension Bool: SQLiteValueConvertible {
  /// `.integer(1)` or `.integer(0)`.
  public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
}

extension String: SQLiteValueConvertible {
  /// `.text(self)`.
  public var sqliteValue: SQLiteValue { .text(self) }
}

extension Substring: SQLiteValueConvertible {
  /// `.text(String(self))`.
  public var sqliteValue: SQLiteValue { .text(String(self)) }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
  /// `.blob(self)`.
  public var sqliteValue: SQLiteValue { .blob(self) }
}

extension Data: SQLiteValueConvertible {
  /// `.blob` with the same bytes.
  public var sqliteValue: SQLiteValue { .blob([UInt8](self)) }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
  /// The wrapped value's representation, or `.null`.
  public var sqliteValue: SQLiteValue {
    switch self {
    case .none: return .null
    case .some(let wrapped): return wrapped.sqliteValue
    }
  }
}
