extension GeneratedEntity {
  /// A request for the objects of the class's entity (sub-entities included), typed by the
  /// class: `Task.fetchRequest(predicate: Task.Keys.priority >= 2, sortDescriptors: [Task.Keys.title.ascending])`.
  ///
  /// A protocol extension rather than a generated method, so that each generated subclass gets
  /// a request typed by itself.
  public static func fetchRequest(
    predicate: FetchPredicate? = nil, sortDescriptors: [FetchSortDescriptor] = [], fetchLimit: Int? = nil
  ) -> FetchRequest<Self> {
    FetchRequest<Self>(
      entityName: entityName, predicate: predicate, sortDescriptors: sortDescriptors, fetchLimit: fetchLimit)
  }
}
