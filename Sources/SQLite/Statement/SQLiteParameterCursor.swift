/// Binds values to a statement's parameters 1, 2, 3… one at a time, then runs it.
///
/// For writing rows: a save binds each column's value as it reads it from the object, instead of
/// collecting the row's values in an array for ``SQLiteStatement/execute(_:)`` (an array kept
/// and emptied per row, each value copied in and destroyed again, then bound in a second loop).
/// As with `execute(_:)`, a value too many fails its `bind` with `SQLITE_RANGE`, and ``execute()``
/// fails with `SQLITE_RANGE` unless every parameter got a value, so a forgotten column cannot go
/// unnoticed.
public struct SQLiteParameterCursor {
  /// The statement the values are bound to.
  public let statement: SQLiteStatement
  /// How many values are bound so far.
  public private(set) var boundCount = 0

  /// Starts binding `statement`'s parameters from the first, resetting it first (binding a
  /// statement that has run and not been reset is a misuse).
  public init(_ statement: SQLiteStatement) {
    statement.reset()
    self.statement = statement
  }

  /// Binds the next parameter.
  public mutating func bind(_ value: SQLiteValue) throws {
    try statement.bind(value, at: boundCount + 1)
    boundCount += 1
  }

  /// Binds the bytes `bytes` points to as a blob to the next parameter (copied by SQLite).
  public mutating func bind(bytes: UnsafeRawBufferPointer) throws {
    try statement.bind(bytes: bytes, at: boundCount + 1)
    boundCount += 1
  }

  /// Binds the UTF-8 bytes `utf8` points to as text to the next parameter (copied by SQLite).
  public mutating func bind(text utf8: UnsafeBufferPointer<UInt8>) throws {
    try statement.bind(text: utf8, at: boundCount + 1)
    boundCount += 1
  }

  /// Runs the statement to completion with the values bound.
  ///
  /// - Throws: ``SQLiteError`` with `SQLITE_RANGE` when fewer values were bound than the
  ///   statement has parameters; the statement's own errors otherwise.
  public func execute() throws {
    let parameterCount = statement.parameterCount
    guard boundCount == parameterCount else {
      throw SQLiteError(
        code: .range,
        message: "the statement has \(parameterCount) parameter(s) but \(boundCount) value(s) were bound",
        sql: statement.sql)
    }
    // The cursor reset the statement when it started binding: `execute()` would reset it
    // again, a call into SQLite for every row a save writes.
    try statement.runToCompletion()
  }
}
