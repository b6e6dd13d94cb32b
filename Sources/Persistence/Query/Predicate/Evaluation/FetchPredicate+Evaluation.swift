extension FetchPredicate {
  /// Whether the predicate holds for an object, with NSPredicate's semantics.
  ///
  /// The full rules are the doc comment at the top of `PredicateEvaluator.swift`, which the SQL
  /// translation follows too. In short: `nil` equals only `nil` (so `nil != "a"` is true) and
  /// never satisfies an ordering or string operator; numbers compare numerically across kinds;
  /// strings compare by Unicode scalar, or folded by ``PredicateStringFolding`` under `[c]`/`[d]`;
  /// a left key path through a to-many relationship means `ANY`; `ALL` and `NONE` are true for
  /// an empty collection; `@avg`, `@min` and `@max` of an empty collection are `nil`, `@sum` is 0.
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
