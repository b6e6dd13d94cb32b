/// One row that breaks a foreign key constraint, from `PRAGMA foreign_key_check`.
///
/// Migrations that rebuild tables with foreign keys off run this check before committing.
public struct SQLiteForeignKeyViolation: Sendable, Hashable {
  /// The table holding the offending row.
  public let table: String
  /// The offending row's rowid; `nil` for `WITHOUT ROWID` tables.
  public let rowID: Int64?
  /// The table the foreign key refers to.
  public let parentTable: String
  /// Which of the table's foreign keys is broken (its `PRAGMA foreign_key_list` id).
  public let foreignKeyID: Int

  /// Creates a description; tests compare against these.
  public init(table: String, rowID: Int64?, parentTable: String, foreignKeyID: Int) {
    self.table = table
    self.rowID = rowID
    self.parentTable = parentTable
    self.foreignKeyID = foreignKeyID
  }
}
