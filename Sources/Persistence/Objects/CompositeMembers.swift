/// The leaves of composite attributes: the attributes of ordinary types a composite holds,
/// directly or through nested composites, each named by its key path from the entity
/// (`address.location.lat`).
///
/// A composite attribute has no column and no value of its own: each leaf is stored in a column
/// of its own and held in a slot of its own (see `docs/store-format.md` §2). The layout of the
/// store (``StoreSchema``) and of objects (``ObjectLayout``) both come from here, so they name
/// the leaves alike.
enum CompositeMembers {
  /// The leaves of a composite attribute, depth first in the composites' declaration order,
  /// named by key path. A leaf of a transient composite is transient; a leaf of an optional
  /// composite is optional (a nil composite is every leaf nil); otherwise each leaf keeps its own
  /// flags. Composite types that are missing or contain themselves contribute nothing (the
  /// validator reports them).
  static func leaves(of attribute: AttributeDescription, in model: ModelVersion) -> [AttributeDescription] {
    var result: [AttributeDescription] = []
    var visited: Set<String> = []
    collect(
      attribute, path: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
      model: model, visited: &visited, into: &result)
    return result
  }

  private static func collect(
    _ attribute: AttributeDescription, path: String, isOptional: Bool, isTransient: Bool, model: ModelVersion,
    visited: inout Set<String>, into result: inout [AttributeDescription]
  ) {
    guard attribute.attributeType == .composite, let name = attribute.compositeName,
      let composite = model.composite(named: name), visited.insert(name).inserted
    else { return }
    defer { visited.remove(name) }
    for member in composite.attributes {
      let memberPath = path + "." + member.name
      let optional = isOptional || member.isOptional
      let transient = isTransient || member.isTransient
      if member.attributeType == .composite {
        collect(
          member, path: memberPath, isOptional: optional, isTransient: transient, model: model, visited: &visited,
          into: &result)
      } else {
        var leaf = member
        leaf.name = memberPath
        leaf.isOptional = optional
        leaf.isTransient = transient
        result.append(leaf)
      }
    }
  }
}
