/// Inserts many objects of an entity in SQL from dictionaries of their values, without
/// creating objects: the counterpart of Core Data's `NSBatchInsertRequest`.
///
/// Each dictionary gives attribute values (``BatchValue/attribute(_:)``) and to-one
/// destinations (``BatchValue/object(_:)``) by property name; properties it leaves out take the
/// model's default values. Every value is checked against the model, uniqueness constraints
/// hold, and primary keys come from `Z_PRIMARYKEY` as a save allocates them. Run it with
/// ``ObjectContext/execute(_:)-(BatchInsertRequest)``.
public struct BatchInsertRequest: Sendable {
  /// The entity of the new objects (not abstract).
  public var entityName: String
  /// The objects' values, one dictionary per object.
  public var objects: [[String: BatchValue]]

  /// An insertion of objects of `entityName`.
  public init(entityName: String, objects: [[String: BatchValue]]) {
    self.entityName = entityName
    self.objects = objects
  }
}
