/// Typed access to the pragmas the store, the contexts and migrations rely on.
///
/// Pragmas accept no bound parameters, so values are rendered with `\(literal:)` from typed
/// Swift values, never from caller-supplied text.
extension SQLiteConnection {
  /// The main database's journal mode.
  public func journalMode() throws -> SQLiteJournalMode {
    try readJournalMode("PRAGMA journal_mode")
  }

  /// Asks for `mode` and returns the mode SQLite actually chose (an in-memory database
  /// stays `.memory` when asked for `.wal`, for example).
  @discardableResult
  public func setJournalMode(_ mode: SQLiteJournalMode) throws -> SQLiteJournalMode {
    try readJournalMode("PRAGMA journal_mode = \(literal: .text(mode.rawValue))")
  }

  /// Switches a file database to write-ahead logging, so a background connection can read
  /// while another writes.
  ///
  /// - Throws: ``SQLiteError`` when SQLite keeps another mode (in-memory databases, or a
  ///   VFS without shared-memory support).
  public func enableWAL() throws {
    let mode = try setJournalMode(.wal)
    guard mode == .wal else {
      throw SQLiteError(code: .error, message: "journal mode is '\(mode.rawValue)'; WAL is not available here")
    }
  }

  /// The connection's synchronous setting.
  public func synchronous() throws -> SQLiteSynchronousMode {
    let raw = try firstRow("PRAGMA synchronous") { $0.int(at: 0) } ?? 2
    return SQLiteSynchronousMode(rawValue: raw) ?? .full
  }

  /// Sets the connection's synchronous setting (not persistent: set it on every open).
  public func setSynchronous(_ mode: SQLiteSynchronousMode) throws {
    try execute("PRAGMA synchronous = \(literal: .integer(Int64(mode.rawValue)))")
  }

  /// Whether foreign key constraints are enforced (off by default in SQLite).
  public func foreignKeysEnabled() throws -> Bool {
    try firstRow("PRAGMA foreign_keys") { $0.bool(at: 0) } ?? false
  }

  /// Turns foreign key enforcement on or off. No effect inside a transaction (SQLite's rule).
  public func setForeignKeysEnabled(_ enabled: Bool) throws {
    try execute("PRAGMA foreign_keys = \(literal: .integer(enabled ? 1 : 0))")
  }

  /// The application-defined schema version stored in the database header
  /// (`PRAGMA user_version`).
  public func userVersion() throws -> Int32 {
    Int32(truncatingIfNeeded: try firstRow("PRAGMA user_version") { $0.int64(at: 0) } ?? 0)
  }

  /// Stores an application-defined schema version in the database header.
  public func setUserVersion(_ version: Int32) throws {
    try execute("PRAGMA user_version = \(literal: .integer(Int64(version)))")
  }

  private func readJournalMode(_ sql: SQLiteSQL) throws -> SQLiteJournalMode {
    let name = try firstRow(sql) { $0.text(at: 0) } ?? ""
    guard let mode = SQLiteJournalMode(rawValue: name.lowercased()) else {
      throw SQLiteError(code: .error, message: "unknown journal mode '\(name)'", sql: sql.text)
    }
    return mode
  }
}
