/// Where each saved object sits in its registry's array, by permanent ID.
///
/// Primary keys are allocated one after another per table (`Z_PRIMARYKEY.Z_MAX`), so the keys a
/// context meets for one entity are mostly a dense run of integers. Each entity gets an array
/// indexed by key over the run it has met, found without hashing and read in key order when a
/// fetch goes through a table; keys far outside that run (where an array would be mostly empty)
/// go to a hash table instead. A key inside a run's range is only ever in the run: when a run
/// grows over keys of the hash table, they move into it.
struct ObjectPositions {
  /// One entity's dense run: `slots[key - base]` is the position plus one, 0 when absent.
  private struct Run {
    var base: Int64 = 0
    var slots: [UInt32] = []
    var entries = 0
    /// How many of the entity's IDs are in the hash table.
    var scattered = 0

    /// The index in `slots` of a key the run covers.
    func offset(of key: Int64) -> Int? {
      let offset = key &- base
      return offset >= 0 && offset < Int64(slots.count) ? Int(offset) : nil
    }

    /// Stores the position of a key the run covers: true when the key had none, false when
    /// its position changed; nil, changing nothing, when the run does not cover the key.
    mutating func store(_ position: Int, for key: Int64) -> Bool? {
      guard let offset = offset(of: key) else { return nil }
      let isNew = slots.withUnsafeMutableBufferPointer { slots in
        let isNew = slots[offset] == 0
        slots[offset] = UInt32(truncatingIfNeeded: position + 1)
        return isNew
      }
      if isNew { entries += 1 }
      return isNew
    }
  }

  private var runs: [Run] = []
  private var scattered = ScatteredPositions()
  /// How many IDs have a position.
  private(set) var count = 0

  /// Whether any ID of the entity (by index) has a position.
  func holdsIDs(ofEntity entity: Int) -> Bool {
    entity < runs.count && runs[entity].entries + runs[entity].scattered > 0
  }

  /// The position of a permanent ID.
  subscript(id: ObjectID) -> Int? {
    let entity = id.entity.index
    guard entity < runs.count else { return nil }
    if let offset = runs[entity].offset(of: id.key) {
      let slot = runs[entity].slots[offset]
      return slot == 0 ? nil : Int(slot) - 1
    }
    return runs[entity].scattered == 0 ? nil : scattered.position(entity: entity, key: id.key)
  }

  /// Sets the position of a permanent ID, adding the ID when it has none.
  mutating func set(_ position: Int, for id: ObjectID) {
    precondition(position >= 0 && position < ScatteredPositions.maximumPosition - 1, "too many objects")
    let entity = id.entity.index
    if entity >= runs.count { runs.append(contentsOf: repeatElement(Run(), count: entity - runs.count + 1)) }
    // Most keys a fetch registers fall in their entity's run: one access to it.
    if let isNew = runs[entity].store(position, for: id.key) ?? growRun(of: entity, over: id.key, storing: position) {
      if isNew { count += 1 }
    } else if scattered.set(position, entity: entity, key: id.key) {
      count += 1
      runs[entity].scattered += 1
    }
  }

  /// Removes an ID, returning its position.
  @discardableResult
  mutating func remove(_ id: ObjectID) -> Int? {
    let entity = id.entity.index
    guard entity < runs.count else { return nil }
    if let offset = runs[entity].offset(of: id.key) {
      let slot = runs[entity].slots[offset]
      guard slot != 0 else { return nil }
      runs[entity].slots[offset] = 0
      runs[entity].entries -= 1
      count -= 1
      return Int(slot) - 1
    }
    guard runs[entity].scattered > 0, let position = scattered.remove(entity: entity, key: id.key) else { return nil }
    runs[entity].scattered -= 1
    count -= 1
    return position
  }

  /// Grows the entity's run over `key`, which it does not cover, and stores `position` for it
  /// (true: the key is new to the run), when the run would stay at least a quarter full of the
  /// entity's IDs (with room for a few thousand keys to start from); the hash table's keys that
  /// the run comes to cover move into it. Nil when the key is too far from the run.
  private mutating func growRun(of entity: Int, over key: Int64, storing position: Int) -> Bool? {
    guard key > 0 else { return nil }
    let base = runs[entity].base
    let count = Int64(runs[entity].slots.count)
    var run = runs[entity]
    let low = count == 0 ? key : min(base, key)
    let high = count == 0 ? key : max(base + count - 1, key)
    let limit = Int64(4 * (run.entries + run.scattered + 1) + 4096)
    // Grow by at least half again in the direction of the new key, so that a run met key by
    // key is copied (and the hash table scanned) a logarithmic number of times; a run that may
    // not grow that much yet takes no more keys for now.
    let grown = max(high - low + 1, count * 3 / 2, 64)
    guard grown <= limit else { return nil }
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
    if run.scattered > 0 {
      for (movedKey, position) in scattered.removeAll(
        entity: entity, keys: newBase...(newBase + Int64(newCount) - 1))
      {
        slots[Int(movedKey - newBase)] = UInt32(position + 1)
        run.scattered -= 1
        run.entries += 1
      }
    }
    run.base = newBase
    run.slots = slots
    runs[entity] = run
    return runs[entity].store(position, for: key)
  }
}
