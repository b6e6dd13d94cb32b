/// SQLite's five storage classes: the dynamic type of one stored value.
///
/// Reported by ``SQLiteStatement/columnType(at:)`` and ``SQLiteValue/storageClass`` so callers can
/// branch on a column's actual type without materialising the value first.
public enum SQLiteStorageClass: Sendable, Hashable, CaseIterable {
  /// SQL `NULL`.
  case null
  /// A 64-bit signed integer.
  case integer
  /// An IEEE 754 double.
  case real
  /// UTF-8 text.
  case text
  /// Raw bytes.
  case blob
}
