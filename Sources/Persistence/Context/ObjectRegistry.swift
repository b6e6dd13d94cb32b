/// The objects of a context by ID: one object per row, and every inserted object until it is
/// saved.
///
/// Saved objects are held in an array in the order they were registered, found through a hash
/// table from permanent ID to position: the table holds no references, so building and
/// dropping it is cheap, and the objects are released in the order they were made — a large
/// fetch result is freed front to back rather than in hash order across the heap. Inserted
/// objects are found by their temporary number instead, in a second array: temporary numbers
/// count up in each context, so a large insert registers its objects without hashing and, once
/// saved, moves each one to its permanent ID with a single hash-table insertion.
struct ObjectRegistry {
  /// Saved objects in registration order; nil where one was forgotten.
  private var saved: [ManagedObject?] = []
  /// The position in `saved` of each saved object's ID.
  private var positions: [ObjectID: Int] = [:]
  /// Inserted objects, at `number - base`.
  private var unsaved: [ManagedObject?] = []
  private var base: Int64 = 1
  private var unsavedCount = 0

  /// How many objects are registered.
  var count: Int { positions.count + unsavedCount }

  /// Every registered object: saved ones, then inserted ones, each in registration order.
  var values: [ManagedObject] {
    var all: [ManagedObject] = []
    all.reserveCapacity(count)
    for case let object? in saved { all.append(object) }
    for case let object? in unsaved { all.append(object) }
    return all
  }

  /// The object with an ID; setting nil forgets it.
  subscript(id: ObjectID) -> ManagedObject? {
    get {
      guard id.isTemporary else { return positions[id].flatMap { saved[$0] } }
      let position = -id.key - base
      guard position >= 0, position < Int64(unsaved.count), let object = unsaved[Int(position)],
        object.objectID == id
      else { return nil }
      return object
    }
    set {
      guard id.isTemporary else {
        setSaved(newValue, id: id)
        return
      }
      setUnsaved(newValue, number: -id.key)
    }
  }

  private mutating func setSaved(_ object: ManagedObject?, id: ObjectID) {
    if let object {
      if let position = positions[id] {
        saved[position] = object
      } else {
        positions[id] = saved.count
        saved.append(object)
      }
    } else if let position = positions.removeValue(forKey: id) {
      saved[position] = nil
      compactIfSparse()
    }
  }

  /// Drops the forgotten slots once they are most of the array.
  private mutating func compactIfSparse() {
    guard saved.count > 64, positions.count * 2 < saved.count else { return }
    var kept: [ManagedObject?] = []
    kept.reserveCapacity(positions.count)
    for case let object? in saved {
      positions[object.objectID] = kept.count
      kept.append(object)
    }
    saved = kept
  }

  private mutating func setUnsaved(_ object: ManagedObject?, number: Int64) {
    if unsavedCount == 0 && object != nil {
      // Start afresh at this number, so the array never holds the slots of saved objects.
      unsaved.removeAll(keepingCapacity: true)
      base = number
    }
    if number < base {
      guard object != nil else { return }
      unsaved.insert(contentsOf: repeatElement(nil, count: Int(base - number)), at: 0)
      base = number
    }
    let position = Int(number - base)
    if position >= unsaved.count {
      guard object != nil else { return }
      unsaved.append(contentsOf: repeatElement(nil, count: position - unsaved.count + 1))
    }
    switch (unsaved[position] != nil, object != nil) {
    case (false, true): unsavedCount += 1
    case (true, false): unsavedCount -= 1
    default: break
    }
    unsaved[position] = object
  }

  /// The saved object with a permanent ID, or the one `make` returns, registered under it —
  /// with a single lookup either way (fetching many rows pays one hash per row, not two).
  mutating func object(for id: ObjectID, orRegister make: () -> ManagedObject) -> ManagedObject {
    guard !id.isTemporary else {
      if let object = self[id] { return object }
      let object = make()
      self[id] = object
      return object
    }
    // Reading through the default subscript's in-place access inserts `next` when the ID is
    // new, in the same probe that finds it otherwise.
    let next = saved.count
    func position(_ value: inout Int) -> Int { value }
    let found = position(&positions[id, default: next])
    if found < next { return saved[found].unsafelyUnwrapped }
    let object = make()
    saved.append(object)
    return object
  }

  /// Makes room for `capacity` saved objects, so that a large fetch does not rehash.
  mutating func reserveCapacity(_ capacity: Int) {
    positions.reserveCapacity(capacity)
    saved.reserveCapacity(saved.count + max(0, capacity - positions.count))
  }

  /// Forgets saved objects that nothing outside the registry references and that have no
  /// pending changes (inserted objects always have).
  mutating func pruneUnreferenced() {
    for index in saved.indices where saved[index] != nil {
      guard isKnownUniquelyReferenced(&saved[index]!), !saved[index]!.hasChanges else { continue }
      positions[saved[index]!.objectID] = nil
      saved[index] = nil
    }
    compactIfSparse()
  }
}
