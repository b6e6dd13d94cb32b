/// An object a predicate can be evaluated against, without this module knowing its type.
///
/// The object layer makes its managed objects conform; tests and tools can conform plain
/// structs or dictionaries. The evaluator reads every key of a key path through
/// ``predicateValue(forKey:)``: a to-one relationship answers ``PredicateRuntimeValue/object(_:)``
/// (or `nil`), a to-many relationship ``PredicateRuntimeValue/objects(_:)``, an attribute
/// ``PredicateRuntimeValue/scalar(_:)``.
public protocol PredicateEvaluable {
  /// The value of one key (an attribute or relationship name, never a dotted path).
  ///
  /// What happens for a key the object does not have is the conforming type's decision: the
  /// object layer validates key paths against the model before evaluating, so it may answer
  /// `nil`, or throw ``PredicateEvaluationError/unknownKey(_:)`` (or any error), which the
  /// evaluator passes on to the caller unchanged.
  func predicateValue(forKey key: String) throws -> PredicateRuntimeValue

  /// The constant that stands for this object when it is compared with a constant, such as
  /// `project == %@` with a managed object ID's URI, or `tags CONTAINS %@`.
  ///
  /// The default is `nil`: the object then equals no constant. Two objects are equal when both
  /// have an identity and the identities are equal, or else when they are the same class
  /// instance.
  var predicateIdentity: PredicateValue? { get }
}

extension PredicateEvaluable {
  /// No identity: the object equals no constant, and other objects only by reference.
  public var predicateIdentity: PredicateValue? { nil }
}
