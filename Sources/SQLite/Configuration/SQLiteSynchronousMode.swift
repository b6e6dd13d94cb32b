/// How hard SQLite syncs to disk (`PRAGMA synchronous`): durability against speed.
public enum SQLiteSynchronousMode: Int, Sendable, Hashable, CaseIterable {
  /// Never syncs: fastest; an OS crash or power loss can corrupt the database.
  case off = 0
  /// Syncs at critical moments; with WAL, consistent across power loss but the last
  /// commits may roll back. The usual choice with WAL.
  case normal = 1
  /// Syncs at every commit: durable (SQLite's default).
  case full = 2
  /// Like `full`, also syncing the directory after deleting a rollback journal.
  case extra = 3
}
