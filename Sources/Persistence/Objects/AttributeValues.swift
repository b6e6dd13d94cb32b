import DataModel

/// The attribute values of one object or stored row, by slot of the entity's layout: a
/// copy-on-write collection that costs less to make and free than `[AttributeValue?]`.
///
/// A fetch makes one of these per row and frees it with the object, so both ends are on the hot
/// path. An array of a type from another module is allocated through the runtime's generic
/// metadata cache, a locked hash-table lookup per array; this storage is a class of its own,
/// whose metadata is looked up once.
@usableFromInline
struct AttributeValues: Equatable, @unchecked Sendable, RandomAccessCollection, MutableCollection {
  @usableFromInline var storage: AttributeValueStorage

  /// `count` nil values.
  init(nilCount count: Int) {
    storage = AttributeValueStorage.make(count: count)
  }

  /// `count` values, each nil until `fill` fills it. When `fill` throws, the values it filled
  /// are released and the error is passed on.
  init(count: Int, filling fill: (AttributeValueFiller) throws -> Void) rethrows {
    storage = AttributeValueStorage.make(count: count)
    try storage.withUnsafeMutablePointerToElements { values in
      try fill(AttributeValueFiller(values: values, count: count))
    }
  }

  /// These values, slot by slot.
  init(_ values: [AttributeValue?]) {
    self.init(count: values.count) { filler in
      for slot in values.indices {
        if let value = values[slot] { filler.fill(slot, with: value) }
      }
    }
  }

  @usableFromInline var startIndex: Int { 0 }
  @usableFromInline var endIndex: Int { storage.count }

  /// The value in `slot`.
  @usableFromInline subscript(slot: Int) -> AttributeValue? {
    get {
      precondition(slot >= 0 && slot < storage.count, "attribute slot out of range")
      return storage.withUnsafeMutablePointerToElements { $0[slot] }
    }
    set {
      precondition(slot >= 0 && slot < storage.count, "attribute slot out of range")
      if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
      storage.withUnsafeMutablePointerToElements { $0[slot] = newValue }
    }
  }

  /// `body`'s result for the value in `slot`, read in place: the generated properties' reads,
  /// inlined into them.
  @inlinable
  func withValue<Result>(at slot: Int, _ body: (AttributeValue?) -> Result) -> Result {
    storage.withUnsafeMutablePointers { count, values in
      precondition(slot >= 0 && slot < count.pointee, "attribute slot out of range")
      return body(values[slot])
    }
  }

  /// Whether the value in `slot` equals `value`, compared in place (reading the slot out would
  /// copy it: a retain and a release for a string).
  func holds(_ value: AttributeValue?, at slot: Int) -> Bool {
    precondition(slot >= 0 && slot < storage.count, "attribute slot out of range")
    return storage.withUnsafeMutablePointerToElements { AttributeValue.equal($0[slot], value) }
  }

  /// Puts `value` in `slot` and returns the value it replaces, moved out rather than copied and
  /// destroyed: the first change of an object keeps its old value this way.
  mutating func exchange(_ slot: Int, with value: __owned AttributeValue?) -> AttributeValue? {
    precondition(slot >= 0 && slot < storage.count, "attribute slot out of range")
    if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    return storage.withUnsafeMutablePointerToElements { values in
      let old = (values + slot).move()
      (values + slot).initialize(to: value)
      return old
    }
  }

  /// Calls `body` with the values in place, for reading many without copying each out (a copy
  /// of a string or data value retains it).
  func withUnsafeValues<Result>(_ body: (UnsafePointer<AttributeValue?>) throws -> Result) rethrows -> Result {
    try storage.withUnsafeMutablePointerToElements { try body(UnsafePointer($0)) }
  }

  /// Whether the values in `slot` differ; values sharing their storage never do.
  func differs(from other: AttributeValues, at slot: Int) -> Bool {
    if storage === other.storage { return false }
    precondition(slot >= 0 && slot < storage.count && slot < other.storage.count, "attribute slot out of range")
    return withUnsafeValues { values in
      other.withUnsafeValues { others in !AttributeValue.equal(values[slot], others[slot]) }
    }
  }

  /// Whether both are the same storage: an object's values that were never changed since they
  /// were read or saved are its committed values' storage (copy on write). True means equal;
  /// false means nothing — compare the slots.
  func sharesStorage(with other: AttributeValues) -> Bool { storage === other.storage }

  /// Equal when they have the same number of slots and every slot is equal; values that share
  /// their storage (an object's unchanged values and its committed ones) compare at once.
  @usableFromInline static func == (lhs: AttributeValues, rhs: AttributeValues) -> Bool {
    if lhs.storage === rhs.storage { return true }
    let count = lhs.storage.count
    guard count == rhs.storage.count else { return false }
    return lhs.storage.withUnsafeMutablePointerToElements { left in
      rhs.storage.withUnsafeMutablePointerToElements { right in
        for slot in 0..<count where !AttributeValue.equal(left[slot], right[slot]) { return false }
        return true
      }
    }
  }
}

/// The storage of ``AttributeValues``: the number of values as header, the values as elements.
///
/// Values are `Sendable` and the storage is only mutated while uniquely referenced (copy on
/// write), so ``AttributeValues`` is as safe to share between threads as an array.
@usableFromInline
final class AttributeValueStorage: ManagedBuffer<Int, AttributeValue?> {
  /// New storage of `count` nil values.
  static func make(count: Int) -> AttributeValueStorage {
    let storage = unsafeDowncast(create(minimumCapacity: count) { _ in count }, to: AttributeValueStorage.self)
    storage.withUnsafeMutablePointerToElements { values in
      // Each nil stored directly: `initialize(repeating:count:)` copies its value into every
      // slot through the type's value witnesses.
      for slot in 0..<count { (values + slot).initialize(to: nil) }
    }
    return storage
  }

  /// The number of values. (Read through a pointer: reading `header` as a property would pay a
  /// run-time exclusivity check on every access to a value.)
  var count: Int { withUnsafeMutablePointerToHeader { $0.pointee } }

  /// A new storage holding the same values.
  func copy() -> AttributeValueStorage {
    let count = self.count
    let copy = unsafeDowncast(
      AttributeValueStorage.create(minimumCapacity: count) { _ in count }, to: AttributeValueStorage.self)
    withUnsafeMutablePointerToElements { source in
      copy.withUnsafeMutablePointerToElements { $0.initialize(from: source, count: count) }
    }
    return copy
  }

  deinit {
    withUnsafeMutablePointers { count, values in
      // Only strings, data and URLs hold references. Destroying the other values (the numbers,
      // dates and UUIDs of most slots) would only go through the value witnesses to do nothing.
      for slot in 0..<count.pointee {
        switch values[slot] {
        case .string?, .binary?, .uri?: (values + slot).deinitialize(count: 1)
        case nil, .integer?, .decimal?, .double?, .float?, .boolean?, .date?, .uuid?: continue
        }
      }
    }
  }
}

/// The slots of new attribute values, every one nil, for a decoder to fill once each: a row's
/// values are written straight into their storage, without the destroying of the nil that
/// assigning would pay.
struct AttributeValueFiller {
  private let values: UnsafeMutablePointer<AttributeValue?>
  /// How many slots there are.
  let count: Int

  fileprivate init(values: UnsafeMutablePointer<AttributeValue?>, count: Int) {
    self.values = values
    self.count = count
  }

  /// Puts `value` in `slot`, which must still be nil (a nil holds no reference, so it is
  /// written over as it is).
  func fill(_ slot: Int, with value: AttributeValue) {
    precondition(slot >= 0 && slot < count, "attribute slot out of range")
    assert(values[slot] == nil, "attribute slot \(slot) is filled twice")
    (values + slot).initialize(to: value)
  }
}

extension AttributeValue {
  /// `lhs == rhs`, with the common payloads compared directly.
  ///
  /// The synthesized `==` of an optional value of another module's enumeration is reached
  /// through `Optional`'s generic conformance, which copies both values through their value
  /// witnesses: about 450 instructions to compare two short strings, paid by every attribute
  /// set. The result is the same: a different case is unequal, an equal case compares its
  /// payload with the payload's `==` (so a NaN is unequal to itself, as there).
  @inline(__always)
  static func equal(_ lhs: AttributeValue?, _ rhs: AttributeValue?) -> Bool {
    switch (lhs, rhs) {
    case (nil, nil): return true
    case (nil, _?), (_?, nil): return false
    case (.string(let left)?, .string(let right)?): return left == right
    case (.integer(let left)?, .integer(let right)?): return left == right
    case (.double(let left)?, .double(let right)?): return left == right
    case (.boolean(let left)?, .boolean(let right)?): return left == right
    case (.date(let left)?, .date(let right)?): return left == right
    case (.uuid(let left)?, .uuid(let right)?): return left == right
    case (let left?, let right?): return left == right
    }
  }
}
