/// Relationship access and the upkeep of inverses.
///
/// Invariant: whenever a change touches a to-many relationship, that relationship is loaded
/// first, on both sides. A to-many set loaded later from the store is therefore never stale
/// with respect to this context's pending changes.
extension ObjectContext {
  /// The destination of a to-one relationship, as a registered object or a fault.
  func toOneDestination(of object: ManagedObject, slot: Int) -> ManagedObject? {
    if object.isFaultStorage { fulfillFault(object) }
    guard let id = object.toOneValues[slot] else { return nil }
    return self.object(with: id)
  }

  /// The destinations of a to-many relationship, loading it when needed.
  func toManyDestinations(of object: ManagedObject, slot: Int) -> [ManagedObject] {
    guard let value = loadedToMany(of: object, slot: slot) else { return [] }
    let missing = value.ids.filter { !$0.isTemporary && registry[$0] == nil }
    if missing.count > 1 { prefetch(missing) }
    return value.ids.compactMap { self.object(with: $0) }
  }

  /// Loads the rows of several objects at once, so that walking a relationship does not read
  /// them one query at a time.
  func prefetch(_ ids: [ObjectID]) {
    do {
      for row in try store.loadRows(ids) {
        _ = object(for: row)
      }
    } catch {
      lastAccessError = error
    }
  }

  /// The loaded to-many value of a slot, loading it from the store when needed.
  @discardableResult
  func loadedToMany(of object: ManagedObject, slot: Int) -> ToManyValue? {
    if let value = object.toManyValues[slot] { return value }
    guard let primaryKey = object.objectID.primaryKey else {
      object.toManyValues[slot] = ToManyValue()
      object.committedToManyValues[slot] = ToManyValue()
      return object.toManyValues[slot]
    }
    do {
      let ids = try store.loadToMany(
        entity: object.objectID.entity, primaryKey: primaryKey, relationship: object.layout.relationships[slot])
      let value = ToManyValue(ids)
      object.toManyValues[slot] = value
      object.committedToManyValues[slot] = value
      return value
    } catch {
      lastAccessError = error
      return nil
    }
  }

  func inverseSlot(of object: ManagedObject, forSlot slot: Int, in destination: ManagedObject) -> Int? {
    guard let name = object.layout.relationships[slot].inverseName else { return nil }
    return destination.layout.relationshipSlots[name]
  }

  // MARK: - Low-level edits of one side

  /// Sets a to-one slot without touching the inverse.
  func rawSetToOne(_ object: ManagedObject, slot: Int, _ id: ObjectID?) {
    if object.isFaultStorage { fulfillFault(object) }
    guard object.toOneValues[slot] != id else { return }
    object.toOneValues[slot] = id
    objectDidChange(object)
  }

  /// The loaded to-many value of a slot, moved out of the object so that changing it does not
  /// copy it (the object's slot is nil until the caller puts the value back).
  private func takeToMany(of object: ManagedObject, slot: Int) -> ToManyValue? {
    guard loadedToMany(of: object, slot: slot) != nil else { return nil }
    defer { object.toManyValues[slot] = nil }
    return object.toManyValues[slot]
  }

  /// Adds to a to-many slot without touching the inverse.
  func rawAdd(_ object: ManagedObject, slot: Int, _ id: ObjectID, at index: Int? = nil) {
    guard var value = takeToMany(of: object, slot: slot) else { return }
    defer { object.toManyValues[slot] = value }
    if value.members.contains(id) {
      guard let index, object.layout.relationships[slot].relationship.isOrdered else { return }
      value.remove(id)
      value.append(id, at: index)
    } else {
      value.append(id, at: index)
    }
    objectDidChange(object)
  }

  /// Removes from a to-many slot without touching the inverse.
  func rawRemove(_ object: ManagedObject, slot: Int, _ id: ObjectID) {
    guard var value = takeToMany(of: object, slot: slot) else { return }
    defer { object.toManyValues[slot] = value }
    guard value.members.contains(id) else { return }
    value.remove(id)
    objectDidChange(object)
  }

  /// Removes `object` from the inverse side of `destination`.
  func unlinkInverse(of object: ManagedObject, slot: Int, from destination: ManagedObject) {
    guard let inverse = inverseSlot(of: object, forSlot: slot, in: destination) else { return }
    if destination.layout.relationships[inverse].relationship.isToMany {
      rawRemove(destination, slot: inverse, object.objectID)
    } else if destination.toOneValues[inverse] == object.objectID || destination.isFaultStorage {
      if destination.isFaultStorage { fulfillFault(destination) }
      if destination.toOneValues[inverse] == object.objectID { rawSetToOne(destination, slot: inverse, nil) }
    }
  }

  /// Adds `object` to the inverse side of `destination`, detaching `destination` from a
  /// previous owner when the inverse is to-one.
  func linkInverse(of object: ManagedObject, slot: Int, to destination: ManagedObject) {
    guard let inverse = inverseSlot(of: object, forSlot: slot, in: destination) else { return }
    if destination.layout.relationships[inverse].relationship.isToMany {
      rawAdd(destination, slot: inverse, object.objectID)
    } else {
      if destination.isFaultStorage { fulfillFault(destination) }
      if let previous = destination.toOneValues[inverse], previous != object.objectID,
        let previousObject = self.object(with: previous)
      {
        // `destination` leaves its previous owner's relationship (found by name: the previous
        // owner may be of another sub-entity, with other slot numbers).
        let relationship = object.layout.relationships[slot].relationship
        if let previousSlot = previousObject.layout.relationshipSlots[relationship.name] {
          if relationship.isToMany {
            rawRemove(previousObject, slot: previousSlot, destination.objectID)
          } else {
            rawSetToOne(previousObject, slot: previousSlot, nil)
          }
        }
      }
      rawSetToOne(destination, slot: inverse, object.objectID)
    }
  }

  // MARK: - Public edits, inverse-aware

  func setToOne(of object: ManagedObject, slot: Int, to destination: ManagedObject?) {
    if object.isFaultStorage { fulfillFault(object) }
    let old = object.toOneValues[slot]
    guard old != destination?.objectID else { return }
    if let old, let oldObject = self.object(with: old) {
      unlinkInverse(of: object, slot: slot, from: oldObject)
    }
    rawSetToOne(object, slot: slot, destination?.objectID)
    if let destination {
      linkInverse(of: object, slot: slot, to: destination)
    }
  }

  func addToMany(of object: ManagedObject, slot: Int, object destination: ManagedObject, at index: Int?) {
    guard let value = loadedToMany(of: object, slot: slot) else { return }
    let alreadyMember = value.members.contains(destination.objectID)
    rawAdd(object, slot: slot, destination.objectID, at: index)
    if !alreadyMember {
      linkInverse(of: object, slot: slot, to: destination)
    }
  }

  func removeFromToMany(of object: ManagedObject, slot: Int, object destination: ManagedObject) {
    guard let value = loadedToMany(of: object, slot: slot), value.members.contains(destination.objectID) else { return }
    rawRemove(object, slot: slot, destination.objectID)
    unlinkInverse(of: object, slot: slot, from: destination)
  }

  func setToMany(of object: ManagedObject, slot: Int, to destinations: [ManagedObject]) {
    guard let value = loadedToMany(of: object, slot: slot) else { return }
    let newIDs = Set(destinations.map(\.objectID))
    for id in value.ids where !newIDs.contains(id) {
      if let old = self.object(with: id) { removeFromToMany(of: object, slot: slot, object: old) }
    }
    for (index, destination) in destinations.enumerated() {
      addToMany(
        of: object, slot: slot, object: destination,
        at: object.layout.relationships[slot].relationship.isOrdered ? index : nil)
    }
  }
}
