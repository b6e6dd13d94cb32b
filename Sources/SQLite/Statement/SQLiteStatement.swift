import CSQLite

/// One prepared SQL statement: bind parameters, step through rows, read columns, repeat.
///
/// Obtained from ``SQLiteConnection/prepare(_:)`` (owned by the caller) or
/// ``SQLiteConnection/cachedStatement(_:)`` (owned by the connection's cache, reused across
/// calls). Preparing once and re-executing with new bindings is the fast path for bulk work.
///
/// Reading columns (``int64(at:)``, ``text(at:)``, ``value(at:)``…) is valid only while the
/// statement is positioned on a row, i.e. after ``step()`` returned `true`; column indexes
/// are 0-based, parameter indexes 1-based, as in SQLite.
///
/// A statement shares its connection's confinement: not `Sendable`, used where its connection
/// is used. It keeps the database open while it exists and is finalized at deinitialization.
public final class SQLiteStatement {
  @usableFromInline let handle: OpaquePointer
  let database: SQLiteDatabase

  /// The SQL text this statement was prepared from.
  public let sql: String

  init(handle: OpaquePointer, database: SQLiteDatabase, sql: String) {
    self.handle = handle
    self.database = database
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Advances to the next row.
  ///
  /// - Returns: `true` when a row is available to read, `false` when the statement is done.
  /// - Throws: ``SQLiteError`` (constraint violation, busy, interrupt…) with this SQL.
  public func step() throws -> Bool {
    let resultCode = sqlite3_step(handle)
    switch resultCode {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: throw error(resultCode)
    }
  }

  /// Rewinds to before the first row and releases the read or write locks the statement
  /// held. Bindings are kept; see ``clearBindings()``.
  public func reset() {
    sqlite3_reset(handle)
  }

  /// Sets every parameter back to `NULL`.
  public func clearBindings() {
    sqlite3_clear_bindings(handle)
  }

  /// Whether the statement has stepped and not finished or been reset.
  public var isBusy: Bool { sqlite3_stmt_busy(handle) != 0 }

  /// Whether the statement never writes to the database (`SELECT`, most `PRAGMA`s).
  public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  /// The SQL with current bindings substituted as literals, for logging only.
  public var expandedSQL: String? {
    guard let expanded = sqlite3_expanded_sql(handle) else { return nil }
    defer { sqlite3_free(expanded) }
    return String(cString: expanded)
  }

  /// The error for a failed call on this statement, with SQLite's message and this SQL.
  func error(_ resultCode: Int32) -> SQLiteError {
    SQLiteError(resultCode: resultCode, connection: sqlite3_db_handle(handle), sql: sql)
  }
}

/// Statements share their connection's confinement; see ``SQLiteConnection``.
@available(*, unavailable)
extension SQLiteStatement: Sendable {}
