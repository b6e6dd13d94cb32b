extension FetchPredicate {
  /// Whether the predicate holds for an object, with NSPredicate's semantics (documented on the
  /// in-memory evaluator, and summarized in the module's predicate documentation).
  ///
  /// - Parameters:
  ///   - object: The object `SELF` and key paths refer to.
  ///   - variables: Values for `$VARIABLE`s that were not substituted before.
  /// - Throws: ``PredicateEvaluationError`` when the predicate cannot be evaluated (an
  ///   unresolved variable, an invalid `MATCHES` pattern, …), or any error the object's
  ///   ``PredicateEvaluable/predicateValue(forKey:)`` throws.
  public func evaluate(
    with object: any PredicateEvaluable, variables: [String: any PredicateArgumentConvertible] = [:]
  ) throws -> Bool {
    try PredicateEvaluator(root: .object(object), variables: variables).evaluate(self)
  }

  /// Whether the predicate holds for a value that is not necessarily an object, such as a
  /// string for `SELF BEGINSWITH "a"` or a collection for `SELF.@count > 2`.
  ///
  /// - Throws: As ``evaluate(with:variables:)``.
  public func evaluate(
    withValue value: PredicateRuntimeValue, variables: [String: any PredicateArgumentConvertible] = [:]
  ) throws -> Bool {
    try PredicateEvaluator(root: PredicateOperand(value), variables: variables).evaluate(self)
  }
}

extension FetchExpression {
  /// The value of the expression for an object (`SELF`), such as the value of a key path or
  /// the result of `items.@sum.price`.
  ///
  /// - Throws: As ``FetchPredicate/evaluate(with:variables:)``.
  public func evaluate(
    with object: any PredicateEvaluable, variables: [String: any PredicateArgumentConvertible] = [:]
  ) throws -> PredicateRuntimeValue {
    try PredicateEvaluator(root: .object(object), variables: variables).value(of: self).0.runtimeValue
  }
}
