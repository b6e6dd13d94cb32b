import Foundation

extension ManagedObject: PredicateEvaluable {
  /// Attribute values, to-one destinations and to-many destinations, for predicates and sorting.
  ///
  /// - Throws: ``PredicateEvaluationError/unknownKey(_:)`` when the entity has no attribute or
  ///   relationship `key`.
  public func predicateValue(forKey key: String) throws -> PredicateRuntimeValue {
    if let slot = layout.attributeSlots[key] {
      if layout.attributeTypes[slot] == .composite {
        return .object(CompositePredicateValue(layout: layout, path: key) { self.attributeValue(at: $0) })
      }
      return .scalar(PredicateValue(attributeValue(at: slot)))
    }
    if let slot = layout.relationshipSlots[key] {
      guard let context else { return .null }
      if layout.relationships[slot].relationship.isToMany {
        return .objects(context.toManyDestinations(of: self, slot: slot))
      }
      guard let destination = context.toOneDestination(of: self, slot: slot) else { return .null }
      return .object(destination)
    }
    throw PredicateEvaluationError.unknownKey(key)
  }

  /// The object's ID, so that `project == %@` with an object or ID argument compares IDs.
  public var predicateIdentity: PredicateValue? { objectID.predicateValue }
}

extension ObjectID: PredicateArgumentConvertible {
  /// An object ID in predicates: a URL `x-modelc-object:///<entity index>/<key>`.
  public var predicateValue: PredicateValue {
    .url(URL(string: "x-modelc-object:///\(entity.index)/\(key)")!)
  }

  /// The object ID a predicate constant stands for, if it is one.
  public init?(predicateValue: PredicateValue) {
    guard case .url(let url) = predicateValue, url.scheme == "x-modelc-object" else { return nil }
    let parts = url.path.split(separator: "/")
    guard parts.count == 2, let entity = Int(parts[0]), let key = Int64(parts[1]) else { return nil }
    self.entity = EntityID(entity)
    self.key = key
  }
}

extension PredicateValue {
  /// A predicate constant from an attribute value.
  public init(_ value: AttributeValue?) {
    guard let value else {
      self = .null
      return
    }
    switch value {
    case .integer(let integer): self = .integer(integer)
    case .decimal(let decimal): self = .decimal(decimal)
    case .double(let double): self = .double(double)
    case .float(let float): self = .double(Double(float))
    case .string(let string): self = .string(string)
    case .boolean(let flag): self = .bool(flag)
    case .date(let date): self = .date(date)
    case .binary(let data): self = .data(data)
    case .uuid(let uuid): self = .uuid(uuid)
    case .uri(let url): self = .url(url)
    }
  }
}

extension ManagedObject: PredicateArgumentConvertible {
  /// An object in a predicate stands for its ID (`project == %@`).
  public var predicateValue: PredicateValue { objectID.predicateValue }
}
