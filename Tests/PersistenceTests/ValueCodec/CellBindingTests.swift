import Foundation
import SQLite
import Testing

@testable import Persistence

/// A save binds each column straight from the slot that holds the value
/// (``AttributeValueCell/bindStoredValue(tag:payload:kind:to:)``): for every value, in a slot
/// typed for it, in an untyped one and boxed in a slot too small for it, that binds exactly what
/// ``StoredValueCodec/encode(_:kind:)`` makes of the value.
@Suite("Values bound from their slots")
struct CellBindingTests {
  static let cases: [(AttributeValue?, StoredValueCodec.Kind)] =
    StoredValueBindingTests.cases + [
      (.string(""), StoredValueBindingTests.kind(.string)),
      (.string("nul\u{0}inside"), StoredValueBindingTests.kind(.string)),
      (.string(String(repeating: "long text ", count: 20)), StoredValueBindingTests.kind(.string)),
      (.boolean(false), StoredValueBindingTests.kind(.boolean)),
      (.integer(Int64.min), StoredValueBindingTests.kind(.integer64)),
      (.double(-0.0), StoredValueBindingTests.kind(.double)),
    ]

  /// The value bound from `slot` of `values`, read back through `SELECT ?`.
  static func bound(_ values: AttributeValues, slot: Int, kind: StoredValueCodec.Kind) throws -> SQLiteValue {
    let db = try SQLiteConnection()
    let select = try db.prepare("SELECT ?")
    var row = SQLiteParameterCursor(select)
    try withUnsafePointer(to: values) { pointer in
      let (tag, payload) = AttributeValues.cell(at: slot, of: pointer)
      try AttributeValueCell.bindStoredValue(tag: tag, payload: payload, kind: kind, to: &row)
    }
    #expect(row.boundCount == 1)
    #expect(try select.step())
    return select.value(at: 0)
  }

  @Test("Every value binds as its encoding, in typed, untyped and too small slots", arguments: cases.indices)
  func bindsTheEncoding(_ index: Int) throws {
    let (value, kind) = Self.cases[index]
    let encoded = StoredValueCodec.encode(value, kind: kind)
    // Typed for the attribute, untyped (any value in place), and a Boolean's slot (8 bytes),
    // where anything larger — a string, a UUID, a decimal, data, a URL — is boxed.
    let shapes = [
      AttributeRowShape(types: [.integer16, kind.type]), AttributeRowShape(untypedCount: 2),
      AttributeRowShape(types: [.integer16, .boolean]),
    ]
    for shape in shapes {
      let values = AttributeValues([.integer(7), value], shape: shape)
      let stored = try Self.bound(values, slot: 1, kind: kind)
      #expect(stored == encoded, "\(String(describing: value)) in \(shape.slotCount) slots")
      if case .text(let text) = stored, case .text(let expected) = encoded {
        #expect(Array(text.utf8) == Array(expected.utf8))
      }
    }
  }
}
