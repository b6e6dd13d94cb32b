/// A growable buffer that text is folded into, row after row, by the SQL functions of compiled
/// queries.
///
/// `[UInt8]` checks its uniqueness and capacity on every append, and a folding appends once per
/// run of ASCII or non-ASCII characters: for a short title with one accented letter, those
/// checks cost more than the folding itself. This buffer is owned by one statement's cache
/// (never shared, never copied), makes room once per text for the text's own length, and
/// appends a cached folding of a character as one eight-byte store.
struct FoldedBytes: ~Copyable {
  private var base: UnsafeMutablePointer<UInt8>
  private var capacity: Int
  /// The number of bytes folded so far.
  private(set) var count = 0

  init(capacity: Int = 64) {
    self.capacity = max(16, capacity)
    self.base = .allocate(capacity: self.capacity)
  }

  deinit {
    base.deallocate()
  }

  /// The bytes folded so far, valid until the next change.
  var bytes: UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: base, count: count)
  }

  /// Forgets the bytes, keeping the memory.
  mutating func removeAll() {
    count = 0
  }

  /// Makes room for `extra` more bytes.
  @inline(__always)
  mutating func reserve(_ extra: Int) {
    if count &+ extra > capacity { grow(to: count + extra) }
  }

  private mutating func grow(to needed: Int) {
    var newCapacity = capacity * 2
    while newCapacity < needed { newCapacity *= 2 }
    let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    newBase.update(from: base, count: count)
    base.deallocate()
    base = newBase
    capacity = newCapacity
  }

  /// Appends bytes.
  mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count &+= bytes.count
  }

  /// Appends ASCII bytes lower-cased (``PredicateStringFolding/asciiLowercase(_:)``), eight at
  /// a time.
  mutating func appendLowercased(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let start = bytes.baseAddress else { return }
    reserve(bytes.count)
    let source = UnsafeRawPointer(start)
    let destination = UnsafeMutableRawPointer(base + count)
    var index = 0
    while index &+ 8 <= bytes.count {
      let word = source.loadUnaligned(fromByteOffset: index, as: UInt64.self)
      destination.storeBytes(of: Self.asciiLowercased(word), toByteOffset: index, as: UInt64.self)
      index &+= 8
    }
    while index < bytes.count {
      destination.storeBytes(
        of: PredicateStringFolding.asciiLowercase(start[index]), toByteOffset: index, as: UInt8.self)
      index &+= 1
    }
    count &+= bytes.count
  }

  /// Eight ASCII bytes lower-cased at once: a byte `b` below 0x80 is a capital when `b + 0x3F`
  /// reaches 0x80 (`b` ≥ `A`) and `b + 0x25` does not (`b` ≤ `Z`); no sum carries into the
  /// next byte, so the order of the bytes in the word does not matter.
  @inline(__always)
  static func asciiLowercased(_ word: UInt64) -> UInt64 {
    let atLeastA = word &+ 0x3F3F_3F3F_3F3F_3F3F
    let pastZ = word &+ 0x2525_2525_2525_2525
    return word | ((atLeastA & ~pastZ & 0x8080_8080_8080_8080) >> 2)
  }

  /// Appends the first `length` (at most 8) bytes of `packed`, byte `i` in bits `8i` to `8i + 7`:
  /// one store of eight bytes (the bytes past `length` are overwritten by the next append).
  @inline(__always)
  mutating func append(packed: UInt64, length: Int) {
    reserve(8)
    UnsafeMutableRawPointer(base + count).storeBytes(of: packed.littleEndian, as: UInt64.self)
    count &+= length
  }
}
