/// Deletes every object of an entity that matches a predicate in SQL, without loading the
/// objects: the counterpart of Core Data's `NSBatchDeleteRequest`, with the model's deletion
/// rules applied in SQL too.
///
/// - Cascade deletes the destinations, recursively (with their own rules).
/// - Nullify removes the deleted objects from their destinations' inverse relationships
///   (clearing inverse foreign keys, removing join-table rows).
/// - Deny refuses the whole request while any deleted object still has destinations.
/// - No Action leaves the destinations as they are.
///
/// Run it with ``ObjectContext/execute(_:)-(BatchDeleteRequest)``.
public struct BatchDeleteRequest: Sendable {
  /// The entity whose objects are deleted.
  public var entityName: String
  /// Which objects; all when nil.
  public var predicate: FetchPredicate?
  /// Whether objects of sub-entities are deleted too (they are by default).
  public var includesSubentities: Bool

  /// A deletion of the objects of `entityName` matching `predicate`.
  public init(entityName: String, predicate: FetchPredicate? = nil) {
    self.entityName = entityName
    self.predicate = predicate
    self.includesSubentities = true
  }
}
