import DataModel
import Foundation

/// How one row of an entity's attribute values is laid out in an ``AttributeValueStorage``: a
/// tag byte per slot (which case of ``AttributeValue`` it holds, or nil), then each slot's
/// payload, sized for the slot's attribute type.
///
/// A row of `AttributeValue?` took 24 bytes a slot whatever the type (the largest payload,
/// `Decimal`, sets the enumeration's size), so the six values of a task took 144 bytes, and a
/// fetch wrote, faulted in and freed all of them. Typed, a slot takes its type's size (8 bytes
/// for a number, a date or a Boolean, 16 for a string or a UUID) plus its tag: the task's row
/// is 64 bytes.
///
/// A value of another case than its slot's type (setting values by slot is not type-checked,
/// and an undefined attribute holds anything) is still stored: in the slot when its payload
/// fits, boxed otherwise (``AttributeValueCell``). So the layout decides only the size.
@usableFromInline
final class AttributeRowShape: Sendable {
  /// How many slots a row has.
  let slotCount: Int
  /// Each slot's payload offset in bytes from the row's start, then the row's size: one more
  /// entry than there are slots. Payloads are 8-byte aligned and follow the tags.
  let offsets: [UInt32]

  /// The layout of rows of attributes of these types, by slot.
  init(types: [AttributeType]) {
    slotCount = types.count
    var offsets: [UInt32] = []
    offsets.reserveCapacity(types.count + 1)
    var offset = Self.roundedUp(types.count)
    for type in types {
      offsets.append(UInt32(offset))
      offset += Self.payloadCapacity(of: type)
    }
    offsets.append(UInt32(offset))
    self.offsets = offsets
  }

  /// The layout of rows of `count` slots that hold any value in place (as attributes of
  /// undefined type): for values made without an entity.
  convenience init(untypedCount count: Int) {
    self.init(types: Array(repeating: .undefined, count: count))
  }

  /// The size of a row in bytes, a multiple of 8.
  var rowStride: Int { Int(offsets[slotCount]) }

  /// The bytes a slot of `type` holds its payload in: its value's size rounded up to 8, at
  /// least 8 so that any value can be boxed there. Undefined, object ID and composite slots
  /// have room for any payload.
  static func payloadCapacity(of type: AttributeType) -> Int {
    let size: Int
    switch type {
    case .integer16, .integer32, .integer64: size = MemoryLayout<Int64>.size
    case .decimal: size = MemoryLayout<Decimal>.size
    case .double: size = MemoryLayout<Double>.size
    case .float: size = MemoryLayout<Float>.size
    case .string: size = MemoryLayout<String>.size
    case .boolean: size = MemoryLayout<Bool>.size
    case .date: size = MemoryLayout<Date>.size
    case .binary, .transformable: size = MemoryLayout<Data>.size
    case .uuid: size = MemoryLayout<UUID>.size
    case .uri: size = MemoryLayout<URL>.size
    case .undefined, .objectID, .composite: size = AttributeValueCell.largestPayload
    }
    return max(8, roundedUp(size))
  }

  /// `count` rounded up to a multiple of 8.
  static func roundedUp(_ count: Int) -> Int { roundedUp(count, toAlignment: 8) }

  /// `offset` rounded up to a multiple of `alignment` (a power of two).
  @inlinable static func roundedUp(_ offset: Int, toAlignment alignment: Int) -> Int {
    (offset &+ alignment &- 1) & ~(alignment &- 1)
  }
}
