/// How a transaction takes its locks (`BEGIN DEFERRED | IMMEDIATE | EXCLUSIVE`).
public enum SQLiteTransactionKind: Sendable, Hashable, CaseIterable {
  /// Locks only when first reading or writing. A deferred transaction that reads and then
  /// writes can fail with `SQLITE_BUSY` when another connection wrote in between, without
  /// waiting for the busy timeout; writers should prefer `.immediate`.
  case deferred
  /// Takes the write lock at `BEGIN`, waiting up to the busy timeout: the right choice for
  /// any transaction that will write.
  case immediate
  /// Like `.immediate`; in rollback-journal mode it also keeps readers out.
  case exclusive

  /// The `BEGIN` statement.
  var beginSQL: SQLiteSQL {
    switch self {
    case .deferred: return "BEGIN DEFERRED TRANSACTION"
    case .immediate: return "BEGIN IMMEDIATE TRANSACTION"
    case .exclusive: return "BEGIN EXCLUSIVE TRANSACTION"
    }
  }
}
