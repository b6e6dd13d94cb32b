/// A composite attribute as a predicate sees it: an object whose keys are the composite's
/// members, so that `address.street == "Main St"` and `address.location.lat > 40` read leaves
/// in memory as the SQL compiler reads their columns.
struct CompositePredicateValue: PredicateEvaluable {
  /// The layout of the object holding the composite.
  let layout: ObjectLayout
  /// The composite's key path (`address`, `address.location`).
  let path: String
  /// The value of an attribute slot of the object.
  let value: (Int) -> AttributeValue?

  func predicateValue(forKey key: String) throws -> PredicateRuntimeValue {
    let member = path + "." + key
    if layout.compositeMemberSlots[member] != nil {
      return .object(CompositePredicateValue(layout: layout, path: member, value: value))
    }
    guard let slot = layout.attributeSlots[member], slot >= layout.declaredAttributeCount else {
      throw PredicateEvaluationError.unknownKey(member)
    }
    return .scalar(PredicateValue(value(slot)))
  }
}
