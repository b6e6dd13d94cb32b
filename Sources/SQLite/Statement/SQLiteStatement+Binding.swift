import CSQLite

/// Binding values to a statement's parameters.
///
/// Parameters are `?`, `?NNN`, `:name`, `@name` or `$name` placeholders in the SQL text.
/// Bindings survive ``SQLiteStatement/reset()`` until rebound or cleared. Bind only while the
/// statement is not mid-iteration (SQLite answers `SQLITE_MISUSE` otherwise).
extension SQLiteStatement {
  /// The number of parameters (the largest parameter index).
  public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

  /// The name of the 1-based parameter `index` with its prefix (`:title`), or `nil` for
  /// a nameless `?`.
  public func parameterName(at index: Int) -> String? {
    sqlite3_bind_parameter_name(handle, Int32(clamping: index)).map { String(cString: $0) }
  }

  /// The 1-based index of the parameter `name`, which may omit its prefix (`title` finds
  /// `:title`, `@title` or `$title`); `nil` if there is none.
  public func parameterIndex(named name: String) -> Int? {
    let index = sqlite3_bind_parameter_index(handle, name)
    if index > 0 { return Int(index) }
    guard let first = name.first, !":@$?".contains(first) else { return nil }
    for prefix in [":", "@", "$"] {
      let prefixed = sqlite3_bind_parameter_index(handle, prefix + name)
      if prefixed > 0 { return Int(prefixed) }
    }
    return nil
  }

  /// Binds `value` to the 1-based parameter `index`.
  ///
  /// Text and blobs are copied by SQLite; an empty blob is bound as an empty blob, not `NULL`.
  ///
  /// - Throws: ``SQLiteError`` with `SQLITE_RANGE` if there is no such parameter.
  public func bind(_ value: SQLiteValue, at index: Int) throws {
    let position = Int32(clamping: index)
    let resultCode: Int32
    switch value {
    case .null:
      resultCode = sqlite3_bind_null(handle, position)
    case .integer(let integer):
      resultCode = sqlite3_bind_int64(handle, position, integer)
    case .real(let real):
      resultCode = sqlite3_bind_double(handle, position, real)
    case .text(let text):
      var contiguous = text
      resultCode = contiguous.withUTF8 { bindText($0, at: position) }
    case .blob(let bytes):
      resultCode = bytes.withUnsafeBytes { bindBlob($0, at: position) }
    }
    try check(resultCode, bindingAt: index)
  }

  /// Binds the bytes `bytes` points to as a blob to the 1-based parameter `index`, copied by
  /// SQLite: a value that is not an array already (a UUID's 16 bytes, on the stack) is bound
  /// without making one. An empty buffer is bound as an empty blob, as an empty array is.
  ///
  /// - Throws: ``SQLiteError`` with `SQLITE_RANGE` if there is no such parameter.
  public func bind(bytes: UnsafeRawBufferPointer, at index: Int) throws {
    try check(bindBlob(bytes, at: Int32(clamping: index)), bindingAt: index)
  }

  /// Binds the UTF-8 bytes `utf8` points to as text to the 1-based parameter `index`, copied
  /// by SQLite with their exact length (embedded NULs kept; an empty buffer is the empty string,
  /// not `NULL`): a string read in place, where ``bind(_:at:)`` takes a `String` of its own.
  ///
  /// - Throws: ``SQLiteError`` with `SQLITE_RANGE` if there is no such parameter.
  public func bind(text utf8: UnsafeBufferPointer<UInt8>, at index: Int) throws {
    try check(bindText(utf8, at: Int32(clamping: index)), bindingAt: index)
  }

  /// Binds UTF-8 bytes as text with their exact length, copied by SQLite; SQLite's result code.
  private func bindText(_ utf8: UnsafeBufferPointer<UInt8>, at position: Int32) -> Int32 {
    sqlite3_bind_text64(
      handle, position, utf8.sqliteTextStart, sqlite3_uint64(utf8.count), sqliteTransient, UInt8(SQLITE_UTF8))
  }

  /// Binds `bytes` as a blob (an empty buffer as an empty blob, not `NULL`), copied by SQLite;
  /// SQLite's result code.
  private func bindBlob(_ bytes: UnsafeRawBufferPointer, at position: Int32) -> Int32 {
    bytes.isEmpty
      ? sqlite3_bind_zeroblob(handle, position, 0)
      : sqlite3_bind_blob64(handle, position, bytes.baseAddress, sqlite3_uint64(bytes.count), sqliteTransient)
  }

  /// Throws for a binding's result code other than `SQLITE_OK` (inlined: every value bound
  /// passes here); the error is made out of line.
  @inline(__always)
  private func check(_ resultCode: Int32, bindingAt index: Int) throws {
    if resultCode != SQLITE_OK { throw bindingError(resultCode, at: index) }
  }

  /// The error of a failed binding: `SQLITE_RANGE` names the parameter index and the
  /// statement's range.
  private func bindingError(_ resultCode: Int32, at index: Int) -> SQLiteError {
    if resultCode == SQLITE_RANGE {
      return SQLiteError(
        code: .range, message: "parameter index \(index) is out of range 1...\(parameterCount)", sql: sql)
    }
    return error(resultCode)
  }

  /// Binds `value` to the parameter `name` (`:title` or just `title`).
  ///
  /// - Throws: ``SQLiteError`` with `SQLITE_RANGE` naming the parameter if there is none.
  public func bind(_ value: SQLiteValue, named name: String) throws {
    guard let index = parameterIndex(named: name) else {
      throw SQLiteError(code: .range, message: "no parameter named '\(name)'", sql: sql)
    }
    try bind(value, at: index)
  }

  /// Binds `values` to parameters 1, 2, 3…
  ///
  /// - Throws: ``SQLiteError`` with `SQLITE_RANGE` unless there is exactly one value per
  ///   parameter, so a forgotten or extra argument cannot go unnoticed.
  public func bind(_ values: [SQLiteValue]) throws {
    guard values.count == parameterCount else {
      throw SQLiteError(
        code: .range,
        message: "the statement has \(parameterCount) parameter(s) but \(values.count) value(s) were given",
        sql: sql)
    }
    for (offset, value) in values.enumerated() {
      try bind(value, at: offset + 1)
    }
  }

  /// Binds each value to the parameter of the same name (prefix optional).
  public func bind(_ values: [String: SQLiteValue]) throws {
    for (name, value) in values {
      try bind(value, named: name)
    }
  }
}
