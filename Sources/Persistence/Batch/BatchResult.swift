/// What a batch request did: the objects it inserted, updated or deleted.
///
/// The same changes are posted to the container's save observers as a ``SaveNotification``
/// (so other contexts can ``ObjectContext/mergeChanges(from:)``), and the executing context
/// merges them at once.
public struct BatchResult: Sendable, Hashable {
  /// The objects the request was about: inserted, updated, or deleted (cascaded deletions
  /// included), in primary-key order.
  public var objectIDs: [ObjectID]
  /// Other objects the request changed: those whose relationships to deleted objects were
  /// nullified.
  public var otherUpdatedObjectIDs: [ObjectID]

  /// How many objects the request was about.
  public var count: Int { objectIDs.count }
}
