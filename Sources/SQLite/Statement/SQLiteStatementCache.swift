/// A connection's prepared statements, keyed by SQL text, evicting the least recently used.
///
/// Preparing is the expensive part of running a small statement; the query engine and the
/// store issue the same few SQL shapes over and over with different bindings, so reusing the
/// prepared form makes them cost only a lookup. Eviction scans all entries, which happens
/// only when a new SQL text arrives at full capacity.
struct SQLiteStatementCache {
  private final class Entry {
    let statement: SQLiteStatement
    var lastUse: UInt64

    init(statement: SQLiteStatement, lastUse: UInt64) {
      self.statement = statement
      self.lastUse = lastUse
    }
  }

  private var entries: [String: Entry] = [:]
  private var clock: UInt64 = 0

  /// The most statements kept; 0 disables caching.
  var capacity: Int {
    didSet { evict(toCount: capacity) }
  }

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// The number of cached statements.
  var count: Int { entries.count }

  /// The cached statement for `sql`, marked as just used.
  mutating func statement(for sql: String) -> SQLiteStatement? {
    guard let entry = entries[sql] else { return nil }
    clock &+= 1
    entry.lastUse = clock
    return entry.statement
  }

  /// Caches `statement` under `sql`, evicting the least recently used entry when full.
  mutating func insert(_ statement: SQLiteStatement, for sql: String) {
    guard capacity > 0 else { return }
    if entries[sql] == nil { evict(toCount: capacity - 1) }
    clock &+= 1
    entries[sql] = Entry(statement: statement, lastUse: clock)
  }

  /// Resets every statement, ending any that was left in the middle of its rows.
  func resetAll() {
    for entry in entries.values { entry.statement.reset() }
  }

  /// Drops every statement (they finalize unless a caller still holds one).
  mutating func removeAll() {
    entries.removeAll()
  }

  private mutating func evict(toCount limit: Int) {
    while entries.count > max(limit, 0) {
      guard let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) else { return }
      entries[oldest.key] = nil
    }
  }
}
