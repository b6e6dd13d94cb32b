import DataModel

/// The attribute values of one object or stored row, by slot of the entity's layout: a
/// copy-on-write collection that costs less to make, read and free than `[AttributeValue?]`.
///
/// A fetch makes one of these per row and frees it with the object, so both ends are on the hot
/// path. The values are stored by type (``AttributeRowShape``): a slot takes its attribute
/// type's size rather than the 24 bytes of an `AttributeValue?`, and only strings, data and URLs
/// are released when the values go.
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

  /// Nil in every slot of a row of `shape`.
  init(shape: AttributeRowShape) {
    storage = AttributeValueStorage.make(shape: shape, rows: 1)
    row = 0
  }

  /// `count` nil values, each able to hold any value in place.
  init(nilCount count: Int) {
    self.init(shape: AttributeRowShape(untypedCount: count))
  }

  /// The values of a row of `shape`, each nil until `fill` fills it. When `fill` throws, the
  /// values it filled are released and the error is passed on.
  init(shape: AttributeRowShape, filling fill: (AttributeValueFiller) throws -> Void) rethrows {
    // Filled from a local and moved in after: filling `self.storage` retained it for the fill
    // and released it after, on every row a query reads.
    let storage = AttributeValueStorage.make(shape: shape, rows: 1)
    try Self.fill(storage, row: 0, with: fill)
    self.storage = storage
    row = 0
  }

  /// `count` values able to hold any value in place; as ``init(shape:filling:)`` otherwise.
  init(count: Int, filling fill: (AttributeValueFiller) throws -> Void) rethrows {
    try self.init(shape: AttributeRowShape(untypedCount: count), filling: fill)
  }

  /// The values of the next row of `rows`' current storage (a new storage when it is full),
  /// each nil until `fill` fills it; as ``init(shape:filling:)`` otherwise.
  init(
    shape: AttributeRowShape, in rows: inout AttributeValueRows, filling fill: (AttributeValueFiller) throws -> Void
  ) rethrows {
    // Filled from locals and moved in after, as in ``init(shape:filling:)``.
    let (storage, row) = rows.nextRow(shape: shape)
    try Self.fill(storage, row: row, with: fill)
    self.storage = storage
    self.row = row
  }

  private static func fill(
    _ storage: AttributeValueStorage, row: UInt16, with fill: (AttributeValueFiller) throws -> Void
  ) rethrows {
    let filler = storage.filler(row: row)
    do {
      try fill(filler)
    } catch {
      // The row goes back to nil: a shared storage frees its rows' values only when it goes.
      storage.clear(row: row)
      throw error
    }
  }

  /// These values, slot by slot, in a row of `shape` (by default, one that holds any value in
  /// place).
  init(_ values: [AttributeValue?], shape: AttributeRowShape? = nil) {
    let shape = shape ?? AttributeRowShape(untypedCount: values.count)
    precondition(shape.slotCount == values.count, "a value for every slot")
    self.init(shape: shape) { filler in
      for slot in values.indices {
        if let value = values[slot] { filler.fill(slot, with: value) }
      }
    }
  }

  @usableFromInline var startIndex: Int { 0 }
  @usableFromInline var endIndex: Int { storage.slotsPerRow }

  /// The value in `slot`.
  @usableFromInline subscript(slot: Int) -> AttributeValue? {
    get { withValue(at: slot) { $0 } }
    set {
      makeUnique()
      storage.withSlot(slot, row: row) { tag, payload, capacity in
        AttributeValueCell.destroy(tag: tag, payload: payload)
        AttributeValueCell.initialize(newValue, tag: tag, payload: payload, capacity: capacity)
      }
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

  /// `body`'s result for the value in `slot`, read in place.
  @inlinable
  func withValue<Result>(at slot: Int, _ body: (AttributeValue?) -> Result) -> Result {
    withUnsafePointer(to: self) { Self.withValue(at: slot, of: $0, body) }
  }

  /// `body`'s result for the value in `slot` of the values `values` points to, read in place:
  /// the generated properties' reads, inlined into them.
  ///
  /// The storage is reached through its address, read from `values` as a bare pointer: calling
  /// a method of the storage on values read out of an object retains the storage and releases
  /// it after, two atomic operations on every value read (docs/benchmarks.md). The object
  /// holding `values` keeps the storage alive for the call, and `body` runs once the value is
  /// read (a string retained), so it may change the object. The header's and the elements'
  /// places in the storage are ``AttributeValueStorage/headerOffset`` and
  /// ``AttributeValueStorage/elementsOffset``, which every new storage checks. The row's and
  /// the slot's offsets are computed here rather than through the storage's methods, which
  /// also check the row.
  @inlinable @inline(__always)
  static func withValue<Result>(
    at slot: Int, of values: UnsafePointer<AttributeValues>, _ body: (AttributeValue?) -> Result
  ) -> Result {
    let (tag, payload) = cell(at: slot, of: values)
    return body(AttributeValueCell.read(tag: tag, payload: payload))
  }

  /// The tag and the payload's address of the value in `slot` of the values `values` points
  /// to, the storage reached without a retain (``withValue(at:of:_:)``); the address is valid
  /// while the values are not changed.
  @inlinable @inline(__always)
  static func cell(at slot: Int, of values: UnsafePointer<AttributeValues>) -> (UInt8, UnsafeRawPointer) {
    // `storage` is the values' first field: its reference, loaded as a bare pointer.
    let object = UnsafeRawPointer(values).load(as: UnsafeRawPointer.self)
    let header = object.load(fromByteOffset: AttributeValueStorage.headerOffset, as: AttributeValueStorage.Header.self)
    precondition(slot >= 0 && slot < header.slotsPerRow, "attribute slot out of range")
    let start = object + AttributeValueStorage.elementsOffset
    let offset = Int(start.load(fromByteOffset: slot &* 4, as: UInt32.self))
    let rowStart = start + header.offset(ofRow: Int(values.pointee.row))
    return (rowStart.load(fromByteOffset: slot, as: UInt8.self), rowStart + offset)
  }

  /// Whether the value in `slot` of the values `values` points to equals `value`, compared in
  /// place (reading the slot out would copy it: a retain and a release for a string) and with
  /// the storage reached as ``withValue(at:of:_:)`` reaches it: this is every set of a value.
  static func holds(_ value: AttributeValue?, at slot: Int, of values: UnsafePointer<AttributeValues>) -> Bool {
    let (tag, payload) = cell(at: slot, of: values)
    return AttributeValueCell.holds(value, tag: tag, payload: payload)
  }

  /// Whether the value in `slot` equals `value`, compared in place.
  func holds(_ value: AttributeValue?, at slot: Int) -> Bool {
    withUnsafePointer(to: self) { Self.holds(value, at: slot, of: $0) }
  }

  /// Puts `value` in `slot` and returns the value it replaces, moved out rather than copied and
  /// destroyed: the first change of an object keeps its old value this way.
  mutating func exchange(_ slot: Int, with value: __owned AttributeValue?) -> AttributeValue? {
    makeUnique()
    return storage.withSlot(slot, row: row) { tag, payload, capacity in
      let old = AttributeValueCell.move(tag: tag, payload: payload)
      AttributeValueCell.initialize(value, tag: tag, payload: payload, capacity: capacity)
      return old
    }
  }

  /// Whether the values in `slot` differ; values sharing their storage never do.
  func differs(from other: AttributeValues, at slot: Int) -> Bool {
    if sharesStorage(with: other) { return false }
    return storage.withSlot(slot, row: row) { tag, payload, _ in
      other.storage.withSlot(slot, row: other.row) { otherTag, otherPayload, _ in
        !AttributeValueCell.equal(
          tag: tag.pointee, payload: payload, otherTag: otherTag.pointee, otherPayload: otherPayload)
      }
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
    for slot in 0..<count where lhs.differs(from: rhs, at: slot) { return false }
    return true
  }
}

/// The storage of ``AttributeValues``: rows of one ``AttributeRowShape``, every slot
/// initialized (nil until a row is filled).
///
/// The elements are 8-byte words: first the shape's payload offsets (one `UInt32` per slot and
/// the row's size, so that reading a slot needs nothing but the storage), then the rows, each
/// its slots' tags and then their payloads (``AttributeValueCell``).
///
/// Values are `Sendable` and a row is only written while its storage is uniquely referenced
/// (copy on write) or, once, when ``AttributeValueRows`` hands the row out and fills it before
/// any other value can reach it, so ``AttributeValues`` is as safe to share between threads as
/// an array.
@usableFromInline
final class AttributeValueStorage: ManagedBuffer<AttributeValueStorage.Header, UInt64> {
  /// The storage's shape: how many rows, and where they and their slots are.
  @usableFromInline
  struct Header {
    @usableFromInline var slotsPerRow: Int
    var rows: Int
    /// The offset in bytes of the first row from the start of the elements (after the
    /// payload offsets).
    @usableFromInline var firstRowOffset: Int
    /// The size in bytes of a row.
    @usableFromInline var rowStride: Int

    /// The offset in bytes of `row` from the start of the elements.
    @inlinable @inline(__always)
    func offset(ofRow row: Int) -> Int { firstRowOffset &+ row &* rowStride }
  }

  /// Where the header is, in bytes from the storage's address: after the object's header (its
  /// metadata and reference counts, two words), aligned for `Header`, as `ManagedBuffer` lays
  /// it out. ``AttributeValues/withValue(at:of:_:)`` reads values through it, retaining
  /// nothing; every new storage checks it (``make(slotsPerRow:rows:firstRowOffset:rowStride:)``).
  @inlinable static var headerOffset: Int {
    AttributeRowShape.roundedUp(2 &* MemoryLayout<Int>.size, toAlignment: MemoryLayout<Header>.alignment)
  }

  /// Where the elements start, in bytes from the storage's address: after the header, aligned
  /// for `UInt64`, as `ManagedBuffer` lays them out.
  @inlinable static var elementsOffset: Int {
    AttributeRowShape.roundedUp(headerOffset &+ MemoryLayout<Header>.size, toAlignment: MemoryLayout<UInt64>.alignment)
  }

  /// New storage of `rows` rows of `shape`, nil in every slot.
  static func make(shape: AttributeRowShape, rows: Int) -> AttributeValueStorage {
    let firstRowOffset = AttributeRowShape.roundedUp(4 * (shape.slotCount + 1))
    let storage = make(
      slotsPerRow: shape.slotCount, rows: rows, firstRowOffset: firstRowOffset, rowStride: shape.rowStride)
    storage.withUnsafeMutablePointerToElements { words in
      shape.offsets.withUnsafeBufferPointer { offsets in
        UnsafeMutableRawPointer(words).copyMemory(from: offsets.baseAddress!, byteCount: 4 * offsets.count)
      }
    }
    return storage
  }

  /// New storage of `rows` rows whose slots' tags are nil, its payload offsets still to copy.
  private static func make(slotsPerRow: Int, rows: Int, firstRowOffset: Int, rowStride: Int) -> AttributeValueStorage {
    let storage = unsafeDowncast(
      create(minimumCapacity: (firstRowOffset + rows * rowStride) / 8) { _ in
        Header(slotsPerRow: slotsPerRow, rows: rows, firstRowOffset: firstRowOffset, rowStride: rowStride)
      },
      to: AttributeValueStorage.self)
    let address = UnsafeRawPointer(Unmanaged.passUnretained(storage).toOpaque())
    storage.withUnsafeMutablePointers { header, words in
      // The places reads find them at without retaining the storage: a run time laying out
      // `ManagedBuffer` otherwise would stop here, not read wrong values.
      precondition(
        UnsafeRawPointer(header) == address + headerOffset && UnsafeRawPointer(words) == address + elementsOffset,
        "AttributeValueStorage: the header or the elements are not where reads look for them")
    }
    storage.withUnsafeMutablePointerToElements { words in
      let start = UnsafeMutableRawPointer(words) + firstRowOffset
      for row in 0..<rows {
        (start + row * rowStride).initializeMemory(as: UInt8.self, repeating: 0, count: slotsPerRow)
      }
    }
    return storage
  }

  /// The number of values in a row. (Read through a pointer: reading `header` as a property
  /// would pay a run-time exclusivity check on every access to a value.)
  var slotsPerRow: Int { withUnsafeMutablePointerToHeader { $0.pointee.slotsPerRow } }

  /// The number of rows.
  var rowCount: Int { withUnsafeMutablePointerToHeader { $0.pointee.rows } }

  /// `body`'s result for the tag, payload and payload capacity of `slot` in `row`; the
  /// pointers are valid during the call.
  @inline(__always)
  func withSlot<Result>(
    _ slot: Int, row: UInt16,
    _ body: (UnsafeMutablePointer<UInt8>, UnsafeMutableRawPointer, Int) throws -> Result
  ) rethrows -> Result {
    try withUnsafeMutablePointers { header, words in
      precondition(slot >= 0 && slot < header.pointee.slotsPerRow, "attribute slot out of range")
      precondition(Int(row) < header.pointee.rows, "attribute row out of range")
      let start = UnsafeMutableRawPointer(words)
      let offset = Int(start.load(fromByteOffset: slot &* 4, as: UInt32.self))
      let end = Int(start.load(fromByteOffset: (slot &+ 1) &* 4, as: UInt32.self))
      let rowStart = start + header.pointee.offset(ofRow: Int(row))
      return try body((rowStart + slot).assumingMemoryBound(to: UInt8.self), rowStart + offset, end &- offset)
    }
  }

  /// What fills `row` once, slot by slot; valid while the storage lives.
  func filler(row: UInt16) -> AttributeValueFiller {
    withUnsafeMutablePointers { header, words in
      precondition(Int(row) < header.pointee.rows, "attribute row out of range")
      let start = UnsafeMutableRawPointer(words)
      return AttributeValueFiller(
        offsets: UnsafePointer(start.assumingMemoryBound(to: UInt32.self)),
        row: start + header.pointee.offset(ofRow: Int(row)),
        count: header.pointee.slotsPerRow)
    }
  }

  /// Releases the values of `row`, which is then nil in every slot.
  func clear(row: UInt16) {
    for slot in 0..<slotsPerRow {
      withSlot(slot, row: row) { tag, payload, _ in AttributeValueCell.destroy(tag: tag, payload: payload) }
    }
  }

  /// A new storage of one row, holding the values of `row`.
  func copy(row: UInt16) -> AttributeValueStorage {
    withUnsafeMutablePointers { header, words in
      precondition(Int(row) < header.pointee.rows, "attribute row out of range")
      let slotsPerRow = header.pointee.slotsPerRow
      let firstRowOffset = header.pointee.firstRowOffset
      let rowStride = header.pointee.rowStride
      let copy = AttributeValueStorage.make(
        slotsPerRow: slotsPerRow, rows: 1, firstRowOffset: firstRowOffset, rowStride: rowStride)
      let source = UnsafeMutableRawPointer(words)
      let sourceRow = source + header.pointee.offset(ofRow: Int(row))
      copy.withUnsafeMutablePointerToElements { copyWords in
        let target = UnsafeMutableRawPointer(copyWords)
        target.copyMemory(from: source, byteCount: 4 * (slotsPerRow + 1))
        let targetRow = target + firstRowOffset
        let offsets = source.assumingMemoryBound(to: UInt32.self)
        // Slot by slot: only strings, data, URLs and boxes are retained; this is the first
        // change of every fetched object.
        for slot in 0..<slotsPerRow {
          let offset = Int(offsets[slot])
          AttributeValueCell.copy(
            tag: sourceRow.load(fromByteOffset: slot, as: UInt8.self), payload: sourceRow + offset,
            toTag: (targetRow + slot).assumingMemoryBound(to: UInt8.self), payload: targetRow + offset)
        }
      }
      return copy
    }
  }

  deinit {
    withUnsafeMutablePointers { header, words in
      let start = UnsafeMutableRawPointer(words)
      let offsets = start.assumingMemoryBound(to: UInt32.self)
      let slotsPerRow = header.pointee.slotsPerRow
      for row in 0..<header.pointee.rows {
        let rowStart = start + header.pointee.offset(ofRow: row)
        for slot in 0..<slotsPerRow {
          // Only strings, data, URLs and boxes hold references: the tags of the other values
          // (the numbers, dates and UUIDs of most slots) are all that is read of them.
          let tag = rowStart.load(fromByteOffset: slot, as: UInt8.self)
          if tag >= AttributeValueCell.Tag.string.rawValue {
            AttributeValueCell.destroy(
              tag: (rowStart + slot).assumingMemoryBound(to: UInt8.self), payload: rowStart + Int(offsets[slot]))
          }
        }
      }
    }
  }
}

/// Where a query's rows put their values: storages of several rows each, handed out a row at a
/// time (``AttributeValues/init(shape:in:filling:)``).
///
/// A fetch made an allocation for every object's values, and its context freed them one by
/// one, as many blocks again as the objects themselves (docs/benchmarks.md). The first storage
/// holds one row, each next one twice as many up to ``maximumRows(rowStride:)``, so a query
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

  /// The most rows a storage of rows of `rowStride` bytes holds: ``maximumRowsPerStorage``,
  /// fewer when that many rows would take more than ``maximumBytesPerStorage``; at least one.
  static func maximumRows(rowStride: Int) -> Int {
    max(1, min(maximumRowsPerStorage, maximumBytesPerStorage / max(1, rowStride)))
  }

  private var storage: AttributeValueStorage?
  /// The shape of `storage`'s rows.
  private var shape: AttributeRowShape?
  private var nextRow = 0
  private var rowsInNext = 1

  init() {}

  /// A row of `shape`: the next one of the current storage, or the first of a new one when it
  /// is full or was made for another shape (a sub-entity's row).
  mutating func nextRow(shape: AttributeRowShape) -> (AttributeValueStorage, UInt16) {
    if let storage, nextRow < storage.rowCount, self.shape === shape {
      defer { nextRow += 1 }
      return (storage, UInt16(nextRow))
    }
    let rows = min(rowsInNext, Self.maximumRows(rowStride: shape.rowStride))
    rowsInNext = min(rows * 2, Self.maximumRowsPerStorage)
    let storage = AttributeValueStorage.make(shape: shape, rows: rows)
    self.storage = storage
    self.shape = shape
    nextRow = 1
    return (storage, 0)
  }
}

/// The slots of new attribute values, every one nil, for a decoder to fill once each: a row's
/// values are written straight into their storage, without the destroying of the nil that
/// assigning would pay.
struct AttributeValueFiller {
  private let offsets: UnsafePointer<UInt32>
  private let row: UnsafeMutableRawPointer
  /// How many slots there are.
  let count: Int

  fileprivate init(offsets: UnsafePointer<UInt32>, row: UnsafeMutableRawPointer, count: Int) {
    self.offsets = offsets
    self.row = row
    self.count = count
  }

  /// Puts a payload of a type stored in place (``AttributeValueCell``: an `Int64`, a `String`…)
  /// in `slot`, which must still be nil, at `payloadOffset`, the slot's offset in the row's
  /// shape: for decoders that work the offset out, and check that the slot holds the payload,
  /// once for every row they fill (``RowDecoder``), where ``fill(_:with:)`` looks the offset up
  /// and checks the slot for each value. `tag` must be the payload's case.
  @inline(__always)
  func put<Payload>(_ value: __owned Payload, _ tag: AttributeValueCell.Tag, slot: Int, payloadOffset: Int) {
    assertFillable(slot, payloadOffset: payloadOffset, size: MemoryLayout<Payload>.size)
    (row + payloadOffset).initializeMemory(as: Payload.self, to: value)
    row.storeBytes(of: tag.rawValue, toByteOffset: slot, as: UInt8.self)
  }

  /// Puts a trivial payload given as its bytes (a UUID's 16, when
  /// ``AttributeValueCell/uuidPayloadIsItsBytes``) in `slot`, as ``put(_:_:slot:payloadOffset:)``
  /// puts a value.
  @inline(__always)
  func putBytes(_ bytes: UnsafeRawBufferPointer, _ tag: AttributeValueCell.Tag, slot: Int, payloadOffset: Int) {
    assertFillable(slot, payloadOffset: payloadOffset, size: bytes.count)
    (row + payloadOffset).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
    row.storeBytes(of: tag.rawValue, toByteOffset: slot, as: UInt8.self)
  }

  /// Checks, in debug builds, what ``put(_:_:slot:payloadOffset:)`` and
  /// ``putBytes(_:_:slot:payloadOffset:)`` take on trust: `slot` is one of the row's, still nil,
  /// its payload is at `payloadOffset` and holds `size` bytes.
  @inline(__always)
  private func assertFillable(_ slot: Int, payloadOffset: Int, size: Int) {
    assert(slot >= 0 && slot < count, "attribute slot out of range")
    assert(Int(offsets[slot]) == payloadOffset, "payload offset \(payloadOffset) is not slot \(slot)'s")
    assert(Int(offsets[slot + 1]) - payloadOffset >= size, "slot \(slot) is too small")
    assert(
      row.load(fromByteOffset: slot, as: UInt8.self) == AttributeValueCell.Tag.none.rawValue,
      "attribute slot \(slot) is filled twice")
  }

  /// Puts `value` in `slot`, which must still be nil (a nil holds no reference, so it is
  /// written over as it is).
  @inline(__always)
  func fill(_ slot: Int, with value: __owned AttributeValue) {
    precondition(slot >= 0 && slot < count, "attribute slot out of range")
    let tag = (row + slot).assumingMemoryBound(to: UInt8.self)
    assert(tag.pointee == AttributeValueCell.Tag.none.rawValue, "attribute slot \(slot) is filled twice")
    let offset = Int(offsets[slot])
    AttributeValueCell.initialize(
      value, tag: tag, payload: row + offset, capacity: Int(offsets[slot + 1]) - offset)
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
