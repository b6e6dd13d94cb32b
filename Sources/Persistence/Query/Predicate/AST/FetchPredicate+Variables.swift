extension FetchPredicate {
  /// The names of the `$VARIABLE`s this predicate still needs a value for (without the `$`).
  ///
  /// A `SUBQUERY`'s element variable is bound inside its predicate and is not listed.
  public var variables: Set<String> {
    freeVariables(bound: [])
  }

  /// The predicate with the given `$VARIABLE`s replaced by constants, like NSPredicate's
  /// `withSubstitutionVariables(_:)`. Variables without a value in `values` are left in place
  /// (evaluating them later fails unless they are given then); a `SUBQUERY`'s element variable
  /// is never replaced inside its predicate.
  public func substituting(variables values: [String: any PredicateArgumentConvertible]) -> FetchPredicate {
    substituting(values.mapValues(\.predicateValue), bound: [])
  }

  func freeVariables(bound: Set<String>) -> Set<String> {
    switch self {
    case .true, .false:
      return []
    case .and(let subpredicates), .or(let subpredicates):
      return subpredicates.reduce(into: []) { $0.formUnion($1.freeVariables(bound: bound)) }
    case .not(let subpredicate):
      return subpredicate.freeVariables(bound: bound)
    case .comparison(let comparison):
      return comparison.left.freeVariables(bound: bound).union(comparison.right.freeVariables(bound: bound))
    }
  }

  func substituting(_ values: [String: PredicateValue], bound: Set<String>) -> FetchPredicate {
    switch self {
    case .true, .false:
      return self
    case .and(let subpredicates):
      return .and(subpredicates.map { $0.substituting(values, bound: bound) })
    case .or(let subpredicates):
      return .or(subpredicates.map { $0.substituting(values, bound: bound) })
    case .not(let subpredicate):
      return .not(subpredicate.substituting(values, bound: bound))
    case .comparison(var comparison):
      comparison.left = comparison.left.substituting(values, bound: bound)
      comparison.right = comparison.right.substituting(values, bound: bound)
      return .comparison(comparison)
    }
  }
}

extension FetchExpression {
  /// The names of the `$VARIABLE`s this expression still needs a value for (without the `$`).
  public var variables: Set<String> {
    freeVariables(bound: [])
  }

  /// The expression with the given `$VARIABLE`s replaced by constants (see
  /// ``FetchPredicate/substituting(variables:)``).
  public func substituting(variables values: [String: any PredicateArgumentConvertible]) -> FetchExpression {
    substituting(values.mapValues(\.predicateValue), bound: [])
  }

  func freeVariables(bound: Set<String>) -> Set<String> {
    switch self {
    case .constant, .evaluatedObject, .keyPath:
      return []
    case .variable(let name):
      return bound.contains(name) ? [] : [name]
    case .member(let base, _):
      return base.freeVariables(bound: bound)
    case .aggregate(let elements):
      return elements.reduce(into: []) { $0.formUnion($1.freeVariables(bound: bound)) }
    case .collectionOperator(_, let collection, _):
      return collection.freeVariables(bound: bound)
    case .subquery(let collection, let variable, let predicate):
      return collection.freeVariables(bound: bound).union(predicate.freeVariables(bound: bound.union([variable])))
    }
  }

  func substituting(_ values: [String: PredicateValue], bound: Set<String>) -> FetchExpression {
    switch self {
    case .constant, .evaluatedObject, .keyPath:
      return self
    case .variable(let name):
      guard !bound.contains(name), let value = values[name] else { return self }
      return .constant(value)
    case .member(let base, let path):
      return .member(base.substituting(values, bound: bound), path)
    case .aggregate(let elements):
      let substituted = elements.map { $0.substituting(values, bound: bound) }
      var constants: [PredicateValue] = []
      for element in substituted {
        guard case .constant(let value) = element else { return .aggregate(substituted) }
        constants.append(value)
      }
      return .constant(.array(constants))
    case .collectionOperator(let op, let collection, let keyPath):
      return .collectionOperator(op, collection: collection.substituting(values, bound: bound), keyPath: keyPath)
    case .subquery(let collection, let variable, let predicate):
      return .subquery(
        collection: collection.substituting(values, bound: bound), variable: variable,
        predicate: predicate.substituting(values, bound: bound.union([variable])))
    }
  }
}
