import DataModel

/// The attribute values of one object or stored row, by slot of the entity's layout: a
/// copy-on-write collection that costs less to make and free than `[AttributeValue?]`.
///
/// A fetch makes one of these per row and frees it with the object, so both ends are on the hot
/// path. An array of a type from another module is allocated through the runtime's generic
/// metadata cache, a locked hash-table lookup per array; this storage is a class of its own,
/// whose metadata is looked up once.
///
/// The values are one row of an ``AttributeValueStorage``, which can hold the rows of several
/// objects: a fetch decodes its rows into storages of up to
/// ``AttributeValueRows/maximumRowsPerStorage`` rows (``AttributeValueRows``), one allocation
/// for many objects rather than one each. A storage shared this way is immutable until only one
/// of its rows' values still references it: writing to values whose storage others share
/// copies the row to a storage of its own first, as copy on write does for a copy.
@usableFromInline
struct AttributeValues: Equatable, @unchecked Sendable, RandomAccessCollection, MutableCollection {
  @usableFromInline var storage: AttributeValueStorage
  /// The row of `storage` these values are. 16 bits, so that the values take ten bytes and the
  /// object's small fields fill the rest of their word (see ``ManagedObject``).
  @usableFromInline var row: UInt16

  /// `count` nil values.
  init(nilCount count: Int) {
    storage = AttributeValueStorage.make(slotsPerRow: count, rows: 1)
    row = 0
  }

  /// `count` values, each nil until `fill` fills it. When `fill` throws, the values it filled
  /// are released and the error is passed on.
  init(count: Int, filling fill: (AttributeValueFiller) throws -> Void) rethrows {
    storage = AttributeValueStorage.make(slotsPerRow: count, rows: 1)
    row = 0
    try Self.fill(storage, row: 0, count: count, with: fill)
  }

  /// `count` values in the next row of `rows`' current storage (a new storage when it is full),
  /// each nil until `fill` fills it; as ``init(count:filling:)`` otherwise.
  init(count: Int, in rows: inout AttributeValueRows, filling fill: (AttributeValueFiller) throws -> Void) rethrows {
    (storage, row) = rows.nextRow(slotsPerRow: count)
    try Self.fill(storage, row: row, count: count, with: fill)
  }

  private static func fill(
    _ storage: AttributeValueStorage, row: UInt16, count: Int, with fill: (AttributeValueFiller) throws -> Void
  ) rethrows {
    let values = storage.row(row)
    do {
      try fill(AttributeValueFiller(values: values, count: count))
    } catch {
      // The row goes back to nil: a shared storage frees its rows' values only when it goes.
      for slot in 0..<count { (values + slot).pointee = nil }
      throw error
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
  @usableFromInline var endIndex: Int { storage.slotsPerRow }

  /// The value in `slot`.
  @usableFromInline subscript(slot: Int) -> AttributeValue? {
    get {
      precondition(slot >= 0 && slot < storage.slotsPerRow, "attribute slot out of range")
      return storage.row(row)[slot]
    }
    set {
      precondition(slot >= 0 && slot < storage.slotsPerRow, "attribute slot out of range")
      makeUnique()
      storage.row(row)[slot] = newValue
    }
  }

  /// Makes the storage this value's own before a write: a storage another value references
  /// (a copy, or the other rows of a fetch's storage) is left as it is, and this row copied.
  private mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) {
      storage = storage.copy(row: row)
      row = 0
    }
  }

  /// `body`'s result for the value in `slot`, read in place: the generated properties' reads,
  /// inlined into them.
  ///
  /// The row's offset is computed here rather than through `row(_:)`, which also checks the
  /// row and reads the header again: this is every generated read (0.3% of `fetch-all`).
  @inlinable
  func withValue<Result>(at slot: Int, _ body: (AttributeValue?) -> Result) -> Result {
    storage.withUnsafeMutablePointers { header, values in
      let slotsPerRow = header.pointee.slotsPerRow
      precondition(slot >= 0 && slot < slotsPerRow, "attribute slot out of range")
      return body(values[Int(row) &* slotsPerRow &+ slot])
    }
  }

  /// Whether the value in `slot` equals `value`, compared in place (reading the slot out would
  /// copy it: a retain and a release for a string).
  func holds(_ value: AttributeValue?, at slot: Int) -> Bool {
    precondition(slot >= 0 && slot < storage.slotsPerRow, "attribute slot out of range")
    return AttributeValue.equal(storage.row(row)[slot], value)
  }

  /// Puts `value` in `slot` and returns the value it replaces, moved out rather than copied and
  /// destroyed: the first change of an object keeps its old value this way.
  mutating func exchange(_ slot: Int, with value: __owned AttributeValue?) -> AttributeValue? {
    precondition(slot >= 0 && slot < storage.slotsPerRow, "attribute slot out of range")
    makeUnique()
    let values = storage.row(row)
    let old = (values + slot).move()
    (values + slot).initialize(to: value)
    return old
  }

  /// Calls `body` with the values in place, for reading many without copying each out (a copy
  /// of a string or data value retains it).
  func withUnsafeValues<Result>(_ body: (UnsafePointer<AttributeValue?>) throws -> Result) rethrows -> Result {
    try withExtendedLifetime(storage) { try body(UnsafePointer(storage.row(row))) }
  }

  /// Whether the values in `slot` differ; values sharing their storage never do.
  func differs(from other: AttributeValues, at slot: Int) -> Bool {
    if sharesStorage(with: other) { return false }
    precondition(
      slot >= 0 && slot < storage.slotsPerRow && slot < other.storage.slotsPerRow, "attribute slot out of range")
    return withUnsafeValues { values in
      other.withUnsafeValues { others in !AttributeValue.equal(values[slot], others[slot]) }
    }
  }

  /// Whether both are the same row of the same storage: an object's values that were never
  /// changed since they were read or saved are its committed values' storage (copy on write).
  /// True means equal; false means nothing — compare the slots.
  func sharesStorage(with other: AttributeValues) -> Bool { storage === other.storage && row == other.row }

  /// Equal when they have the same number of slots and every slot is equal; values that share
  /// their storage (an object's unchanged values and its committed ones) compare at once.
  @usableFromInline static func == (lhs: AttributeValues, rhs: AttributeValues) -> Bool {
    if lhs.sharesStorage(with: rhs) { return true }
    let count = lhs.storage.slotsPerRow
    guard count == rhs.storage.slotsPerRow else { return false }
    return lhs.withUnsafeValues { left in
      rhs.withUnsafeValues { right in
        for slot in 0..<count where !AttributeValue.equal(left[slot], right[slot]) { return false }
        return true
      }
    }
  }
}

/// The storage of ``AttributeValues``: rows of the same number of values, every slot
/// initialized (nil until a row is filled), the shape as header.
///
/// Values are `Sendable` and a row is only written while its storage is uniquely referenced
/// (copy on write) or, once, when ``AttributeValueRows`` hands the row out and fills it before
/// any other value can reach it, so ``AttributeValues`` is as safe to share between threads as
/// an array.
@usableFromInline
final class AttributeValueStorage: ManagedBuffer<AttributeValueStorage.Shape, AttributeValue?> {
  /// How many rows a storage has and how many values each row holds.
  @usableFromInline
  struct Shape {
    @usableFromInline var slotsPerRow: Int
    var rows: Int
  }

  /// New storage of `rows` rows of `slotsPerRow` nil values.
  static func make(slotsPerRow: Int, rows: Int) -> AttributeValueStorage {
    let count = slotsPerRow * rows
    let storage = unsafeDowncast(
      create(minimumCapacity: count) { _ in Shape(slotsPerRow: slotsPerRow, rows: rows) },
      to: AttributeValueStorage.self)
    storage.withUnsafeMutablePointerToElements { values in
      // Each nil stored directly: `initialize(repeating:count:)` copies its value into every
      // slot through the type's value witnesses.
      for slot in 0..<count { (values + slot).initialize(to: nil) }
    }
    return storage
  }

  /// The number of values in a row. (Read through a pointer: reading `header` as a property
  /// would pay a run-time exclusivity check on every access to a value.)
  var slotsPerRow: Int { withUnsafeMutablePointerToHeader { $0.pointee.slotsPerRow } }

  /// The first value of `row`; valid while the storage lives.
  func row(_ row: UInt16) -> UnsafeMutablePointer<AttributeValue?> {
    withUnsafeMutablePointers { shape, values in
      precondition(Int(row) < shape.pointee.rows, "attribute row out of range")
      return values + Int(row) * shape.pointee.slotsPerRow
    }
  }

  /// A new storage of one row, holding the values of `row`.
  func copy(row: UInt16) -> AttributeValueStorage {
    let count = slotsPerRow
    let copy = unsafeDowncast(
      AttributeValueStorage.create(minimumCapacity: count) { _ in Shape(slotsPerRow: count, rows: 1) },
      to: AttributeValueStorage.self)
    let source = self.row(row)
    copy.withUnsafeMutablePointerToElements { values in
      // Value by value: `initialize(from:count:)` copies each through the type's value
      // witnesses, three calls a value; this is the first change of every fetched object.
      for slot in 0..<count { (values + slot).initialize(to: source[slot]) }
    }
    return copy
  }

  deinit {
    withUnsafeMutablePointers { shape, values in
      // Only strings, data and URLs hold references. Destroying the other values (the numbers,
      // dates and UUIDs of most slots) would only go through the value witnesses to do nothing.
      for slot in 0..<shape.pointee.slotsPerRow * shape.pointee.rows {
        switch values[slot] {
        case .string?, .binary?, .uri?: (values + slot).deinitialize(count: 1)
        case nil, .integer?, .decimal?, .double?, .float?, .boolean?, .date?, .uuid?: continue
        }
      }
    }
  }
}

/// Where a query's rows put their values: storages of several rows each, handed out a row at a
/// time (``AttributeValues/init(count:in:filling:)``).
///
/// A fetch made an allocation for every object's values, and its context freed them one by
/// one, as many blocks again as the objects themselves (docs/benchmarks.md). The first storage
/// holds one row, each next one twice as many up to ``maximumRows(slotsPerRow:)``, so a query
/// of a row or two allocates no more than before and a large one a storage per 64 rows (fewer
/// for rows of many values).
///
/// The price: a storage is freed with the last of its rows' values, so an object kept after
/// the others of its fetch are gone keeps up to 63 other rows' values in memory (their strings
/// and data too, at most ``maximumBytesPerStorage`` of values) until it goes, is changed (its
/// values are then copied out) or is refreshed. Storages of 64 rows rather than 16 took 1% off
/// the instructions of `fetch-all` and `fetch-indexed` (fewer storages made and freed), with
/// the same peak memory in `update`, where every row is copied out.
struct AttributeValueRows {
  /// The most rows one storage holds.
  static let maximumRowsPerStorage = 64
  /// The most bytes of values one storage holds, whatever its rows: well under the size from
  /// which the C allocator maps each block on its own (128 KiB by default on Linux), which
  /// would make every storage of an entity with hundreds of attributes a system call.
  static let maximumBytesPerStorage = 32 * 1024

  /// The most rows a storage of rows of `slotsPerRow` values holds: ``maximumRowsPerStorage``,
  /// fewer when that many rows would take more than ``maximumBytesPerStorage``; at least one.
  static func maximumRows(slotsPerRow: Int) -> Int {
    let rowBytes = max(1, slotsPerRow) * MemoryLayout<AttributeValue?>.stride
    return max(1, min(maximumRowsPerStorage, maximumBytesPerStorage / rowBytes))
  }

  private var storage: AttributeValueStorage?
  private var nextRow = 0
  private var rowsInNext = 1

  init() {}

  /// A row for `slotsPerRow` values: the next one of the current storage, or the first of a
  /// new one when it is full or was made for another number of values (a sub-entity's row).
  mutating func nextRow(slotsPerRow: Int) -> (AttributeValueStorage, UInt16) {
    if let storage, nextRow < storage.rowCount, storage.slotsPerRow == slotsPerRow {
      defer { nextRow += 1 }
      return (storage, UInt16(nextRow))
    }
    let rows = min(rowsInNext, Self.maximumRows(slotsPerRow: slotsPerRow))
    rowsInNext = min(rows * 2, Self.maximumRowsPerStorage)
    let storage = AttributeValueStorage.make(slotsPerRow: slotsPerRow, rows: rows)
    self.storage = storage
    nextRow = 1
    return (storage, 0)
  }
}

extension AttributeValueStorage {
  /// The number of rows.
  fileprivate var rowCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.rows } }
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
