import DataModel
import Foundation
import Testing

@testable import Persistence

/// Attribute values by slot: copy on write, equality, filling, and freeing what they hold.
@Suite("Attribute values")
struct AttributeValuesTests {
  private struct Stop: Error {}

  @Test("Starts nil in every slot, and holds what is set")
  func nilThenSet() {
    var values = AttributeValues(nilCount: 3)
    #expect(values.count == 3)
    #expect(values.allSatisfy { $0 == nil })
    values[1] = .string("two")
    #expect(Array(values) == [nil, .string("two"), nil])
    #expect(AttributeValues(nilCount: 0).isEmpty)
  }

  @Test("A copy is independent of the original once either is written")
  func copyOnWrite() {
    let original = AttributeValues([.integer(1), .string("a"), nil])
    var copy = original
    #expect(copy == original)
    copy[1] = .string("b")
    #expect(original[1] == .string("a"))
    #expect(copy[1] == .string("b"))
    #expect(copy != original)
    copy[1] = .string("a")
    #expect(copy == original)
  }

  @Test("Equal only with the same number of slots and equal values in each")
  func equality() {
    #expect(AttributeValues([nil, nil]) == AttributeValues(nilCount: 2))
    #expect(AttributeValues([nil]) != AttributeValues(nilCount: 2))
    #expect(AttributeValues([.integer(1)]) != AttributeValues([.double(1)]))
    #expect(AttributeValues([.integer(1)]) != AttributeValues([nil]))
  }

  @Test("The direct comparison agrees with == for every pair of values, NaN included")
  func directComparisonAgreesWithEquality() {
    let values: [AttributeValue?] = [
      nil, .integer(0), .integer(1), .double(1), .double(.nan), .double(-0.0), .double(0), .float(1),
      .float(.nan), .boolean(true), .boolean(false), .string(""), .string("Task 0 report 0"),
      .string("Task 0 report 0" + ""), .string("Updated 0"), .string("e\u{301}"), .string("é"),
      .date(Date(timeIntervalSinceReferenceDate: 1)), .date(Date(timeIntervalSinceReferenceDate: 2)),
      .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
      .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 17))), .decimal(Decimal(string: "1.5")!),
      .decimal(1), .binary(Data([1, 2])), .binary(Data([1, 3])), .uri(URL(string: "x-coredata://a/b/p1")!),
    ]
    for left in values {
      for right in values {
        #expect(
          AttributeValue.equal(left, right) == (left == right),
          "\(String(describing: left)) vs \(String(describing: right))")
      }
    }
    // In place too: a slot compared with a value, two storages slot by slot.
    var stored = AttributeValues(values)
    for (slot, value) in values.enumerated() { #expect(stored.holds(value, at: slot) == (value == value)) }
    let copy = stored
    stored[4] = .double(.nan)
    #expect(stored.differs(from: copy, at: 4))
    #expect(!stored.differs(from: copy, at: 5))
  }

  @Test("Exchanging a slot returns the old value, moves the new one in, and leaves a shared copy alone")
  func exchange() {
    var values = AttributeValues([.string("old"), .integer(2)])
    let shared = values
    #expect(values.exchange(0, with: .string("new")) == .string("old"))
    #expect(Array(values) == [.string("new"), .integer(2)])
    #expect(Array(shared) == [.string("old"), .integer(2)])
    #expect(values.exchange(1, with: nil) == .integer(2))
    #expect(Array(values) == [.string("new"), nil])
  }

  @Test("A filler that throws passes its error on; the values it filled are freed once")
  func throwingFiller() {
    let text = String(repeating: "x", count: 100)
    let freed = FreedCount()
    #expect(throws: Stop.self) {
      _ = try AttributeValues(count: 4) { values in
        values.fill(0, with: .binary(freed.data()))
        values.fill(1, with: .integer(3))
        values.fill(3, with: .string(text))
        throw Stop()
      }
    }
    #expect(freed.count == 1)
    // The shared string is still intact after the storage released its copy.
    #expect(text == String(repeating: "x", count: 100))
  }

  @Test("Filled values read back, nil where nothing was filled, and are freed with the storage")
  func filled() {
    let freed = FreedCount()
    let date = Date(timeIntervalSinceReferenceDate: 12.5)
    do {
      let values = AttributeValues(count: 5) { values in
        values.fill(4, with: .binary(freed.data()))
        values.fill(0, with: .date(date))
        values.fill(2, with: .uri(URL(string: "https://example.com/a")!))
      }
      #expect(
        Array(values) == [
          .date(date), nil, .uri(URL(string: "https://example.com/a")!), nil, .binary(Data(repeating: 7, count: 64)),
        ])
      var copy = values
      copy[4] = nil
      #expect(freed.count == 0)
    }
    #expect(freed.count == 1)
  }

  @Test("Every value of a large storage survives copies and is freed with the last one")
  func manyValues() {
    var values = AttributeValues(nilCount: 1000)
    for slot in values.indices { values[slot] = .string("value \(slot) " + String(repeating: "y", count: 20)) }
    let copy = values
    values[999] = nil
    #expect(copy[999] == .string("value 999 " + String(repeating: "y", count: 20)))
    #expect(values[998] == copy[998])
    #expect(values[999] == nil)
  }
}

/// Values decoded into storages of several rows (``AttributeValueRows``): each row is its own
/// values, a write copies the row out while another row's values share the storage, and the
/// storage frees every row's values with the last of them.
@Suite("Attribute value rows")
struct AttributeValueRowsTests {
  /// The rows' shape: an integer, anything, a string.
  private let shape = AttributeRowShape(types: [.integer64, .undefined, .string])

  /// `count` rows of three values each, decoded as a fetch decodes them.
  private func decode(_ count: Int, into rows: inout AttributeValueRows) -> [AttributeValues] {
    (0..<count).map { row in
      AttributeValues(shape: shape, in: &rows) { values in
        values.fill(0, with: .integer(Int64(row)))
        values.fill(2, with: .string("row \(row) " + String(repeating: "z", count: 20)))
      }
    }
  }

  /// How many consecutive values share each storage, in order.
  private func storageSizes(_ decoded: [AttributeValues]) -> [Int] {
    var sizes: [Int] = []
    var last: AttributeValueStorage?
    for values in decoded {
      if values.storage === last {
        sizes[sizes.count - 1] += 1
      } else {
        sizes.append(1)
        last = values.storage
      }
    }
    return sizes
  }

  @Test("Rows share storages of 1, 2, 4 … 32 and then 64 rows, and each reads back its own values")
  func rowsShareStorages() {
    var rows = AttributeValueRows()
    let decoded = decode(200, into: &rows)
    for (row, values) in decoded.enumerated() {
      #expect(Array(values) == [.integer(Int64(row)), nil, .string("row \(row) " + String(repeating: "z", count: 20))])
    }
    #expect(storageSizes(decoded) == [1, 2, 4, 8, 16, 32, 64, 64, 9])
    #expect(Set(decoded.map { ObjectIdentifier($0.storage) }).count == 9)
  }

  @Test("Rows of many values share smaller storages: at most 32 KiB of values each, at least one row")
  func wideRowsShareSmallerStorages() {
    // 300 values a row that can hold anything in place: four rows fit in 32 KiB.
    let slots = 300
    let shape = AttributeRowShape(untypedCount: slots)
    #expect(AttributeValueRows.maximumRows(rowStride: shape.rowStride) == 32 * 1024 / shape.rowStride)
    var rows = AttributeValueRows()
    let decoded = (0..<12).map { row in
      AttributeValues(shape: shape, in: &rows) { $0.fill(slots - 1, with: .integer(Int64(row))) }
    }
    let most = AttributeValueRows.maximumRows(rowStride: shape.rowStride)
    #expect(most >= 2 && most < 8)
    let sizes = storageSizes(decoded)
    #expect(sizes.prefix(3) == [1, 2, most])
    #expect(sizes.allSatisfy { $0 <= most })
    #expect(sizes.reduce(0, +) == 12)
    for (row, values) in decoded.enumerated() { #expect(values[slots - 1] == .integer(Int64(row))) }
    // A row larger than the budget still gets a storage, of one row.
    #expect(AttributeValueRows.maximumRows(rowStride: 32 * 1024 + 8) == 1)
    #expect(AttributeValueRows.maximumRows(rowStride: 0) == AttributeValueRows.maximumRowsPerStorage)
    #expect(AttributeValueRows.maximumRows(rowStride: 128) == AttributeValueRows.maximumRowsPerStorage)
  }

  @Test("Values of another shape start a storage of their own, even of the same length")
  func otherShapeStartsAStorage() {
    var rows = AttributeValueRows()
    let first = decode(3, into: &rows)  // storages of 1 and 2 rows, the second with a free row
    let sameLength = AttributeValues(shape: AttributeRowShape(types: [.integer64, .undefined, .string]), in: &rows) {
      $0.fill(0, with: .integer(9))
    }
    #expect(sameLength.storage !== first[2].storage)
    #expect(Array(sameLength) == [.integer(9), nil, nil])
    let other = AttributeValues(shape: AttributeRowShape(untypedCount: 5), in: &rows) {
      $0.fill(4, with: .boolean(true))
    }
    #expect(other.count == 5)
    #expect(other[4] == .boolean(true))
    #expect(other.storage !== first[2].storage)
    #expect(first[2][0] == .integer(2))
  }

  @Test("A write copies the row out while the storage is shared, and leaves the other rows alone")
  func writeCopiesTheRow() {
    var rows = AttributeValueRows()
    var decoded = decode(7, into: &rows)
    rows = AttributeValueRows()  // the decoder's own reference goes, as at the end of a fetch
    let shared = decoded[5].storage
    #expect(decoded[6].storage === shared)
    let before = decoded[5]
    decoded[5][1] = .double(1.5)
    #expect(decoded[5].storage !== shared)
    #expect(Array(decoded[5]) == [.integer(5), .double(1.5), .string("row 5 " + String(repeating: "z", count: 20))])
    #expect(Array(before) == [.integer(5), nil, .string("row 5 " + String(repeating: "z", count: 20))])
    #expect(Array(decoded[6]) == [.integer(6), nil, .string("row 6 " + String(repeating: "z", count: 20))])
    #expect(!decoded[5].sharesStorage(with: before))
    #expect(decoded[6].sharesStorage(with: decoded[6]))
    #expect(!decoded[6].sharesStorage(with: decoded[4]))
    // Exchanging moves the old value out of a copy, not out of the shared storage.
    let old = decoded[6].exchange(2, with: nil)
    #expect(old == .string("row 6 " + String(repeating: "z", count: 20)))
    #expect(decoded[4][2] == .string("row 4 " + String(repeating: "z", count: 20)))
  }

  @Test("Rows of one storage that are equal compare equal, and different rows differ")
  func equalityAcrossRows() {
    var rows = AttributeValueRows()
    let decoded = decode(4, into: &rows)
    #expect(decoded[2] != decoded[3])
    #expect(decoded[3] == AttributeValues([.integer(3), nil, .string("row 3 " + String(repeating: "z", count: 20))]))
    #expect(decoded[3].differs(from: decoded[2], at: 0))
    #expect(!decoded[3].differs(from: decoded[2], at: 1))
  }

  @Test("A storage frees every row's values with the last values that reference it")
  func storageFreesEveryRow() {
    let freed = FreedCount()
    do {
      var rows = AttributeValueRows()
      var kept: AttributeValues?
      let shape = AttributeRowShape(types: [.integer64, .binary])
      for row in 0..<15 {
        let values = AttributeValues(shape: shape, in: &rows) { $0.fill(1, with: .binary(freed.data())) }
        if row == 9 { kept = values }  // the fourth storage holds rows 7 to 14
      }
      rows = AttributeValueRows()
      #expect(freed.count == 7)  // the first three storages (rows 0 to 6) are gone
      #expect(kept.flatMap { $0[1] } == .binary(Data(repeating: 7, count: 64)))
      kept = nil
      #expect(freed.count == 15)
    }
    #expect(freed.count == 15)
  }

  @Test("A filler that throws leaves its row nil and frees what it filled")
  func throwingFillerInARow() {
    struct Stop: Error {}
    let freed = FreedCount()
    var rows = AttributeValueRows()
    let first = decode(1, into: &rows)
    #expect(throws: Stop.self) {
      _ = try AttributeValues(shape: shape, in: &rows) { values in
        values.fill(1, with: .binary(freed.data()))
        throw Stop()
      }
    }
    #expect(freed.count == 1)
    #expect(first[0][0] == .integer(0))
  }
}

/// Values stored by type (``AttributeRowShape``): each slot sized for its attribute's type,
/// and any value kept in any slot, in place when it fits and boxed when it does not.
@Suite("Typed attribute rows")
struct TypedAttributeRowTests {
  /// One value of every case, each able to be compared with `==`.
  private static let samples: [AttributeValue] = [
    .integer(-42), .decimal(Decimal(string: "12345678901234567890.5")!), .double(2.5), .float(-1.25),
    .string("a string longer than fifteen bytes"), .string("short"), .boolean(true),
    .date(Date(timeIntervalSinceReferenceDate: 1234.5)),
    .binary(Data((0..<40).map { UInt8($0) })),
    .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
    .uri(URL(string: "x-coredata://store/Task/p7")!),
  ]

  private static let types: [AttributeType] = [
    .undefined, .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date, .binary, .uuid,
    .uri, .transformable, .objectID, .composite,
  ]

  @Test("A task's row takes 64 bytes: tags, then 8 bytes for a date, number or Boolean and 16 for a UUID or string")
  func rowSizes() {
    let task = AttributeRowShape(types: [.date, .uuid, .boolean, .integer16, .string])
    #expect(task.rowStride == 64)
    #expect(task.offsets == [8, 16, 32, 40, 48, 64])
    #expect(AttributeRowShape(types: []).rowStride == 0)
    // Any slot has room for a box; an undefined slot for any value in place.
    for type in Self.types { #expect(AttributeRowShape.payloadCapacity(of: type) >= 8) }
    #expect(AttributeRowShape.payloadCapacity(of: .undefined) >= MemoryLayout<Decimal>.size)
    #expect(AttributeRowShape(untypedCount: 9).offsets.first == 16)
  }

  @Test("Every value reads back from a slot of every type, copies, compares and exchanges")
  func everyValueInEverySlot() {
    for type in Self.types {
      let shape = AttributeRowShape(types: [.integer64, type, .boolean])
      for value in Self.samples {
        var values = AttributeValues([.integer(1), value, .boolean(false)], shape: shape)
        #expect(Array(values) == [.integer(1), value, .boolean(false)], "\(value) in a \(type.rawValue) slot")
        #expect(values.holds(value, at: 1))
        #expect(!values.holds(nil, at: 1))
        let copy = values
        #expect(copy == values)
        values[2] = .boolean(true)  // the row is copied, the value in slot 1 with it
        #expect(values[1] == value)
        #expect(!values.differs(from: copy, at: 1))
        #expect(values.differs(from: copy, at: 2))
        #expect(values.exchange(1, with: .integer(7)) == value)
        #expect(copy[1] == value)
        #expect(values.differs(from: copy, at: 1))
        values[1] = value
        #expect(values == AttributeValues([.integer(1), value, .boolean(true)], shape: shape))
      }
    }
  }

  @Test("A tag byte is its tag reinterpreted: the raw values are the cases' places, in one byte")
  func tagBytes() {
    #expect(MemoryLayout<AttributeValueCell.Tag>.size == 1)
    for (place, tag) in AttributeValueCell.Tag.allCases.enumerated() {
      #expect(Int(tag.rawValue) == place, "\(tag)")
      #expect(AttributeValueCell.Tag(byte: tag.rawValue) == tag)
      #expect(AttributeValueCell.Tag(rawValue: tag.rawValue) == tag)
    }
  }

  @Test("A UUID is laid out as its 16 bytes here, so decoders copy them; the copy reads back as the UUID")
  func uuidPayloadBytes() throws {
    // Where this holds, a fetch copies a stored UUID's bytes into its slot (`RowDecoder`);
    // elsewhere it decodes through `StoredValueCodec`. Swift on Linux lays it out so.
    #expect(AttributeValueCell.uuidPayloadIsItsBytes)
    let shape = AttributeRowShape(types: [.string, .uuid])
    let uuid = try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
    let values = withUnsafeBytes(of: uuid.uuid) { bytes in
      AttributeValues(shape: shape) { filler in
        filler.putBytes(bytes, .uuid, slot: 1, payloadOffset: Int(shape.offsets[1]))
        filler.put("title", .string, slot: 0, payloadOffset: Int(shape.offsets[0]))
      }
    }
    #expect(Array(values) == [.string("title"), .uuid(uuid)])
  }

  @Test("Reads in place find the storage, its header and its elements where they are, in every row")
  func readsInPlace() {
    // The reads load the storage's reference from the values' first field and reach its
    // header and elements at fixed offsets, retaining nothing.
    #expect(MemoryLayout<AttributeValues>.offset(of: \AttributeValues.storage) == 0)
    let storage = AttributeValueStorage.make(shape: AttributeRowShape(types: [.integer64, .string]), rows: 3)
    let address = UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque())
    storage.withUnsafeMutablePointers { header, words in
      #expect(UnsafeRawPointer(header) == address + AttributeValueStorage.headerOffset)
      #expect(UnsafeRawPointer(words) == address + AttributeValueStorage.elementsOffset)
    }
    var rows = AttributeValueRows()
    let shape = AttributeRowShape(types: [.integer64, .string, .boolean])
    let all = (0..<5).map { index in
      AttributeValues(shape: shape, in: &rows) { filler in
        filler.fill(0, with: .integer(Int64(index)))
        filler.fill(1, with: .string("row \(index) of a shared storage"))
      }
    }
    for (index, var values) in all.enumerated() {
      #expect(values.row == [0, 0, 1, 0, 1][index], "rows of storages of 1, then 2, then 4 rows")
      let read = withUnsafeMutablePointer(to: &values) { pointer in
        AttributeValues.withValue(at: 1, of: pointer) { value in
          // The value is read before the body runs: changing the values here is safe.
          pointer.pointee[1] = .string("changed")
          return value
        }
      }
      #expect(read == .string("row \(index) of a shared storage"))
      #expect(values[1] == .string("changed"))
      #expect(values[0] == .integer(Int64(index)))
      #expect(all[index][1] == .string("row \(index) of a shared storage"), "the shared row is left as it was")
      #expect(withUnsafeMutablePointer(to: &values) { AttributeValues.holds(nil, at: 2, of: $0) })
    }
  }

  @Test("Rows of other shapes holding the same values are equal")
  func equalAcrossShapes() {
    for value in Self.samples {
      let typed = AttributeValues([value, nil], shape: AttributeRowShape(types: [.boolean, .string]))
      let untyped = AttributeValues([value, nil])
      #expect(typed == untyped, "\(value)")
      #expect(typed != AttributeValues([nil, value]))
    }
  }

  @Test("A value too large for its slot is boxed, shared by copies, and freed once")
  func boxedValuesAreFreed() {
    let freed = FreedCount()
    let shape = AttributeRowShape(types: [.boolean, .integer64])
    do {
      var values = AttributeValues(shape: shape) { $0.fill(0, with: .binary(freed.data())) }
      let copy = values
      values[1] = .integer(3)
      #expect(copy[0] == .binary(Data(repeating: 7, count: 64)))
      #expect(values[0] == copy[0])
      values[0] = .string("replaced: the box stays with the copy")
      #expect(freed.count == 0)
      #expect(copy[0] == .binary(Data(repeating: 7, count: 64)))
    }
    #expect(freed.count == 1)
    do {
      var values = AttributeValues(shape: shape) { $0.fill(1, with: .binary(freed.data())) }
      let moved = values.exchange(1, with: nil)
      #expect(freed.count == 1)
      #expect(moved == .binary(Data(repeating: 7, count: 64)))
    }
    #expect(freed.count == 2)
  }
}

/// Counts the frees of the data it makes, to check that storage releases values it holds.
private final class FreedCount: @unchecked Sendable {
  private let lock = NSLock()
  private var frees = 0

  var count: Int { lock.withLock { frees } }

  /// 64 bytes of 7, whose storage counts a free when it goes.
  func data() -> Data {
    let bytes = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
    bytes.initializeMemory(as: UInt8.self, repeating: 7, count: 64)
    let data = Data(
      bytesNoCopy: bytes, count: 64,
      deallocator: .custom { [self] pointer, _ in
        pointer.deallocate()
        lock.withLock { frees += 1 }
      })
    return data
  }
}
