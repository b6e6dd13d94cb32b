/// Why a predicate or expression could not be evaluated against an object.
///
/// Values of the wrong kind are not errors (a comparison between a string and a number is
/// simply false, as it is in SQL); these are the cases where the predicate itself cannot mean
/// anything for the object.
public enum PredicateEvaluationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A `$variable` that is neither bound by an enclosing `SUBQUERY` nor given a value.
  case unresolvedVariable(String)
  /// An object has no such key. The evaluator never throws this itself; it is offered to
  /// ``PredicateEvaluable`` conformers for their unknown keys.
  case unknownKey(String)
  /// A key was read from a value that is not an object (`title.length` where `title` is a string).
  case keyOnNonObject(key: String, valueKind: String)
  /// `@count`, `@sum`…, `SUBQUERY` or a modifier was applied to a value that is not a collection.
  case notACollection(String)
  /// A `MATCHES` pattern is not a valid ICU regular expression.
  case invalidRegularExpression(String)
  /// An operator got operands it cannot work with (`BETWEEN` without two bounds, `@sum` of strings).
  case invalidOperand(String)
  /// A sort key path leads to a to-many relationship or collection, which cannot be ordered.
  case invalidSortKey(String)

  /// A sentence explaining the error.
  public var description: String {
    switch self {
    case .unresolvedVariable(let name):
      "the variable $\(name) has no value; substitute it with substituting(variables:) or pass it to evaluate"
    case .unknownKey(let key): "unknown key '\(key)'"
    case .keyOnNonObject(let key, let kind): "cannot read key '\(key)' of \(kind), which is not an object"
    case .notACollection(let expression): "'\(expression)' is not a collection"
    case .invalidRegularExpression(let pattern): "invalid regular expression '\(pattern)' for MATCHES"
    case .invalidOperand(let reason): reason
    case .invalidSortKey(let keyPath): "cannot sort by '\(keyPath)': it is a to-many key path"
    }
  }
}
