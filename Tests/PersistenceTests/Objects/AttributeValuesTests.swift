import DataModel
import Foundation
import Testing

@testable import Persistence

/// Attribute values by slot: copy on write, equality, and cleanup when initialization throws.
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

  @Test("An initializer that throws passes its error on; the values it set are freed once")
  func throwingInitializer() {
    let text = String(repeating: "x", count: 100)
    #expect(throws: Stop.self) {
      _ = try AttributeValues(count: 3) { buffer in
        buffer[0] = .binary(Data(repeating: 7, count: 64))
        buffer[2] = .string(text)
        throw Stop()
      }
    }
    // The shared string is still intact after the storage released its copy.
    #expect(text == String(repeating: "x", count: 100))
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
