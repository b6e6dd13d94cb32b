/// A class generated from a model by `modelc generate` (or the ModelcPlugin): it knows the
/// name of the entity it stands for, which typed fetch requests and containers use.
public protocol GeneratedEntity: ManagedObject {
  /// The name of the entity in the model.
  static var entityName: String { get }
}
