/// Sets properties of every object of an entity that matches a predicate, in one SQL statement,
/// without loading the objects: the counterpart of Core Data's `NSBatchUpdateRequest`.
///
/// Values are checked against the model first (type, required, range, length, pattern) and
/// uniqueness constraints hold (through the store's unique indexes); every updated row's
/// version (`Z_OPT`) is bumped, so contexts holding the objects see the change as one made
/// elsewhere. Run it with ``ObjectContext/execute(_:)-(BatchUpdateRequest)``.
public struct BatchUpdateRequest: Sendable {
  /// The entity whose objects are updated.
  public var entityName: String
  /// Which objects; all when nil.
  public var predicate: FetchPredicate?
  /// The new values by property: attributes take ``BatchValue/attribute(_:)`` (nil clears),
  /// to-one relationships ``BatchValue/object(_:)``.
  public var propertiesToUpdate: [String: BatchValue]
  /// Whether objects of sub-entities are updated too (they are by default).
  public var includesSubentities: Bool

  /// An update of the objects of `entityName` matching `predicate`.
  public init(entityName: String, predicate: FetchPredicate? = nil, propertiesToUpdate: [String: BatchValue]) {
    self.entityName = entityName
    self.predicate = predicate
    self.propertiesToUpdate = propertiesToUpdate
    self.includesSubentities = true
  }
}

/// A new value in a batch update or insert.
public enum BatchValue: Sendable, Hashable {
  /// An attribute's value; nil clears it.
  case attribute(AttributeValue?)
  /// A to-one relationship's destination; nil empties it.
  case object(ObjectID?)
}
