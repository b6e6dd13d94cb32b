extension FetchRequest where Result: GeneratedEntity {
  /// A request for the objects of a generated class's entity (sub-entities included):
  /// `FetchRequest(Task.self, predicate: Task.Keys.isCompleted == false, sortDescriptors: [Task.Keys.dueDate.ascending])`.
  ///
  /// The container must be given the generated classes so that fetched objects are instances
  /// of them.
  public init(
    _ type: Result.Type, predicate: FetchPredicate? = nil, sortDescriptors: [FetchSortDescriptor] = [],
    fetchLimit: Int? = nil, fetchOffset: Int = 0
  ) {
    self.init(
      entityName: Result.entityName, predicate: predicate, sortDescriptors: sortDescriptors, fetchLimit: fetchLimit,
      fetchOffset: fetchOffset)
  }
}

extension ObjectContext {
  /// The objects of a generated class's entity that match a predicate, in order:
  /// `try context.fetch(Task.self, where: Task.Keys.priority > 1, sortedBy: [Task.Keys.title.ascending])`.
  ///
  /// - Throws: What ``ObjectContext/fetch(_:)`` throws.
  public func fetch<Object: GeneratedEntity>(
    _ type: Object.Type, where predicate: FetchPredicate? = nil, sortedBy sortDescriptors: [FetchSortDescriptor] = [],
    limit: Int? = nil
  ) throws -> [Object] {
    try fetch(FetchRequest(type, predicate: predicate, sortDescriptors: sortDescriptors, fetchLimit: limit))
  }

  /// How many objects of a generated class's entity match a predicate:
  /// `try context.count(Task.self, where: Task.Keys.priority > 1)`.
  ///
  /// - Throws: What ``ObjectContext/fetch(_:)`` throws.
  public func count<Object: GeneratedEntity>(_ type: Object.Type, where predicate: FetchPredicate? = nil) throws
    -> Int
  {
    try count(for: FetchRequest(type, predicate: predicate))
  }
}
