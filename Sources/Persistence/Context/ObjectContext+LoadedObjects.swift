extension ObjectContext {
  /// The objects with these IDs, in order, with their values loaded: those not loaded yet are
  /// read from the store in one query per 500 keys, not one query each as their faults fire.
  ///
  /// For code in this package that walks many saved objects by key, such as a heavyweight
  /// migration validating the objects it wrote. IDs of objects the store does not have give
  /// faults that turn out gone when used, as ``object(with:)`` gives them.
  ///
  /// - Throws: What reading the store throws.
  package func loadedObjects(with ids: [ObjectID]) throws -> [ManagedObject] {
    let missing = ids.filter { !$0.isTemporary && (registry[$0]?.isFaultStorage ?? true) }
    if !missing.isEmpty {
      for row in try store.loadRows(missing) {
        _ = object(for: row)
      }
    }
    return ids.compactMap { object(with: $0) }
  }
}
