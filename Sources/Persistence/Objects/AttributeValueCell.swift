import DataModel
import Foundation

/// One slot of a row of an ``AttributeValueStorage``: a tag byte saying which case of
/// ``AttributeValue`` the slot holds (or nil), and the case's payload in place.
///
/// These functions read and write a slot through raw pointers: the storage knows where a
/// slot's tag and payload are and how many bytes the payload may take
/// (``AttributeRowShape``). A payload larger than its slot (a string set in an integer slot by
/// untyped code) is stored boxed, as a reference to an ``AttributeValueBox``.
///
/// Numbers, dates, Booleans, UUIDs and decimals are stored as their bytes and need no
/// destroying; strings, data and URLs are initialized, moved and destroyed as the types they
/// are (their memory is bound to them while they are there).
@usableFromInline
enum AttributeValueCell {
  /// What a slot holds.
  @usableFromInline
  enum Tag: UInt8, CaseIterable {
    case none = 0
    case integer, decimal, double, float, boolean, date, uuid
    /// The cases from here on hold references (``AttributeValueStorage`` releases these).
    case string, binary, uri
    /// A reference to an ``AttributeValueBox``.
    case boxed

    /// The tag a slot's byte holds (one of the cases' raw values), reinterpreted rather than
    /// converted: the raw values are the cases' places in the declaration (0, 1, 2 …), and a
    /// case is stored as its place, so the byte already is the tag. `init?(rawValue:)` is a
    /// call that checks the byte, on every read of every value. (Tests pin the equivalence.)
    @inlinable @inline(__always)
    init(byte: UInt8) {
      assert(byte <= Tag.boxed.rawValue, "attribute value tag \(byte) out of range")
      self = unsafeBitCast(byte, to: Tag.self)
    }
  }

  /// The largest payload of any case, rounded up to 8: what a slot of undefined type holds in
  /// place.
  static let largestPayload: Int = AttributeRowShape.roundedUp(
    [
      MemoryLayout<Int64>.size, MemoryLayout<Decimal>.size, MemoryLayout<Double>.size, MemoryLayout<Float>.size,
      MemoryLayout<String>.size, MemoryLayout<Bool>.size, MemoryLayout<Date>.size, MemoryLayout<Data>.size,
      MemoryLayout<UUID>.size, MemoryLayout<URL>.size,
    ].max()!)

  /// Whether a `UUID` is laid out in memory as its 16 bytes (`uuid_t`), in order: then a
  /// UUID's payload is written by copying the bytes it is stored as (``RowDecoder``), without
  /// making a `UUID` through its initializer, a call into Foundation for every value read.
  /// Checked once, on values whose bytes all differ, rather than assumed: Foundation does not
  /// promise the layout.
  static let uuidPayloadIsItsBytes: Bool = {
    guard MemoryLayout<UUID>.size == 16 else { return false }
    let bytes: uuid_t = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 0xfe, 0xff)
    let uuid = UUID(uuid: bytes)
    return withUnsafeBytes(of: uuid) { Array($0) } == withUnsafeBytes(of: bytes) { Array($0) }
  }()

  /// The value a slot holds, copied out (a string's storage is retained).
  @inlinable @inline(__always)
  static func read(tag: UInt8, payload: UnsafeRawPointer) -> AttributeValue? {
    switch Tag(byte: tag) {
    case .none: return nil
    case .integer: return .integer(payload.load(as: Int64.self))
    case .decimal: return .decimal(payload.load(as: Decimal.self))
    case .double: return .double(payload.load(as: Double.self))
    case .float: return .float(payload.load(as: Float.self))
    case .string: return .string(payload.assumingMemoryBound(to: String.self).pointee)
    case .boolean: return .boolean(payload.load(as: Bool.self))
    case .date: return .date(payload.load(as: Date.self))
    case .binary: return .binary(payload.assumingMemoryBound(to: Data.self).pointee)
    case .uuid: return .uuid(payload.load(as: UUID.self))
    case .uri: return .uri(payload.assumingMemoryBound(to: URL.self).pointee)
    case .boxed: return box(at: payload).value
    }
  }

  /// The box a boxed slot references.
  @inlinable @inline(__always)
  static func box(at payload: UnsafeRawPointer) -> AttributeValueBox {
    Unmanaged<AttributeValueBox>.fromOpaque(payload.load(as: UnsafeRawPointer.self)).takeUnretainedValue()
  }

  /// Puts `value` in a slot that holds nothing (its tag is `none`): in place when its payload
  /// fits in `capacity` bytes, boxed otherwise.
  @inline(__always)
  static func initialize(
    _ value: __owned AttributeValue?, tag: UnsafeMutablePointer<UInt8>, payload: UnsafeMutableRawPointer, capacity: Int
  ) {
    tag.pointee =
      switch value {
      case nil: Tag.none.rawValue
      case .integer(let integer)?: put(integer, .integer, at: payload)
      case .double(let double)?: put(double, .double, at: payload)
      case .float(let float)?: put(float, .float, at: payload)
      case .boolean(let boolean)?: put(boolean, .boolean, at: payload)
      case .date(let date)?: put(date, .date, at: payload)
      case .string(let string)? where capacity >= MemoryLayout<String>.size: put(string, .string, at: payload)
      case .uuid(let uuid)? where capacity >= MemoryLayout<UUID>.size: put(uuid, .uuid, at: payload)
      case .binary(let data)? where capacity >= MemoryLayout<Data>.size: put(data, .binary, at: payload)
      case .uri(let url)? where capacity >= MemoryLayout<URL>.size: put(url, .uri, at: payload)
      case .decimal(let decimal)? where capacity >= MemoryLayout<Decimal>.size: put(decimal, .decimal, at: payload)
      case let value?:
        put(UnsafeRawPointer(Unmanaged.passRetained(AttributeValueBox(value)).toOpaque()), .boxed, at: payload)
      }
  }

  /// Initializes `payload` to `value` and returns `tag`'s raw value, for the slot's tag.
  @inline(__always)
  private static func put<Payload>(_ value: __owned Payload, _ tag: Tag, at payload: UnsafeMutableRawPointer) -> UInt8 {
    payload.initializeMemory(as: Payload.self, to: value)
    return tag.rawValue
  }

  /// Takes the value out of a slot, which then holds nothing: nothing is retained or released.
  @inline(__always)
  static func move(tag: UnsafeMutablePointer<UInt8>, payload: UnsafeMutableRawPointer) -> AttributeValue? {
    defer { tag.pointee = Tag.none.rawValue }
    switch Tag(byte: tag.pointee) {
    case .string: return .string(payload.assumingMemoryBound(to: String.self).move())
    case .binary: return .binary(payload.assumingMemoryBound(to: Data.self).move())
    case .uri: return .uri(payload.assumingMemoryBound(to: URL.self).move())
    case .boxed:
      return Unmanaged<AttributeValueBox>.fromOpaque(payload.load(as: UnsafeRawPointer.self)).takeRetainedValue().value
    case .none, .integer, .decimal, .double, .float, .boolean, .date, .uuid:
      return read(tag: tag.pointee, payload: payload)
    }
  }

  /// Releases what a slot holds, which then holds nothing. Only strings, data, URLs and boxes
  /// hold references; the other payloads are left as they are.
  @inline(__always)
  static func destroy(tag: UnsafeMutablePointer<UInt8>, payload: UnsafeMutableRawPointer) {
    switch Tag(byte: tag.pointee) {
    case .string: payload.assumingMemoryBound(to: String.self).deinitialize(count: 1)
    case .binary: payload.assumingMemoryBound(to: Data.self).deinitialize(count: 1)
    case .uri: payload.assumingMemoryBound(to: URL.self).deinitialize(count: 1)
    case .boxed: Unmanaged<AttributeValueBox>.fromOpaque(payload.load(as: UnsafeRawPointer.self)).release()
    case .none, .integer, .decimal, .double, .float, .boolean, .date, .uuid: break
    }
    tag.pointee = Tag.none.rawValue
  }

  /// Copies a slot into one that holds nothing, of a row of the same shape: trivial payloads as
  /// bytes, references retained (a box is shared, it is immutable).
  @inline(__always)
  static func copy(
    tag: UInt8, payload: UnsafeRawPointer, toTag target: UnsafeMutablePointer<UInt8>,
    payload targetPayload: UnsafeMutableRawPointer
  ) {
    switch Tag(byte: tag) {
    case .none: break
    case .integer, .double, .float, .boolean, .date:
      targetPayload.storeBytes(of: payload.load(as: UInt64.self), as: UInt64.self)
    case .uuid: targetPayload.storeBytes(of: payload.load(as: UUID.self), as: UUID.self)
    case .decimal: targetPayload.storeBytes(of: payload.load(as: Decimal.self), as: Decimal.self)
    case .string:
      targetPayload.initializeMemory(as: String.self, to: payload.assumingMemoryBound(to: String.self).pointee)
    case .binary:
      targetPayload.initializeMemory(as: Data.self, to: payload.assumingMemoryBound(to: Data.self).pointee)
    case .uri: targetPayload.initializeMemory(as: URL.self, to: payload.assumingMemoryBound(to: URL.self).pointee)
    case .boxed:
      let box = payload.load(as: UnsafeRawPointer.self)
      _ = Unmanaged<AttributeValueBox>.fromOpaque(box).retain()
      targetPayload.storeBytes(of: box, as: UnsafeRawPointer.self)
    }
    target.pointee = tag
  }

  /// Whether a slot holds a value equal to `value` (``AttributeValue/equal(_:_:)``), compared
  /// in place: reading the slot out would retain a string.
  @inline(__always)
  static func holds(_ value: AttributeValue?, tag: UInt8, payload: UnsafeRawPointer) -> Bool {
    switch (Tag(byte: tag), value) {
    case (.none, nil): return true
    case (.none, _?), (_, nil): return false
    case (.string, .string(let string)?): return payload.assumingMemoryBound(to: String.self).pointee == string
    case (.integer, .integer(let integer)?): return payload.load(as: Int64.self) == integer
    case (.double, .double(let double)?): return payload.load(as: Double.self) == double
    case (.boolean, .boolean(let boolean)?): return payload.load(as: Bool.self) == boolean
    case (.date, .date(let date)?): return payload.load(as: Date.self) == date
    case (.uuid, .uuid(let uuid)?): return payload.load(as: UUID.self) == uuid
    case (.boxed, _?): return AttributeValue.equal(box(at: payload).value, value)
    case (_, let value?):
      // A different case, or a rarer one: compared as values.
      return AttributeValue.equal(read(tag: tag, payload: payload), value)
    }
  }

  /// Whether two slots hold equal values, compared in place where both hold a string or the
  /// same trivial case.
  @inline(__always)
  static func equal(tag: UInt8, payload: UnsafeRawPointer, otherTag: UInt8, otherPayload: UnsafeRawPointer) -> Bool {
    if tag == otherTag {
      switch Tag(byte: tag) {
      case .none: return true
      case .string:
        return payload.assumingMemoryBound(to: String.self).pointee
          == otherPayload.assumingMemoryBound(to: String.self).pointee
      case .integer: return payload.load(as: Int64.self) == otherPayload.load(as: Int64.self)
      case .boolean: return payload.load(as: Bool.self) == otherPayload.load(as: Bool.self)
      case .date: return payload.load(as: Date.self) == otherPayload.load(as: Date.self)
      case .uuid: return payload.load(as: UUID.self) == otherPayload.load(as: UUID.self)
      case .decimal, .double, .float, .binary, .uri, .boxed: break
      }
    }
    return holds(read(tag: otherTag, payload: otherPayload), tag: tag, payload: payload)
  }
}

/// A value too large for its slot (``AttributeValueCell``), immutable: copies of the slot share
/// it.
@usableFromInline
final class AttributeValueBox: Sendable {
  @usableFromInline let value: AttributeValue

  init(_ value: AttributeValue) {
    self.value = value
  }
}
