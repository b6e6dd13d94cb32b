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
    for (slot, item) in object.layout.relationships.enumerated() {
      let relationship = item.relationship
      guard relationship.deletionRule != .deny, relationship.deletionRule != .noAction || item.inverseName != nil
      else { continue }
      let destinations: [ManagedObject]
      if relationship.isToMany {
        destinations = (loadedToMany(of: object, slot: slot)?.ids ?? []).compactMap { self.object(with: $0) }
      } else {
        destinations = object.toOneValues[slot].flatMap { self.object(with: $0) }.map { [$0] } ?? []
      }
      switch relationship.deletionRule {
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
}
