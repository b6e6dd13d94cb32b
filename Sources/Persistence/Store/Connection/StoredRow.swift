/// One row read from an entity's table, decoded into an object's slots.
struct StoredRow {
  /// The object (its entity from `Z_ENT`, its key from `Z_PK`).
  var objectID: ObjectID
  /// `Z_OPT`.
  var version: Int64
  /// Attribute values by slot of the object's layout (transient ones nil).
  var attributes: AttributeValues
  /// To-one destinations by relationship slot (to-many slots nil).
  var toOne: OptionalSlots<ObjectID>
}
