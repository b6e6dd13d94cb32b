/// The objects of a context by ID: one object per row, and every inserted object until it is
/// saved.
///
/// Saved objects are held in an array in the order they were registered, found through
/// ``ObjectPositions`` (mostly arrays indexed by primary key): the table holds no references,
/// so building and dropping it is cheap, and the objects are released in the order they were
/// made — a large fetch result is freed front to back rather than in hash order across the
/// heap. Inserted objects are found by their temporary number instead, in a second array:
/// temporary numbers count up in each context, so a large insert registers its objects without
/// hashing and, once saved, moves each one to its permanent ID, which the save allocated in a
/// run after the table's last key.
///
/// The positions of saved objects are indexed when first needed: a fetch appends its objects,
/// and the first lookup, removal or question about the registry's IDs afterwards indexes them
/// in one pass. A context that fetches objects, reads them and goes away (the most common use
/// of a short-lived context) never pays for an index it does not use.
struct ObjectRegistry {
  /// Saved objects in registration order; nil where one was forgotten.
  private var saved: [ManagedObject?] = []
  /// The position in `saved` of each saved object's ID, for `saved[..<indexedCount]`.
  private var positions = ObjectPositions()
  /// How many of `saved` are in `positions`; the objects after them are registered and not
  /// yet indexed (none of them is nil).
  private var indexedCount = 0
  /// Inserted objects, at `number - base`.
  private var unsaved: [ManagedObject?] = []
  private var base: Int64 = 1
  private var unsavedCount = 0

  /// How many objects are registered.
  var count: Int { positions.count + (saved.count - indexedCount) + unsavedCount }

  /// Every registered object: saved ones, then inserted ones, each in registration order.
  var values: [ManagedObject] {
    var all: [ManagedObject] = []
    all.reserveCapacity(count)
    for case let object? in saved { all.append(object) }
    for case let object? in unsaved { all.append(object) }
    return all
  }

  /// The object with an ID; setting nil forgets it.
  ///
  /// Reading is mutating: it indexes the objects registered since the last lookup.
  subscript(id: ObjectID) -> ManagedObject? {
    mutating get {
      guard id.isTemporary else {
        indexPending()
        return positions[id].flatMap { saved[$0] }
      }
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
    indexPending()
    if let object {
      if let position = positions[id] {
        saved[position] = object
      } else {
        positions.set(saved.count, for: id)
        saved.append(object)
      }
    } else if let position = positions.remove(id) {
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
      positions.set(kept.count, for: object.objectID)
      kept.append(object)
    }
    saved = kept
    indexedCount = kept.count
  }

  /// Puts the objects registered since the last lookup into `positions`.
  private mutating func indexPending() {
    guard indexedCount < saved.count else { return }
    for position in indexedCount..<saved.count {
      positions.set(position, for: saved[position].unsafelyUnwrapped.objectID)
    }
    indexedCount = saved.count
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

  /// Saved objects registered after the one with `id` that pass `include`, in registration
  /// order: at most `limit`, among the next `4 * limit` positions (so a lookup costs little when
  /// few pass). Empty when `id` is not a registered saved object.
  ///
  /// Objects a fetch registered sit side by side, so these are the ones fetched after it: what
  /// a loop over a fetch result reaches next.
  mutating func savedObjects(
    after id: ObjectID, limit: Int, where include: (ManagedObject) -> Bool
  ) -> [ManagedObject] {
    guard !id.isTemporary, limit > 0 else { return [] }
    indexPending()
    guard let position = positions[id] else { return [] }
    var found: [ManagedObject] = []
    let end = min(saved.count, position + 1 + 4 * limit)
    for next in (position + 1)..<max(position + 1, end) {
      guard let object = saved[next], include(object) else { continue }
      found.append(object)
      if found.count == limit { break }
    }
    return found
  }

  /// Whether a saved object of any of these entities (by index) is registered.
  mutating func holdsSavedObjects(ofAnyOf entities: Set<Int>) -> Bool {
    indexPending()
    return entities.contains { positions.holdsIDs(ofEntity: $0) }
  }

  /// Registers a saved object whose ID has no object yet (the caller looked it up, or knows
  /// that none can be registered); it is indexed by the next lookup.
  mutating func register(_ object: ManagedObject) {
    saved.append(object)
  }

  /// Forgets saved objects that nothing outside the registry references and that have no
  /// pending changes (inserted objects always have).
  ///
  /// Returns the forgotten objects, so that they are freed (and any `deinit` of a subclass
  /// runs) once the caller's access to the registry has ended.
  mutating func pruneUnreferenced() -> [ManagedObject] {
    indexPending()
    var forgotten: [ManagedObject] = []
    for index in saved.indices where saved[index] != nil {
      guard isKnownUniquelyReferenced(&saved[index]!), !saved[index]!.hasChanges else { continue }
      positions.remove(saved[index]!.objectID)
      forgotten.append(saved[index]!)
      saved[index] = nil
    }
    compactIfSparse()
    return forgotten
  }
}
