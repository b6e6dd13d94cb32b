/// Positions of the IDs that ``ObjectPositions`` keeps outside its dense runs: an
/// open-addressing hash table keyed by entity and primary key.
///
/// A fetch through an index meets keys in the index's order, scattered across the table, and
/// looks each one up before registering it. `Dictionary` would hash every ID with the seeded
/// SipHash that protects against chosen collisions; primary keys are not chosen by an
/// adversary, and a multiplicative hash with linear probing costs a fraction of that.
struct ScatteredPositions {
  /// One slot of the table; `entity == -1` when empty.
  private struct Entry {
    var key: Int64
    var entity: Int32
    var position: UInt32

    static let empty = Entry(key: 0, entity: -1, position: 0)
  }

  private var entries: [Entry] = []
  /// `64 - log2(entries.count)`: the hash's top bits index the table.
  private var shift = 64
  /// How many IDs have a position.
  private(set) var count = 0

  /// Positions are kept as `UInt32`; larger ones cannot be stored.
  static let maximumPosition = Int(UInt32.max)

  /// The position of `key` of entity `entity`.
  func position(entity: Int, key: Int64) -> Int? {
    guard count > 0 else { return nil }
    var index = slot(entity: entity, key: key)
    let mask = entries.count - 1
    let entity = Int32(truncatingIfNeeded: entity)
    while true {
      let entry = entries[index]
      if entry.entity == -1 { return nil }
      if entry.key == key && entry.entity == entity { return Int(entry.position) }
      index = (index + 1) & mask
    }
  }

  /// Sets the position of `key` of entity `entity` (below ``maximumPosition``); true when the
  /// ID had none before.
  @discardableResult
  mutating func set(_ position: Int, entity: Int, key: Int64) -> Bool {
    precondition(position >= 0 && position < Self.maximumPosition, "position out of range")
    if (count + 1) * 2 > entries.count { grow() }
    var index = slot(entity: entity, key: key)
    let mask = entries.count - 1
    let entity = Int32(truncatingIfNeeded: entity)
    while true {
      let entry = entries[index]
      if entry.entity == -1 {
        entries[index] = Entry(key: key, entity: entity, position: UInt32(position))
        count += 1
        return true
      }
      if entry.key == key && entry.entity == entity {
        entries[index].position = UInt32(position)
        return false
      }
      index = (index + 1) & mask
    }
  }

  /// Removes `key` of entity `entity`, returning its position.
  @discardableResult
  mutating func remove(entity: Int, key: Int64) -> Int? {
    guard count > 0 else { return nil }
    let mask = entries.count - 1
    var index = slot(entity: entity, key: key)
    let narrowEntity = Int32(truncatingIfNeeded: entity)
    while true {
      let entry = entries[index]
      if entry.entity == -1 { return nil }
      if entry.key == key && entry.entity == narrowEntity { break }
      index = (index + 1) & mask
    }
    let position = Int(entries[index].position)
    // Backward-shift deletion: move later entries of the probe sequence into the hole, so that
    // no lookup stops early at it and no tombstones accumulate.
    var hole = index
    var next = (hole + 1) & mask
    while entries[next].entity != -1 {
      let home = slot(entity: Int(entries[next].entity), key: entries[next].key)
      // The entry may move into the hole when its home is not cyclically within (hole, next].
      if (next - home) & mask >= (next - hole) & mask {
        entries[hole] = entries[next]
        hole = next
      }
      next = (next + 1) & mask
    }
    entries[hole] = .empty
    count -= 1
    return position
  }

  /// Every entry of entity `entity` with a key in `range`, removed and returned.
  mutating func removeAll(entity: Int, keys range: ClosedRange<Int64>) -> [(key: Int64, position: Int)] {
    guard count > 0 else { return [] }
    let narrowEntity = Int32(truncatingIfNeeded: entity)
    let found = entries.compactMap { entry in
      entry.entity == narrowEntity && range.contains(entry.key) ? (key: entry.key, position: Int(entry.position)) : nil
    }
    for entry in found { remove(entity: entity, key: entry.key) }
    return found
  }

  private func slot(entity: Int, key: Int64) -> Int {
    let mixed = (UInt64(bitPattern: key) ^ UInt64(truncatingIfNeeded: entity) << 48) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: mixed >> UInt64(shift))
  }

  private mutating func grow() {
    let old = entries
    let capacity = max(16, old.count * 2)
    entries = [Entry](repeating: .empty, count: capacity)
    shift = 64 - capacity.trailingZeroBitCount
    count = 0
    for entry in old where entry.entity != -1 {
      set(Int(entry.position), entity: Int(entry.entity), key: entry.key)
    }
  }
}
