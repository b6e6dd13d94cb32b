/// The objects of a context by ID: one object per row, and every inserted object until it is
/// saved.
///
/// Saved objects are found by hashing their permanent IDs. Inserted objects are found by their
/// temporary number instead, in an array: temporary numbers count up in each context, so a
/// large insert registers its objects without hashing and, once saved, moves each one to its
/// permanent ID with a single hash-table insertion.
struct ObjectRegistry {
  private var saved: [ObjectID: ManagedObject] = [:]
  /// Inserted objects, at `number - base`.
  private var unsaved: [ManagedObject?] = []
  private var base: Int64 = 1
  private var unsavedCount = 0

  /// How many objects are registered.
  var count: Int { saved.count + unsavedCount }

  /// Every registered object: saved ones in no particular order, then inserted ones in
  /// insertion order.
  var values: [ManagedObject] {
    var all = Array(saved.values)
    all.reserveCapacity(count)
    for case let object? in unsaved { all.append(object) }
    return all
  }

  /// The object with an ID; setting nil forgets it.
  subscript(id: ObjectID) -> ManagedObject? {
    get {
      guard id.isTemporary else { return saved[id] }
      let position = -id.key - base
      guard position >= 0, position < Int64(unsaved.count), let object = unsaved[Int(position)],
        object.objectID == id
      else { return nil }
      return object
    }
    set {
      guard id.isTemporary else {
        saved[id] = newValue
        return
      }
      setUnsaved(newValue, number: -id.key)
    }
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
    func read(_ object: inout ManagedObject) -> ManagedObject { object }
    return read(&saved[id, default: make()])
  }

  /// Makes room for `capacity` saved objects, so that a large fetch does not rehash.
  mutating func reserveCapacity(_ capacity: Int) {
    saved.reserveCapacity(capacity)
  }

  /// Forgets saved objects that nothing outside the registry references and that have no
  /// pending changes (inserted objects always have).
  mutating func pruneUnreferenced() {
    var unreferenced: [ObjectID] = []
    var index = saved.values.startIndex
    while index != saved.values.endIndex {
      if isKnownUniquelyReferenced(&saved.values[index]) {
        let object = saved.values[index]
        if !object.hasChanges { unreferenced.append(object.objectID) }
      }
      saved.values.formIndex(after: &index)
    }
    for id in unreferenced { saved[id] = nil }
  }
}
