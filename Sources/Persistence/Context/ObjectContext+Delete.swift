/// Deleting objects and applying deletion rules.
extension ObjectContext {
  /// Deletes an object, applying each relationship's deletion rule now: Nullify removes it
  /// from the destinations' inverse, Cascade deletes the destinations too, Deny is checked when
  /// saving (the save fails while the relationship is not empty), No Action does nothing.
  public func delete(_ object: ManagedObject) {
    guard object.context === self else { return }
    switch object.lifecycle {
    case .deleted, .gone: return
    case .inserted, .persisted: break
    }
    if object.isFaultStorage { fulfillFault(object) }
    let wasInserted = object.lifecycle == .inserted
    object.lifecycle = .deleted
    objectDidChange(object)
    for (slot, rule, isToMany) in object.layout.deletionSteps {
      let destinations: [ManagedObject]
      if isToMany {
        if object.toManyValues[slot] == nil { loadToManyAhead(of: object, slot: slot) }
        destinations = (loadedToMany(of: object, slot: slot)?.ids ?? []).compactMap { self.object(with: $0) }
      } else {
        destinations = object.toOneValues[slot].flatMap { self.object(with: $0) }.map { [$0] } ?? []
      }
      switch rule {
      case .cascade:
        for destination in destinations {
          unlinkInverse(of: object, slot: slot, from: destination)
          delete(destination)
        }
      case .nullify:
        for destination in destinations {
          unlinkInverse(of: object, slot: slot, from: destination)
        }
      case .noAction, .deny:
        break
      }
    }
    if wasInserted {
      // Never saved: it simply leaves the context.
      object.lifecycle = .gone
      registry[object.objectID] = nil
      untrack(object)
    }
  }

  /// Loads a to-many relationship of `object` together with the same relationship of the next
  /// saved objects of its entity registered after it (up to 500 in all), in one query per
  /// chunk of keys instead of one per object.
  ///
  /// Deleting the objects of a fetch result one by one then reads the relationships their
  /// deletion rules follow in bulk, as prefetching would; an object deleted alone pays one query
  /// over a few hundred keys, where it paid one over its own.
  func loadToManyAhead(of object: ManagedObject, slot: Int) {
    guard object.objectID.primaryKey != nil else { return }
    let layout = object.layout
    let neighbours = registry.savedObjects(after: object.objectID, limit: 499) {
      $0.layout === layout && $0.lifecycle == .persisted && !$0.isFaultStorage && $0.toManyValues[slot] == nil
    }
    loadToManyInBulk(layout.relationships[slot].relationship.name, of: [object] + neighbours)
  }
}
