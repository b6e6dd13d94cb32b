import Foundation

/// Objects as JSON: the one encoding that `modelc fetch` and `modelc store export` share.
///
/// An object is a JSON object: `_id` first, the object's stable identity in Core Data's URI
/// form (`x-coredata://<store UUID>/<Entity>/p<Z_PK>`); then one key per stored attribute, in
/// the entity's order (inherited ones first), `null` when nil, integers and floating-point
/// values as numbers (the infinities, which JSON cannot hold, as `"inf"` and `"-inf"`),
/// Decimal as a string, Boolean `true`/`false`, Date ISO 8601 in UTC with milliseconds,
/// Binary and Transformable base64, UUID its canonical string, URI its absolute string; then
/// one key per stored relationship: a to-one is its destination's `_id` or `null`, a to-many
/// an array of `_id`s (in order for ordered relationships, by primary key otherwise).
public enum ObjectJSON {
  /// The JSON of an object (loading it first when it is a fault).
  public static func json(of object: ManagedObject, storeUUID: String) -> JSONValue {
    let layout = object.layout
    let context = object.context
    var pairs: [(key: String, value: JSONValue)] = [
      ("_id", .string(identifier(of: object.objectID, entityName: layout.name, storeUUID: storeUUID)))
    ]
    for slot in layout.persistentAttributeSlots where layout.attributes[slot].attributeType != .composite {
      pairs.append((layout.attributes[slot].name, json(object.attributeValue(at: slot))))
    }
    func reference(_ id: ObjectID) -> JSONValue {
      let name = context?.layouts[id.entity].name ?? "\(id.entity)"
      return .string(identifier(of: id, entityName: name, storeUUID: storeUUID))
    }
    for (slot, item) in layout.relationships.enumerated() where !item.relationship.isTransient {
      if item.relationship.isToMany {
        let ids = context?.loadedToMany(of: object, slot: slot)?.ids ?? []
        pairs.append((item.relationship.name, .array(ids.map(reference))))
      } else {
        if object.isFaultStorage { context?.fulfillFault(object) }
        pairs.append((item.relationship.name, object.toOneValues[slot].map(reference) ?? .null))
      }
    }
    return .object(pairs)
  }

  /// The identity of an object in Core Data's URI form: `x-coredata://<store UUID>/<Entity>/p<Z_PK>`
  /// for a saved object, `x-coredata:///<Entity>/t<number>` for a temporary one.
  public static func identifier(of id: ObjectID, entityName: String, storeUUID: String) -> String {
    if let primaryKey = id.primaryKey {
      return "x-coredata://\(storeUUID)/\(entityName)/p\(primaryKey)"
    }
    return "x-coredata:///\(entityName)/t\(-id.key)"
  }

  /// An attribute value as JSON; nil is `null`.
  public static func json(_ value: AttributeValue?) -> JSONValue {
    guard let value else { return .null }
    switch value {
    case .integer(let integer): return .integer(integer)
    case .boolean(let flag): return .bool(flag)
    case .double(let double): return number(double)
    case .float(let float): return number(float)
    case .decimal(let decimal): return .string(decimal.description)
    case .string(let string): return .string(string)
    case .date(let date): return .string(ISO8601Milliseconds.string(from: date))
    case .binary(let data): return .string(data.base64EncodedString())
    case .uuid(let uuid): return .string(uuid.uuidString)
    case .uri(let url): return .string(url.absoluteString)
    }
  }

  /// A floating-point value as the shortest text that reads back as the same value.
  private static func number<Value: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Value) -> JSONValue {
    if value.isNaN { return .string("nan") }
    if value.isInfinite { return .string(value < 0 ? "-inf" : "inf") }
    return .number(value.description)
  }
}
