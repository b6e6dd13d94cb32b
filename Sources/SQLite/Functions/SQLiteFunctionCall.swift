import CSQLite

/// One call of a SQL function registered with
/// ``SQLiteConnection/createFunction(name:argumentCount:deterministic:call:)``: direct access to
/// the arguments and the result, without converting every argument to a ``SQLiteValue``.
///
/// Functions that run once per row of a large table (string matching, folding) read text
/// arguments in place as UTF-8 bytes and cache per-statement work (a folded search string, a
/// compiled pattern) as auxiliary data on a constant argument, which SQLite keeps for as long
/// as the argument stays the same.
///
/// A call is only valid inside the function body that received it.
///
/// The readers a function calls once per row (``int64(at:)``, ``withText(at:_:)``,
/// ``auxiliary(at:as:)``, the Boolean `result`) are inlinable: a call across the module
/// boundary for each cost more than the read itself, and `withText` is generic over the body's
/// result, which only a caller that sees its body can specialize.
@frozen
public struct SQLiteFunctionCall {
  @usableFromInline let context: OpaquePointer?
  @usableFromInline let arguments: UnsafeMutablePointer<OpaquePointer?>?
  /// The number of arguments of this call.
  public let argumentCount: Int

  init(context: OpaquePointer?, argumentCount: Int32, arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    self.context = context
    self.arguments = arguments
    self.argumentCount = Int(argumentCount)
  }

  @inlinable
  func handle(_ index: Int) -> OpaquePointer? {
    precondition(index >= 0 && index < argumentCount, "SQL function argument \(index) out of range")
    return arguments?[index]
  }

  // MARK: - Arguments

  /// The storage class of an argument.
  public func storageClass(at index: Int) -> SQLiteStorageClass {
    SQLiteStorageClass(sqliteType: sqlite3_value_type(handle(index)))
  }

  /// An argument as an integer (SQLite's conversion for non-integers; 0 for NULL).
  @inlinable
  public func int64(at index: Int) -> Int64 {
    sqlite3_value_int64(handle(index))
  }

  /// An argument as a double (SQLite's conversion for non-numbers; 0 for NULL).
  public func double(at index: Int) -> Double {
    sqlite3_value_double(handle(index))
  }

  /// Runs `body` over the UTF-8 bytes of a text argument, in place; nil when the argument is
  /// not text (NULL, a number or a BLOB).
  @inlinable
  public func withText<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows
    -> Result?
  {
    let value = handle(index)
    guard sqlite3_value_type(value) == SQLITE_TEXT else { return nil }
    let count = Int(sqlite3_value_bytes(value))
    guard let bytes = sqlite3_value_text(value) else {
      return try body(UnsafeBufferPointer(start: nil, count: 0))
    }
    return try body(UnsafeBufferPointer(start: bytes, count: count))
  }

  /// A text argument as a string; nil when the argument is not text.
  public func text(at index: Int) -> String? {
    withText(at: index) { String(decoding: $0, as: UTF8.self) }
  }

  /// An argument as a ``SQLiteValue``.
  public func value(at index: Int) -> SQLiteValue {
    SQLiteValue(sqliteValueHandle: handle(index))
  }

  // MARK: - Auxiliary data

  /// The object cached on a constant argument by ``setAuxiliary(_:at:)`` earlier in the same
  /// statement, when the argument has not changed since.
  ///
  /// A function must cache objects of one class per argument: `type` is trusted, not checked
  /// (this runs once per row).
  @inlinable
  public func auxiliary<Object: AnyObject>(at index: Int, as type: Object.Type) -> Object? {
    guard let pointer = sqlite3_get_auxdata(context, Int32(index)) else { return nil }
    return Unmanaged<Object>.fromOpaque(pointer).takeUnretainedValue()
  }

  /// Runs `body` with the object cached on a constant argument, as ``auxiliary(at:as:)`` finds
  /// it, without retaining it for the call (SQLite holds it until the argument changes, which
  /// cannot happen during the call); nil when there is none.
  @inlinable
  public func withAuxiliary<Object: AnyObject, Result>(
    at index: Int, as type: Object.Type, _ body: (Object) throws -> Result
  ) rethrows -> Result? {
    guard let pointer = sqlite3_get_auxdata(context, Int32(index)) else { return nil }
    return try Unmanaged<Object>.fromOpaque(pointer)._withUnsafeGuaranteedRef(body)
  }

  /// Caches an object on a constant argument for later calls of the same statement; SQLite
  /// releases it when the argument changes or the statement ends.
  public func setAuxiliary<Object: AnyObject>(_ object: Object, at index: Int) {
    let pointer = Unmanaged<Object>.passRetained(object).toOpaque()
    sqlite3_set_auxdata(context, Int32(index), pointer) { pointer in
      // Releasing needs no type: a class instance's reference is released the same way.
      guard let pointer else { return }
      Unmanaged<AnyObject>.fromOpaque(pointer).release()
    }
  }

  // MARK: - Results

  /// Returns NULL.
  public func resultNull() {
    sqlite3_result_null(context)
  }

  /// Returns an integer.
  public func result(_ value: Int64) {
    sqlite3_result_int64(context, value)
  }

  /// Returns 1 for true and 0 for false, SQL's booleans.
  @inlinable
  public func result(_ value: Bool) {
    sqlite3_result_int(context, value ? 1 : 0)
  }

  /// Returns a double.
  public func result(_ value: Double) {
    sqlite3_result_double(context, value)
  }

  /// Returns text given as UTF-8 bytes (copied).
  public func resultText(_ bytes: UnsafeBufferPointer<UInt8>) {
    bytes.setTextResult(of: context)
  }

  /// Returns a string.
  public func result(_ value: String) {
    var text = value
    text.withUTF8 { $0.setTextResult(of: context) }
  }

  /// Returns a ``SQLiteValue``.
  public func result(_ value: SQLiteValue) {
    value.setResult(of: context)
  }

  /// Makes the SQL statement fail with this message and, when given, this (extended) result
  /// code instead of `SQLITE_ERROR`.
  public func resultError(_ message: String, code: Int32? = nil) {
    sqlite3_result_error(context, message, -1)
    if let code { sqlite3_result_error_code(context, code) }
  }
}
