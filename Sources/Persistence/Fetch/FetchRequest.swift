/// What to fetch: an entity, which of its objects (a predicate), in which order, and how many.
///
/// The counterpart of Core Data's `NSFetchRequest`. Predicates use NSPredicate's format syntax
/// (``FetchPredicate``) or the typed key paths of generated code; sort descriptors put nil
/// first in ascending order, as Core Data does. `Result` is the generated class of the entity,
/// or ``ManagedObject``.
public struct FetchRequest<Result: ManagedObject>: Sendable {
  /// The entity to fetch.
  public var entityName: String
  /// Which objects; all when nil.
  public var predicate: FetchPredicate?
  /// The order, first descriptor first; unsorted results come in primary-key order.
  public var sortDescriptors: [FetchSortDescriptor]
  /// At most this many objects.
  public var fetchLimit: Int?
  /// Skip this many objects first.
  public var fetchOffset: Int
  /// Read this many rows at a time when iterating with ``ObjectContext/fetchBatches(_:)``.
  public var fetchBatchSize: Int?
  /// Whether objects of sub-entities are included (they are by default).
  public var includesSubentities: Bool
  /// Whether the context's unsaved inserts, updates and deletes count (they do by default).
  public var includesPendingChanges: Bool
  /// Relationships whose destinations are loaded with the results, to avoid one query per object.
  public var relationshipKeyPathsForPrefetching: [String]
  /// For dictionary results: the attributes (and to-one relationships, as object IDs) to return.
  public var propertiesToFetch: [String]?
  /// For dictionary results: whether duplicates are removed.
  public var returnsDistinctResults: Bool

  public init(
    entityName: String, predicate: FetchPredicate? = nil, sortDescriptors: [FetchSortDescriptor] = [],
    fetchLimit: Int? = nil, fetchOffset: Int = 0
  ) {
    self.entityName = entityName
    self.predicate = predicate
    self.sortDescriptors = sortDescriptors
    self.fetchLimit = fetchLimit
    self.fetchOffset = fetchOffset
    self.includesSubentities = true
    self.includesPendingChanges = true
    self.relationshipKeyPathsForPrefetching = []
    self.returnsDistinctResults = false
  }

  /// The same request for another result class.
  public func casting<Other: ManagedObject>(to type: Other.Type) -> FetchRequest<Other> {
    var request = FetchRequest<Other>(
      entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors, fetchLimit: fetchLimit,
      fetchOffset: fetchOffset)
    request.fetchBatchSize = fetchBatchSize
    request.includesSubentities = includesSubentities
    request.includesPendingChanges = includesPendingChanges
    request.relationshipKeyPathsForPrefetching = relationshipKeyPathsForPrefetching
    request.propertiesToFetch = propertiesToFetch
    request.returnsDistinctResults = returnsDistinctResults
    return request
  }
}
