/// The value of a key of a ``PredicateEvaluable`` object, or of an expression, during evaluation.
public enum PredicateRuntimeValue {
  /// An attribute value, including `nil` (``PredicateValue/null``). An
  /// ``PredicateValue/array(_:)`` scalar is treated as a collection of scalars.
  case scalar(PredicateValue)
  /// A to-one relationship's destination.
  case object(any PredicateEvaluable)
  /// A to-many relationship's destinations.
  case objects([any PredicateEvaluable])
  /// A collection of attribute values (a collection-valued attribute, or a key path that reads
  /// an attribute through a to-many relationship).
  case scalars([PredicateValue])

  /// `nil`: no value (an unset attribute or an empty to-one relationship).
  public static var null: PredicateRuntimeValue { .scalar(.null) }

  /// A scalar made from any format-argument value (`.value("a")`, `.value(3)`, `.value(nil)`).
  public static func value(_ value: (any PredicateArgumentConvertible)?) -> PredicateRuntimeValue {
    .scalar(value?.predicateValue ?? .null)
  }
}
