/// SQLite's journal modes (`PRAGMA journal_mode`).
public enum SQLiteJournalMode: String, Sendable, Hashable, CaseIterable {
  /// Rollback journal deleted at each commit (SQLite's default for files).
  case delete
  /// Rollback journal truncated to zero bytes at each commit.
  case truncate
  /// Rollback journal kept and its header zeroed at each commit.
  case persist
  /// Rollback journal in memory (the only mode, besides `off`, for in-memory databases).
  case memory
  /// Write-ahead log: readers don't block the writer and the writer doesn't block readers.
  /// Persistent: stays on for the file once set.
  case wal
  /// No journal: no rollback and no crash safety.
  case off
}
