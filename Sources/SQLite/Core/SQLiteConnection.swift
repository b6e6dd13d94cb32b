import CSQLite

/// One open SQLite database connection: the only door from this project to SQLite's C API.
///
/// ## Concurrency contract
///
/// A connection is **not `Sendable`**: it belongs to one isolation domain (an actor, a task,
/// a thread, a serial queue) at a time, and the compiler enforces that. It can still move
/// between domains as a `sending` value, e.g. created by one task and handed to the actor
/// that will own it. Because of this confinement, connections are opened in SQLite's
/// multi-thread mode (`SQLITE_OPEN_NOMUTEX`) and pay for no internal mutex.
///
/// Concurrency comes from more connections, not from sharing one: the object context layer
/// owns one connection per context, and a background context opens a second connection to
/// the same file. With WAL journaling (``enableWAL()``) readers and one writer then proceed
/// in parallel, and ``busyTimeout`` makes a second writer wait instead of failing.
///
/// The single cross-thread operation, cancelling a running statement, goes through the
/// `Sendable` ``interruptHandle``.
///
/// ## Lifetime
///
/// Statements keep the underlying database alive, so a statement never dangles. The
/// database closes when the connection and all its statements are gone (statements first,
/// then the database), or earlier with ``close()``.
///
/// ## Running SQL
///
/// SQL is always an ``SQLiteSQL``: literal text plus bound values, so values are never
/// spliced into SQL text. See ``execute(_:)``, ``prepare(_:)``, ``cachedStatement(_:)`` and
/// the row helpers ``forEachRow(_:_:)``, ``mapRows(_:_:)`` and ``firstRow(_:_:)``.
public final class SQLiteConnection {
  let database: SQLiteDatabase
  var statementCache = SQLiteStatementCache(capacity: 128)
  private var busyTimeoutStorage: Duration = .zero

  /// Where the connection was opened.
  public let location: Location
  /// How the connection was opened.
  public let mode: OpenMode

  /// Opens (and, with `.readWriteCreate`, creates) a database.
  ///
  /// - Throws: ``SQLiteError`` with `SQLITE_CANTOPEN`, `SQLITE_NOTADB`… when the database
  ///   cannot be opened.
  public init(_ location: Location = .inMemory, mode: OpenMode = .readWriteCreate) throws {
    var flags = mode.openFlags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    if location.isURI { flags |= SQLITE_OPEN_URI }
    var pointer: OpaquePointer?
    let resultCode = sqlite3_open_v2(location.filename, &pointer, flags, nil)
    guard resultCode == SQLITE_OK, let pointer else {
      let error = SQLiteError(resultCode: resultCode, connection: pointer, sql: nil)
      sqlite3_close_v2(pointer)
      throw error
    }
    sqlite3_extended_result_codes(pointer, 1)
    self.database = SQLiteDatabase(pointer: pointer)
    self.location = location
    self.mode = mode
  }

  /// Opens the database file at `path`.
  public convenience init(path: String, mode: OpenMode = .readWriteCreate) throws {
    try self.init(.file(path), mode: mode)
  }

  /// Closes the database now instead of at deinitialization.
  ///
  /// Cached statements are finalized first. Closing fails with `SQLITE_BUSY`, and the
  /// connection stays open, while statements prepared by the caller are still alive or a
  /// backup is in progress. Every later use of the connection throws `SQLITE_MISUSE`.
  /// Closing twice does nothing.
  public func close() throws {
    statementCache.removeAll()
    try database.close()
  }

  /// Whether ``close()`` has succeeded.
  public var isClosed: Bool { database.pointer == nil }

  /// A `Sendable` handle to cancel this connection's running statement from another thread.
  public var interruptHandle: SQLiteInterruptHandle { database.interruptHandle }

  /// Makes the running statement (for example, the one calling a custom function that
  /// decides to stop) fail with `SQLITE_INTERRUPT`. From other threads, use ``interruptHandle``.
  public func interrupt() {
    database.interruptHandle.interrupt()
  }

  /// How long a statement waits for another connection's lock before failing with
  /// `SQLITE_BUSY`. Zero (SQLite's default) fails at once. Resolution is milliseconds.
  public var busyTimeout: Duration {
    get { busyTimeoutStorage }
    set {
      busyTimeoutStorage = newValue
      guard let pointer = database.pointer else { return }
      let (seconds, attoseconds) = newValue.components
      let milliseconds = min(max(seconds, 0), Int64(Int32.max / 1000)) * 1000 + attoseconds / 1_000_000_000_000_000
      sqlite3_busy_timeout(pointer, Int32(clamping: max(0, milliseconds)))
    }
  }

  /// The rowid of the most recent successful `INSERT` on this connection (0 if none).
  public var lastInsertRowID: Int64 {
    database.pointer.map { sqlite3_last_insert_rowid($0) } ?? 0
  }

  /// Rows changed by the most recent `INSERT`, `UPDATE` or `DELETE`.
  public var changes: Int {
    database.pointer.map { Int(sqlite3_changes64($0)) } ?? 0
  }

  /// Rows changed since the connection opened.
  public var totalChanges: Int {
    database.pointer.map { Int(sqlite3_total_changes64($0)) } ?? 0
  }

  /// Whether a transaction is open (SQLite is not in autocommit mode).
  public var isInTransaction: Bool {
    database.pointer.map { sqlite3_get_autocommit($0) == 0 } ?? false
  }

  /// Whether the main database is read-only (opened `.readOnly`, or a read-only file).
  public var isReadOnly: Bool {
    database.pointer.map { sqlite3_db_readonly($0, "main") == 1 } ?? true
  }

  /// The absolute path of the main database file; `nil` for in-memory databases.
  public var filePath: String? {
    guard let pointer = database.pointer, let name = sqlite3_db_filename(pointer, "main") else { return nil }
    let path = String(cString: name)
    return path.isEmpty ? nil : path
  }
}

/// Connections are confined to one isolation domain at a time; see the concurrency contract
/// on ``SQLiteConnection``.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}
