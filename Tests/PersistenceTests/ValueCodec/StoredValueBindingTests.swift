import Foundation
import Persistence
import SQLite
import Testing

/// ``StoredValueCodec/bind(_:kind:to:)``, the path a save writes columns through, binds what
/// ``StoredValueCodec/encode(_:kind:)`` makes of every value: its shortcut for UUIDs (their
/// bytes, with no array made) must never store anything else.
@Suite("Stored values bound")
struct StoredValueBindingTests {
  static func kind(_ type: AttributeType, external: Bool = false) -> StoredValueCodec.Kind {
    var attribute = AttributeDescription(name: "value", attributeType: type, isOptional: true)
    attribute.allowsExternalBinaryDataStorage = external
    return StoredValueCodec.Kind(attribute)
  }

  static let cases: [(AttributeValue?, StoredValueCodec.Kind)] = [
    (nil, kind(.string)), (.integer(-42), kind(.integer64)), (.boolean(true), kind(.boolean)),
    (.double(0.1), kind(.double)), (.float(1.5), kind(.float)), (.string("café"), kind(.string)),
    (.date(Date(timeIntervalSinceReferenceDate: 800_000_000.25)), kind(.date)),
    (.uuid(UUID(uuidString: "00112233-4455-6677-8899-AABBCCDDEEFF")!), kind(.uuid)),
    (.uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))), kind(.uuid)),
    (.uri(URL(string: "x-coredata://A/Task/p1")!), kind(.uri)),
    (.decimal(Decimal(string: "12345678901234567890.123")!), kind(.decimal)), (.decimal(2.5), kind(.decimal)),
    (.binary(Data([1, 2, 3])), kind(.binary)), (.binary(Data([1, 2, 3])), kind(.binary, external: true)),
    (.binary(Data()), kind(.binary)),
  ]

  @Test("Every value binds as its encoding", arguments: cases.indices)
  func bindsTheEncoding(_ index: Int) throws {
    let (value, kind) = Self.cases[index]
    let db = try SQLiteConnection()
    let select = try db.prepare("SELECT ?")
    var row = SQLiteParameterCursor(select)
    try StoredValueCodec.bind(value, kind: kind, to: &row)
    #expect(row.boundCount == 1)
    #expect(try select.step())
    let stored = select.value(at: 0)
    #expect(stored == StoredValueCodec.encode(value, kind: kind))
    // And it reads back as the value it was.
    #expect(try StoredValueCodec.decode(stored, kind: kind) == value)
  }
}
