import DataModel
import Foundation
import SQLite

extension AttributeValueCell {
  /// Binds the column value of the value a slot holds (what ``StoredValueCodec/encode(_:kind:)``
  /// makes of it) to the next parameter of `row`, read in place.
  ///
  /// A save binds every column it writes this way. Reading the value out first copied it three
  /// times on its way to SQLite — out of the slot, into the column value, into the binding —
  /// each copy of a string a retain and a release of its storage, an atomic write to memory the
  /// save otherwise never touches. Here a string's bytes are handed to SQLite (which copies them)
  /// straight from the slot, and numbers, Booleans and dates are bound from their bytes. The
  /// other cases go through ``StoredValueCodec/bind(_:kind:to:)`` (which binds a UUID from its
  /// bytes too); reading them out retains nothing but data, URLs and boxes. Nothing runs
  /// between the read and the binding that could change the slot.
  static func bindStoredValue(
    tag: UInt8, payload: UnsafeRawPointer, kind: StoredValueCodec.Kind, to row: inout SQLiteParameterCursor
  ) throws {
    switch Tag(byte: tag) {
    case .none: try row.bind(.null)
    case .integer: try row.bind(.integer(payload.load(as: Int64.self)))
    case .boolean: try row.bind(.integer(payload.load(as: Bool.self) ? 1 : 0))
    case .double: try row.bind(.real(payload.load(as: Double.self)))
    case .float: try row.bind(.real(Double(payload.load(as: Float.self))))
    case .date: try row.bind(.real(payload.load(as: Date.self).timeIntervalSinceReferenceDate))
    case .string:
      // Through the slot's address, in place: reading the string out of it first would retain
      // it. `withUTF8` changes nothing of a string whose UTF-8 is contiguous (every native
      // one); another (a bridged one) is read out instead, so that the slot, which copies of
      // the values may share, is never written.
      let string = UnsafeMutablePointer(mutating: payload.assumingMemoryBound(to: String.self))
      if string.pointee.isContiguousUTF8 {
        try string.pointee.withUTF8 { try row.bind(text: $0) }
      } else {
        try row.bind(.text(string.pointee))
      }
    case .uuid, .decimal, .binary, .uri, .boxed:
      try StoredValueCodec.bind(read(tag: tag, payload: payload), kind: kind, to: &row)
    }
  }
}

extension ManagedObject {
  /// Binds the column value of the attribute in `slot` to the next parameter of `row`, read in
  /// place (``AttributeValueCell/bindStoredValue(tag:payload:kind:to:)``). For the objects a
  /// save writes, which hold their values (a fault has nothing to write).
  func bindAttributeValue(at slot: Int, kind: StoredValueCodec.Kind, to row: inout SQLiteParameterCursor) throws {
    try withUnsafeMutablePointer(to: &attributeValues) { values in
      let (tag, payload) = AttributeValues.cell(at: slot, of: values)
      try AttributeValueCell.bindStoredValue(tag: tag, payload: payload, kind: kind, to: &row)
    }
  }
}
