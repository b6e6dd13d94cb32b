/// One SQLite value, in one of SQLite's five storage classes.
///
/// This is the currency type of the SQLite layer: statement parameters, column reads that
/// don't know their type up front, and the arguments and results of Swift-implemented SQL
/// functions are all `SQLiteValue`s.
///
/// Floating-point notes: SQLite cannot store NaN; binding `.real(.nan)` stores `NULL`
/// (SQLite's own rule). Infinities and every finite `Double`, including subnormals, round-trip
/// exactly. Negative zero round-trips in a column without type affinity, but a `REAL` column
/// may store a whole-valued real as an integer and hand back `0.0`.
public enum SQLiteValue: Sendable, Hashable {
  /// SQL `NULL`.
  case null
  /// A 64-bit signed integer.
  case integer(Int64)
  /// An IEEE 754 double.
  case real(Double)
  /// UTF-8 text.
  case text(String)
  /// Bytes, stored as-is. An empty array is an empty blob, not `NULL`.
  case blob([UInt8])

  /// The storage class of this value, as SQLite's `typeof()` would report it.
  public var storageClass: SQLiteStorageClass {
    switch self {
    case .null: return .null
    case .integer: return .integer
    case .real: return .real
    case .text: return .text
    case .blob: return .blob
    }
  }

  /// Whether this is SQL `NULL`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The integer, if this is an integer; `nil` otherwise (no conversion).
  public var int64Value: Int64? {
    if case .integer(let value) = self { return value }
    return nil
  }

  /// The number as a `Double`, if this is a real or an integer; `nil` otherwise.
  public var doubleValue: Double? {
    switch self {
    case .real(let value): return value
    case .integer(let value): return Double(value)
    default: return nil
    }
  }

  /// The string, if this is text; `nil` otherwise (no conversion).
  public var textValue: String? {
    if case .text(let value) = self { return value }
    return nil
  }

  /// The bytes, if this is a blob; `nil` otherwise (no conversion).
  public var blobValue: [UInt8]? {
    if case .blob(let value) = self { return value }
    return nil
  }
}
