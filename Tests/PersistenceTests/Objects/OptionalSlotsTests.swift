import Testing

@testable import Persistence

/// An object's relationship values: every slot nil until set, stored only as far as needed.
@Suite("Optional slots")
struct OptionalSlotsTests {
  @Test("Unset slots read nil; setting one far out keeps the ones before it nil")
  func unsetSlots() {
    var slots = OptionalSlots<Int>()
    #expect(slots[0] == nil)
    #expect(slots[7] == nil)
    #expect(slots.indices.isEmpty)
    slots[3] = 30
    #expect(slots[3] == 30)
    #expect((0..<3).allSatisfy { slots[$0] == nil })
    #expect(slots[4] == nil)
    #expect(slots.indices == 0..<4)
  }

  @Test("Setting nil beyond the stored slots stores nothing")
  func nilBeyond() {
    var slots = OptionalSlots<Int>()
    slots[5] = nil
    #expect(slots.indices.isEmpty)
    slots[1] = 1
    slots[1] = nil
    #expect(slots[1] == nil)
  }

  @Test("Equal when every slot is, however far each was stored")
  func equality() {
    var short = OptionalSlots<Int>()
    short[0] = 1
    var long = OptionalSlots<Int>([1, nil, nil])
    #expect(short == long)
    #expect(long == short)
    #expect(OptionalSlots<Int>() == OptionalSlots([nil, nil]))
    long[2] = 3
    #expect(short != long)
    #expect(long != short)
    var other = OptionalSlots<Int>()
    other[0] = 2
    #expect(short != other)
  }
}
