/// One index on a table, from `PRAGMA index_list`, `PRAGMA index_info` and `sqlite_schema`.
public struct SQLiteIndexInfo: Sendable, Hashable {
  /// How an index came to exist.
  public enum Origin: Sendable, Hashable {
    /// `CREATE INDEX`.
    case createIndex
    /// A `UNIQUE` constraint in `CREATE TABLE`.
    case uniqueConstraint
    /// A `PRIMARY KEY` constraint in `CREATE TABLE` (not for rowid aliases).
    case primaryKey
  }

  /// The index name (`sqlite_autoindex_…` for constraint indexes).
  public let name: String
  /// Whether the index enforces uniqueness.
  public let isUnique: Bool
  /// Where the index came from.
  public let origin: Origin
  /// Whether the index has a `WHERE` clause.
  public let isPartial: Bool
  /// The indexed columns, in order (`nil` entries are expressions).
  public let columns: [String?]
  /// The `CREATE INDEX` statement; `nil` for indexes created by constraints.
  public let sql: String?

  /// Creates a description; tests compare against these.
  public init(name: String, isUnique: Bool, origin: Origin, isPartial: Bool, columns: [String?], sql: String?) {
    self.name = name
    self.isUnique = isUnique
    self.origin = origin
    self.isPartial = isPartial
    self.columns = columns
    self.sql = sql
  }
}
