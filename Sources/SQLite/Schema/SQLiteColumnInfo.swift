/// One column of a table, as `PRAGMA table_info` describes it.
///
/// Used by migrations to compare a store's actual layout with the model, and by tests.
public struct SQLiteColumnInfo: Sendable, Hashable {
  /// The column name.
  public let name: String
  /// The declared type as written in `CREATE TABLE` (`INTEGER`, `VARCHAR`, or empty).
  public let declaredType: String
  /// Whether the column is `NOT NULL`.
  public let isNotNull: Bool
  /// The `DEFAULT` expression as SQL text (`'x'`, `0`, `CURRENT_TIMESTAMP`), if any.
  public let defaultValueSQL: String?
  /// 1-based position in the primary key, or 0 if the column is not part of it.
  public let primaryKeyPosition: Int

  /// Creates a description; tests compare against these.
  public init(
    name: String, declaredType: String, isNotNull: Bool, defaultValueSQL: String?, primaryKeyPosition: Int
  ) {
    self.name = name
    self.declaredType = declaredType
    self.isNotNull = isNotNull
    self.defaultValueSQL = defaultValueSQL
    self.primaryKeyPosition = primaryKeyPosition
  }

  /// Whether the column is part of the primary key.
  public var isPrimaryKey: Bool { primaryKeyPosition > 0 }
}
