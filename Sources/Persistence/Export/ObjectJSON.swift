/// Objects as JSON: the one encoding shared by `modelc store export`, `modelc store import`
/// and `modelc fetch`.
///
/// An object is a JSON object with `_id` first — the object's stable identity, Core Data's URI
/// form `x-coredata://<store UUID>/<Entity>/p<Z_PK>` — then one key per stored attribute, in the
/// entity's order with inherited ones first (`null` when nil; values as ``AttributeJSON`` writes
/// them, composites as ``CompositeJSON`` does), then one key per stored relationship: a to-one is its destination's `_id` or `null`, a
/// to-many an array of `_id`s (in order for ordered relationships, by primary key otherwise).
public enum ObjectJSON {
  /// The JSON of an object (loading it first when it is a fault).
  public static func json(of object: ManagedObject, storeUUID: String) -> JSONValue {
    let layout = object.layout
    var pairs: [(key: String, value: JSONValue)] = []
    pairs.reserveCapacity(1 + layout.persistentAttributeSlots.count + layout.relationships.count)
    pairs.append(
      ("_id", .string(identifier(of: object.objectID, entityName: layout.name, storeUUID: storeUUID))))
    for slot in 0..<layout.declaredAttributeCount where layout.attributes[slot].isPersistent {
      let attribute = layout.attributes[slot]
      if attribute.attributeType == .composite {
        pairs.append((attribute.name, CompositeJSON.json(of: object, key: attribute.name)))
      } else {
        pairs.append((attribute.name, AttributeJSON.json(object.attributeValue(at: slot))))
      }
    }
    let context = object.context
    func reference(_ id: ObjectID, fallback: String) -> JSONValue {
      let name = context.map { $0.layouts[id.entity].name } ?? fallback
      return .string(identifier(of: id, entityName: name, storeUUID: storeUUID))
    }
    for (slot, item) in layout.relationships.enumerated() where item.relationship.isPersistent {
      let relationship = item.relationship
      if relationship.isToMany {
        let ids = context?.loadedToMany(of: object, slot: slot)?.ids ?? []
        pairs.append(
          (relationship.name, .array(ids.map { reference($0, fallback: relationship.destinationEntityName) })))
      } else {
        if object.isFaultStorage { context?.fulfillFault(object) }
        let id = object.toOneValues[slot]
        pairs.append(
          (relationship.name, id.map { reference($0, fallback: relationship.destinationEntityName) } ?? .null))
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

  /// The parts of a saved object's identifier, or nil when the text is not one.
  public static func parseIdentifier(_ text: String) -> (storeUUID: String, entityName: String, primaryKey: Int64)? {
    let prefix = "x-coredata://"
    guard text.hasPrefix(prefix) else { return nil }
    let parts = text.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, parts[2].first == "p",
      let primaryKey = Int64(parts[2].dropFirst()), primaryKey > 0
    else { return nil }
    return (String(parts[0]), String(parts[1]), primaryKey)
  }
}
