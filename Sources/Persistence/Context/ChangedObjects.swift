/// The objects of a context with pending changes, in the order they were first changed.
///
/// A save, a rollback and every fetch that includes pending changes walk this set, and every
/// insertion adds to it, so it is an array rather than a hash table: adding is an append,
/// removing clears the object's slot (each object knows its slot), and walking it visits the
/// objects in a stable order — inserted objects in insertion order, which is the order a save
/// gives them primary keys. Cleared slots are compacted away once they are the majority.
struct ChangedObjects {
  private var slots: [ManagedObject?] = []
  private var clearedCount = 0

  /// How many objects the set holds.
  var count: Int { slots.count - clearedCount }

  /// Whether the set holds no object.
  var isEmpty: Bool { count == 0 }

  /// The objects, in the order they were added.
  var values: LazyMapSequence<LazyFilterSequence<[ManagedObject?]>, ManagedObject> {
    slots.lazy.filter { $0 != nil }.map { $0.unsafelyUnwrapped }
  }

  /// Adds an object; adding one already held does nothing.
  mutating func insert(_ object: ManagedObject) {
    guard object.changeSlot < 0 else { return }
    object.changeSlot = Int32(slots.count)
    slots.append(object)
  }

  /// Removes an object; removing one not held does nothing.
  mutating func remove(_ object: ManagedObject) {
    let slot = Int(object.changeSlot)
    guard slot >= 0, slot < slots.count, slots[slot] === object else { return }
    slots[slot] = nil
    object.changeSlot = -1
    clearedCount += 1
    if clearedCount > 64 && clearedCount * 2 > slots.count { compact() }
  }

  /// Removes every object.
  mutating func removeAll() {
    for case let object? in slots { object.changeSlot = -1 }
    slots.removeAll()
    clearedCount = 0
  }

  /// Removes every object, handing each to `body` first, in the order they were added: a
  /// save's last pass over its objects.
  ///
  /// Each object leaves the set as it is visited, while `body` has brought it into the
  /// processor's cache: ``removeAll()`` after a pass of its own walked every object twice more
  /// (once to clear its slot number, once to release it), each time from memory when a save
  /// writes more objects than the cache holds. `body` must not change the set.
  mutating func drain(_ body: (ManagedObject) -> Void) {
    for position in slots.indices {
      guard let object = slots[position].take() else { continue }
      object.changeSlot = -1
      body(object)
    }
    slots.removeAll()
    clearedCount = 0
  }

  private mutating func compact() {
    var kept: [ManagedObject?] = []
    kept.reserveCapacity(count)
    for case let object? in slots {
      object.changeSlot = Int32(kept.count)
      kept.append(object)
    }
    slots = kept
    clearedCount = 0
  }
}
