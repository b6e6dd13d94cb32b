import CSQLite

/// A SQLite result code, primary (`SQLITE_CONSTRAINT`) or extended (`SQLITE_CONSTRAINT_UNIQUE`).
///
/// A struct rather than an enum because SQLite defines far more extended codes than any caller
/// needs to name, and new SQLite versions add more: unknown codes still compare, print and map
/// to their primary code.
public struct SQLiteResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The C value (`int`) SQLite returned.
  public let rawValue: Int32

  /// Wraps a C result code.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// The primary code: the low 8 bits, which is all a primary code is.
  public var primary: SQLiteResultCode {
    SQLiteResultCode(rawValue: rawValue & 0xff)
  }

  /// Whether this code, or its primary code, is `other`.
  ///
  /// `SQLITE_CONSTRAINT_UNIQUE` matches both `.constraintUnique` and `.constraint`.
  public func matches(_ other: SQLiteResultCode) -> Bool {
    self == other || primary == other
  }

  /// The C name (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`) when known, else the primary
  /// name and the number.
  public var name: String {
    if let name = Self.names[rawValue] { return name }
    if let primaryName = Self.names[primary.rawValue] { return "\(primaryName) (\(rawValue))" }
    return "SQLITE result \(rawValue)"
  }

  /// The name followed by SQLite's English explanation, e.g. `SQLITE_BUSY (database is locked)`.
  public var description: String {
    "\(name) (\(String(cString: sqlite3_errstr(rawValue))))"
  }

  /// `SQLITE_OK`: success.
  public static let ok = SQLiteResultCode(rawValue: SQLITE_OK)
  /// `SQLITE_ERROR`: generic error, including SQL syntax errors and missing tables.
  public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
  /// `SQLITE_INTERNAL`: an internal SQLite malfunction.
  public static let `internal` = SQLiteResultCode(rawValue: SQLITE_INTERNAL)
  /// `SQLITE_PERM`: the requested access mode could not be provided.
  public static let permission = SQLiteResultCode(rawValue: SQLITE_PERM)
  /// `SQLITE_ABORT`: an operation was aborted, e.g. by a rollback.
  public static let abort = SQLiteResultCode(rawValue: SQLITE_ABORT)
  /// `SQLITE_BUSY`: another connection holds a conflicting lock on the file.
  public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
  /// `SQLITE_LOCKED`: a conflict inside this same connection (or shared cache).
  public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
  /// `SQLITE_NOMEM`: out of memory.
  public static let noMemory = SQLiteResultCode(rawValue: SQLITE_NOMEM)
  /// `SQLITE_READONLY`: attempt to write a read-only database.
  public static let readOnly = SQLiteResultCode(rawValue: SQLITE_READONLY)
  /// `SQLITE_INTERRUPT`: stopped by `sqlite3_interrupt`.
  public static let interrupt = SQLiteResultCode(rawValue: SQLITE_INTERRUPT)
  /// `SQLITE_IOERR`: an operating-system I/O error.
  public static let ioError = SQLiteResultCode(rawValue: SQLITE_IOERR)
  /// `SQLITE_CORRUPT`: the database file is malformed.
  public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
  /// `SQLITE_FULL`: the disk is full.
  public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
  /// `SQLITE_CANTOPEN`: the file could not be opened.
  public static let cannotOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
  /// `SQLITE_SCHEMA`: the schema changed under a statement.
  public static let schema = SQLiteResultCode(rawValue: SQLITE_SCHEMA)
  /// `SQLITE_TOOBIG`: a string or blob exceeds the size limit.
  public static let tooBig = SQLiteResultCode(rawValue: SQLITE_TOOBIG)
  /// `SQLITE_CONSTRAINT`: a constraint was violated.
  public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
  /// `SQLITE_MISMATCH`: data type mismatch (e.g. a non-integer rowid).
  public static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
  /// `SQLITE_MISUSE`: the API was used incorrectly.
  public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
  /// `SQLITE_AUTH`: refused by an authorizer.
  public static let authorization = SQLiteResultCode(rawValue: SQLITE_AUTH)
  /// `SQLITE_RANGE`: a parameter index out of range, or an unknown parameter name.
  public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
  /// `SQLITE_NOTADB`: the file is not a database.
  public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)
  /// `SQLITE_ROW`: `sqlite3_step` has a row (not an error).
  public static let row = SQLiteResultCode(rawValue: SQLITE_ROW)
  /// `SQLITE_DONE`: `sqlite3_step` finished (not an error).
  public static let done = SQLiteResultCode(rawValue: SQLITE_DONE)

  // Swift cannot import SQLite's extended-code macros (`(SQLITE_CONSTRAINT | (8<<8))`), so
  // they are spelled out here from sqlite3.h: the primary code plus a detail in bits 8 and up.

  /// `SQLITE_CONSTRAINT_CHECK`: a CHECK constraint failed.
  public static let constraintCheck = extended(SQLITE_CONSTRAINT, 1)
  /// `SQLITE_CONSTRAINT_FOREIGNKEY`: a foreign key constraint failed.
  public static let constraintForeignKey = extended(SQLITE_CONSTRAINT, 3)
  /// `SQLITE_CONSTRAINT_NOTNULL`: NULL stored in a NOT NULL column.
  public static let constraintNotNull = extended(SQLITE_CONSTRAINT, 5)
  /// `SQLITE_CONSTRAINT_PRIMARYKEY`: a PRIMARY KEY was duplicated.
  public static let constraintPrimaryKey = extended(SQLITE_CONSTRAINT, 6)
  /// `SQLITE_CONSTRAINT_TRIGGER`: `RAISE(ABORT/FAIL/ROLLBACK)` in a trigger.
  public static let constraintTrigger = extended(SQLITE_CONSTRAINT, 7)
  /// `SQLITE_CONSTRAINT_UNIQUE`: a UNIQUE constraint or unique index was violated.
  public static let constraintUnique = extended(SQLITE_CONSTRAINT, 8)
  /// `SQLITE_CONSTRAINT_ROWID`: a rowid was duplicated.
  public static let constraintRowID = extended(SQLITE_CONSTRAINT, 10)
  /// `SQLITE_BUSY_RECOVERY`: another connection is recovering the WAL.
  public static let busyRecovery = extended(SQLITE_BUSY, 1)
  /// `SQLITE_BUSY_SNAPSHOT`: a WAL read transaction became stale and cannot be upgraded to write.
  public static let busySnapshot = extended(SQLITE_BUSY, 2)
  /// `SQLITE_BUSY_TIMEOUT`: a blocking lock timed out.
  public static let busyTimeout = extended(SQLITE_BUSY, 3)
  /// `SQLITE_LOCKED_SHAREDCACHE`: a table lock conflict in shared-cache mode.
  public static let lockedSharedCache = extended(SQLITE_LOCKED, 1)
  /// `SQLITE_READONLY_DBMOVED`: the database file was moved or deleted while open.
  public static let readOnlyDatabaseMoved = extended(SQLITE_READONLY, 4)
  /// `SQLITE_CANTOPEN_ISDIR`: the path is a directory.
  public static let cannotOpenIsDirectory = extended(SQLITE_CANTOPEN, 2)

  private static func extended(_ primary: Int32, _ detail: Int32) -> SQLiteResultCode {
    SQLiteResultCode(rawValue: primary | (detail << 8))
  }

  private static let names: [Int32: String] = [
    SQLITE_OK: "SQLITE_OK", SQLITE_ERROR: "SQLITE_ERROR", SQLITE_INTERNAL: "SQLITE_INTERNAL",
    SQLITE_PERM: "SQLITE_PERM", SQLITE_ABORT: "SQLITE_ABORT", SQLITE_BUSY: "SQLITE_BUSY",
    SQLITE_LOCKED: "SQLITE_LOCKED", SQLITE_NOMEM: "SQLITE_NOMEM", SQLITE_READONLY: "SQLITE_READONLY",
    SQLITE_INTERRUPT: "SQLITE_INTERRUPT", SQLITE_IOERR: "SQLITE_IOERR", SQLITE_CORRUPT: "SQLITE_CORRUPT",
    SQLITE_NOTFOUND: "SQLITE_NOTFOUND", SQLITE_FULL: "SQLITE_FULL", SQLITE_CANTOPEN: "SQLITE_CANTOPEN",
    SQLITE_PROTOCOL: "SQLITE_PROTOCOL", SQLITE_EMPTY: "SQLITE_EMPTY", SQLITE_SCHEMA: "SQLITE_SCHEMA",
    SQLITE_TOOBIG: "SQLITE_TOOBIG", SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT", SQLITE_MISMATCH: "SQLITE_MISMATCH",
    SQLITE_MISUSE: "SQLITE_MISUSE", SQLITE_NOLFS: "SQLITE_NOLFS", SQLITE_AUTH: "SQLITE_AUTH",
    SQLITE_FORMAT: "SQLITE_FORMAT", SQLITE_RANGE: "SQLITE_RANGE", SQLITE_NOTADB: "SQLITE_NOTADB",
    SQLITE_NOTICE: "SQLITE_NOTICE", SQLITE_WARNING: "SQLITE_WARNING", SQLITE_ROW: "SQLITE_ROW",
    SQLITE_DONE: "SQLITE_DONE",
    constraintCheck.rawValue: "SQLITE_CONSTRAINT_CHECK", constraintForeignKey.rawValue: "SQLITE_CONSTRAINT_FOREIGNKEY",
    constraintNotNull.rawValue: "SQLITE_CONSTRAINT_NOTNULL",
    constraintPrimaryKey.rawValue: "SQLITE_CONSTRAINT_PRIMARYKEY",
    constraintTrigger.rawValue: "SQLITE_CONSTRAINT_TRIGGER", constraintUnique.rawValue: "SQLITE_CONSTRAINT_UNIQUE",
    constraintRowID.rawValue: "SQLITE_CONSTRAINT_ROWID", busyRecovery.rawValue: "SQLITE_BUSY_RECOVERY",
    busySnapshot.rawValue: "SQLITE_BUSY_SNAPSHOT", busyTimeout.rawValue: "SQLITE_BUSY_TIMEOUT",
    lockedSharedCache.rawValue: "SQLITE_LOCKED_SHAREDCACHE", readOnlyDatabaseMoved.rawValue: "SQLITE_READONLY_DBMOVED",
    cannotOpenIsDirectory.rawValue: "SQLITE_CANTOPEN_ISDIR",
  ]
}
