/// Composite attributes in JSON: an object keyed by the composite's members — each a value as
/// ``AttributeJSON`` writes it, or a nested object for a nested composite — in declaration
/// order, every member present (`null` when nil); `null` for a composite whose leaves are all
/// nil. `{"address": {"street": "Main St", "location": {"lat": 1.5, "lon": null}}}`.
public enum CompositeJSON {
  /// The JSON of a composite attribute (or nested composite, by key path) of an object.
  public static func json(of object: ManagedObject, key: String) -> JSONValue {
    let layout = object.layout
    guard let slots = layout.compositeMemberSlots[key],
      slots.contains(where: { object.attributeValue(at: $0) != nil })
    else { return .null }
    var pairs: [(key: String, value: JSONValue)] = []
    var nested: Set<String> = []
    for slot in slots {
      let member = layout.attributes[slot].name.dropFirst(key.count + 1)
      if let dot = member.firstIndex(of: ".") {
        let name = String(member[..<dot])
        if nested.insert(name).inserted { pairs.append((name, json(of: object, key: key + "." + name))) }
      } else {
        pairs.append((String(member), AttributeJSON.json(object.attributeValue(at: slot))))
      }
    }
    return .object(pairs)
  }

  /// A problem with one member of a composite's JSON.
  public struct Problem: Sendable, Hashable {
    /// The member's key path from the entity (`address.location.lat`).
    public var keyPath: String
    public var message: String
  }

  /// The leaf values the JSON of a composite attribute (by key path) gives: `null` makes every
  /// leaf nil; an object sets the leaves it names (members it leaves out keep their values).
  /// Every problem is collected: a member the composite does not have, a value of the wrong
  /// kind.
  public static func values(
    _ json: JSONValue, key: String, layout: ObjectLayout
  ) -> (values: [(slot: Int, value: AttributeValue?)], problems: [Problem]) {
    guard let slots = layout.compositeMemberSlots[key] else {
      return ([], [Problem(keyPath: key, message: "'\(key)' is not a composite attribute")])
    }
    switch json {
    case .null:
      return (slots.map { ($0, nil) }, [])
    case .object(let pairs):
      var values: [(slot: Int, value: AttributeValue?)] = []
      var problems: [Problem] = []
      for (member, value) in pairs {
        let path = key + "." + member
        if layout.compositeMemberSlots[path] != nil {
          let inner = self.values(value, key: path, layout: layout)
          values += inner.values
          problems += inner.problems
        } else if let slot = layout.attributeSlots[path], slots.contains(slot) {
          do {
            values.append((slot, try AttributeJSON.value(value, for: layout.attributes[slot])))
          } catch {
            problems.append(Problem(keyPath: path, message: error.message))
          }
        } else {
          let members = Set(
            slots.map { layout.attributes[$0].name.dropFirst(key.count + 1).split(separator: ".")[0] })
          problems.append(
            Problem(
              keyPath: path,
              message:
                "composite '\(key)' has no member '\(member)'; its members are \(members.sorted().map { "'\($0)'" }.joined(separator: ", "))"
            ))
        }
      }
      return (values, problems)
    default:
      return (
        [],
        [
          Problem(
            keyPath: key, message: "expected an object of the composite's members or null, found \(json.kindName)")
        ]
      )
    }
  }
}
