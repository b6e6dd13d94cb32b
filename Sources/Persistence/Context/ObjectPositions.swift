/// Where each saved object sits in its registry's array, by permanent ID.
///
/// Primary keys are allocated one after another per table (`Z_PRIMARYKEY.Z_MAX`), so the keys a
/// context meets for one entity are mostly a dense run of integers. Each entity gets an array
/// indexed by key over the run it has met, found without hashing and read in key order when a
/// fetch goes through a table; keys far outside that run (where an array would be mostly empty)
/// go to a hash table instead.
struct ObjectPositions {
  /// One entity's dense run: `slots[key - base]` is the position plus one, 0 when absent.
  private struct Run {
    var base: Int64 = 0
    var slots: [UInt32] = []
    var entries = 0

    /// The index in `slots` of a key the run covers.
    func offset(of key: Int64) -> Int? {
      let offset = key &- base
      return offset >= 0 && offset < Int64(slots.count) ? Int(offset) : nil
    }

    func position(of key: Int64) -> Int? {
      guard let offset = offset(of: key) else { return nil }
      let slot = slots[offset]
      return slot == 0 ? nil : Int(slot) - 1
    }
  }

  private var runs: [Run] = []
  private var scattered: [ObjectID: Int] = [:]
  /// How many IDs have a position.
  private(set) var count = 0

  /// The position of a permanent ID.
  subscript(id: ObjectID) -> Int? {
    let entity = id.entity.index
    if entity < runs.count, let position = runs[entity].position(of: id.key) { return position }
    return scattered.isEmpty ? nil : scattered[id]
  }

  /// Sets the position of a permanent ID, adding the ID when it has none.
  mutating func set(_ position: Int, for id: ObjectID) {
    let entity = id.entity.index
    if entity >= runs.count { runs.append(contentsOf: repeatElement(Run(), count: entity - runs.count + 1)) }
    if position < Int(UInt32.max), let offset = runOffset(growingFor: id.key, of: entity) {
      if runs[entity].slots[offset] == 0 {
        if scattered.isEmpty || scattered.removeValue(forKey: id) == nil { count += 1 }
        runs[entity].entries += 1
      }
      runs[entity].slots[offset] = UInt32(position + 1)
    } else if scattered.updateValue(position, forKey: id) == nil {
      if let offset = runOffset(of: id), runs[entity].slots[offset] != 0 {
        runs[entity].slots[offset] = 0
        runs[entity].entries -= 1
      } else {
        count += 1
      }
    }
  }

  /// Removes an ID, returning its position.
  @discardableResult
  mutating func remove(_ id: ObjectID) -> Int? {
    if let offset = runOffset(of: id), runs[id.entity.index].slots[offset] != 0 {
      let position = Int(runs[id.entity.index].slots[offset]) - 1
      runs[id.entity.index].slots[offset] = 0
      runs[id.entity.index].entries -= 1
      count -= 1
      return position
    }
    guard let position = scattered.removeValue(forKey: id) else { return nil }
    count -= 1
    return position
  }

  private func runOffset(of id: ObjectID) -> Int? {
    id.entity.index < runs.count ? runs[id.entity.index].offset(of: id.key) : nil
  }

  /// The offset of `key` in the entity's run, growing the run to take it when the run would
  /// stay at least a quarter full (with room for a few thousand keys to start from); nil when
  /// the key is too far from the run.
  private mutating func runOffset(growingFor key: Int64, of entity: Int) -> Int? {
    if let offset = runs[entity].offset(of: key) { return offset }
    guard key > 0 else { return nil }
    let base = runs[entity].base
    let count = Int64(runs[entity].slots.count)
    var run = runs[entity]
    let low = count == 0 ? key : min(base, key)
    let high = count == 0 ? key : max(base + count - 1, key)
    let limit = Int64(4 * (run.entries + 1) + 4096)
    guard high - low < limit else { return nil }
    // Grow by at least half again in the direction of the new key, so that a run met key by
    // key is copied a logarithmic number of times.
    let grown = min(max(high - low + 1, count * 3 / 2, 64), limit)
    let newBase = count > 0 && key < base ? max(1, high - grown + 1) : low
    let newCount = Int(max(high - newBase + 1, grown))
    var slots = [UInt32](repeating: 0, count: newCount)
    if !run.slots.isEmpty {
      let shift = Int(run.base - newBase)
      slots.withUnsafeMutableBufferPointer { target in
        run.slots.withUnsafeBufferPointer { source in
          _ = UnsafeMutableBufferPointer(rebasing: target[shift..<shift + source.count]).initialize(from: source)
        }
      }
    }
    run.base = newBase
    run.slots = slots
    runs[entity] = run
    return Int(key - newBase)
  }
}
