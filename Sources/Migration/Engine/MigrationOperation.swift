import DataModel
import Persistence
import SQLite

/// One SQL operation of a migration step, with what it does in words for `--dry-run` and
/// `--sql`.
public struct MigrationOperation: Sendable {
  /// What the operation does.
  public enum Kind: String, Sendable, Hashable {
    case dropIndex, createTable, copyRows, dropTable, renameTable, renameColumn, addColumn, fillColumn
    case fixEntityColumn, createIndex, bookkeeping, check
  }

  /// What the operation does.
  public var kind: Kind
  /// A sentence for people.
  public var summary: String
  /// The statement (values bound).
  public var sql: SQLiteSQL
  /// For row copies that can run in primary-key ranges (for progress and bounded work per
  /// statement): the source table whose `Z_PK` the statement's `WHERE` ends on.
  public var chunkedSourceTable: String?

  public init(kind: Kind, summary: String, sql: SQLiteSQL, chunkedSourceTable: String? = nil) {
    self.kind = kind
    self.summary = summary
    self.sql = sql
    self.chunkedSourceTable = chunkedSourceTable
  }
}

/// A migration step that cannot be turned into SQL (a hand-written mapping using something the
/// engine does not run).
public struct MigrationBuildError: Error, Sendable, CustomStringConvertible {
  public var message: String

  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}
