import CSQLite

/// An error reported by SQLite, or by this layer for misuse SQLite would not catch.
///
/// Carries everything needed to diagnose a failure without a debugger: the primary and
/// extended result codes, SQLite's own message, the SQL text that failed and, for syntax
/// errors, the byte offset of the offending token in that text.
public struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The extended result code, e.g. `SQLITE_CONSTRAINT_UNIQUE`. Equal to ``code`` when SQLite
  /// reported no extended detail.
  public let extendedCode: SQLiteResultCode
  /// SQLite's message (`sqlite3_errmsg`), e.g. `UNIQUE constraint failed: ZTASK.ZTITLE`.
  public let message: String
  /// The SQL statement that failed, when the failure belongs to one.
  public let sql: String?
  /// Byte offset into ``sql`` of the token SQLite blamed, when it reported one.
  public let offset: Int?

  /// Creates an error from its parts; used by this layer and by tests.
  public init(code: SQLiteResultCode, message: String, sql: String? = nil, offset: Int? = nil) {
    self.extendedCode = code
    self.message = message
    self.sql = sql
    self.offset = offset
  }

  /// Reads the message and error offset of the latest failure on `connection`.
  init(resultCode: Int32, connection: OpaquePointer?, sql: String?) {
    let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(resultCode))
    let rawOffset = connection.map { Int(sqlite3_error_offset($0)) } ?? -1
    self.init(
      code: SQLiteResultCode(rawValue: resultCode), message: message, sql: sql,
      offset: rawOffset >= 0 ? rawOffset : nil)
  }

  /// The primary result code, e.g. `SQLITE_CONSTRAINT`.
  public var code: SQLiteResultCode { extendedCode.primary }

  /// Whether a constraint (UNIQUE, NOT NULL, CHECK, FOREIGN KEY, PRIMARY KEY…) was violated.
  public var isConstraintViolation: Bool { code == .constraint }

  /// Whether another connection held a conflicting lock past the busy timeout.
  public var isBusy: Bool { code == .busy }

  /// Whether the operation was stopped by ``SQLiteConnection/interrupt()``.
  public var isInterrupted: Bool { code == .interrupt }

  /// One line for logs and CLI output: codes, message, and the SQL if any.
  public var description: String {
    var text = "SQLite error \(extendedCode.rawValue) [\(extendedCode.name)]: \(message)"
    if let sql {
      text += " — while executing: \(sql)"
      if let offset { text += " (at byte \(offset))" }
    }
    return text
  }
}
