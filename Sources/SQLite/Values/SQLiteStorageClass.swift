import CSQLite

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

extension SQLiteStorageClass {
  /// The storage class of a C type code (`sqlite3_column_type`, `sqlite3_value_type`).
  @inlinable
  init(sqliteType: Int32) {
    switch sqliteType {
    case SQLITE_INTEGER: self = .integer
    case SQLITE_FLOAT: self = .real
    case SQLITE_TEXT: self = .text
    case SQLITE_BLOB: self = .blob
    default: self = .null
    }
  }
}
