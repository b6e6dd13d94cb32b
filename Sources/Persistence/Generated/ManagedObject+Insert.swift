extension ManagedObject {
  /// Inserts a new object of the generated class's entity into a context, with the model's
  /// default values: `Tag(context: context)`.
  ///
  /// Generated classes add initializers that also take the required values
  /// (`Task(context:taskID:title:)`). The class must be registered with the context's
  /// container (the generated model's `makeContainer(options:)` registers every generated
  /// class), and its entity must not be abstract: both are programming errors and trap, like
  /// ``ObjectContext/insert(_:)``.
  public convenience init(context: ObjectContext) {
    guard let entity = context.entityClasses.entity(for: Self.self) else {
      preconditionFailure(
        "\(Self.self) is not registered with the container; open it with the generated model's makeContainer(options:) or pass the class in classes:"
      )
    }
    // Read through the layout: `context.model[entity]` copies the whole entity description (a
    // retain and a release of each of its arrays and strings), a quarter of this initializer.
    let construction = context.insertionConstruction(for: entity)
    precondition(
      !construction.layout.description.isAbstract,
      "entity '\(construction.layout.name)' is abstract: insert a sub-entity")
    self.init(construction)
    context.didInsert(self)
  }
}
