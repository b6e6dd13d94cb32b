/// Merging what other contexts saved.
extension ObjectContext {
  /// Brings this context up to date with another context's save: updated objects are reloaded
  /// (keeping this context's own pending changes on top), deleted ones leave the context, and
  /// loaded to-many relationships are read again on next use.
  public func mergeChanges(from notification: SaveNotification) {
    guard notification.sourceContext != ObjectIdentifier(self) else { return }
    for id in notification.deletedObjects {
      guard let object = registry[id] else { continue }
      object.lifecycle = .gone
      object.isFaultStorage = false
      untrack(object)
      registry[id] = nil
    }
    for id in notification.updatedObjects {
      guard let object = registry[id] else { continue }
      if object.hasChanges {
        try? refresh(object, mergeChanges: true)
      } else {
        object.isFaultStorage = true
      }
    }
    let removed = notification.deletedObjects
    for object in registeredObjects {
      for slot in object.toManyValues.indices {
        guard let value = object.toManyValues[slot] else { continue }
        if object.hasChanges {
          // Keep pending edits; just drop objects that no longer exist.
          if !removed.isDisjoint(with: value.members) {
            var kept = value
            for id in removed where kept.members.contains(id) { kept.remove(id) }
            object.toManyValues[slot] = kept
          }
        } else {
          object.toManyValues[slot] = nil
          object.committedToManyValues[slot] = nil
        }
      }
      for slot in object.toOneValues.indices {
        if let id = object.toOneValues[slot], removed.contains(id), !object.hasChanges {
          object.toOneValues[slot] = nil
          object.committedToOneValues[slot] = nil
        }
      }
    }
  }
}
