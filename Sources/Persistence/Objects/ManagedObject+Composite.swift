/// Composite attributes as a whole: Core Data hands out a composite's value as a dictionary of
/// its members; here the members are also attributes of their own, by key path
/// (`value(forKey: "address.street")`), and these read and write them together.
extension ManagedObject {
  /// The values of a composite attribute's leaves (or of a composite nested in one:
  /// `address.location`), keyed by their key paths relative to it (`street`, `location.lat`);
  /// nil leaves have no key, and a composite whose leaves are all nil is nil.
  public final func compositeValue(forKey key: String) throws(ObjectAccessError) -> [String: AttributeValue]? {
    let slots = try compositeSlots(key)
    var values: [String: AttributeValue] = [:]
    for slot in slots {
      if let value = attributeValue(at: slot) {
        values[String(layout.attributes[slot].name.dropFirst(key.count + 1))] = value
      }
    }
    return values.isEmpty ? nil : values
  }

  /// Sets every leaf of a composite attribute: each to the value under its relative key path,
  /// nil when it has none (so nil clears the composite). A key that is no leaf, or a value of the
  /// wrong type, is an error and changes nothing.
  public final func setCompositeValue(_ values: [String: AttributeValue]?, forKey key: String) throws(ObjectAccessError)
  {
    let slots = try compositeSlots(key)
    var assignments: [(slot: Int, value: AttributeValue?)] = []
    var unused = Set((values ?? [:]).keys)
    for slot in slots {
      let member = String(layout.attributes[slot].name.dropFirst(key.count + 1))
      let value = values?[member]
      unused.remove(member)
      let type = layout.attributeTypes[slot]
      if let value, !AttributeValueTypeCheck.matches(value, type) {
        throw ObjectAccessError.typeMismatch(
          attribute: layout.attributes[slot].name, entity: layout.name, expected: type, value: value)
      }
      assignments.append((slot, value))
    }
    if let extra = unused.sorted().first {
      throw ObjectAccessError.unknownAttribute("\(key).\(extra)", entity: layout.name)
    }
    for (slot, value) in assignments { setAttributeValue(value, at: slot) }
  }

  private func compositeSlots(_ key: String) throws(ObjectAccessError) -> [Int] {
    guard let slots = layout.compositeMemberSlots[key] else {
      throw ObjectAccessError.unknownAttribute(key, entity: layout.name)
    }
    return slots
  }
}
