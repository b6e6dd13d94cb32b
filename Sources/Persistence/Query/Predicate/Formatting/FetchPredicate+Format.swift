extension FetchPredicate: CustomStringConvertible {
  /// The predicate in NSPredicate's format syntax.
  ///
  /// The output is canonical: keywords upper-case, `==` for equality, options in `[cd]` order,
  /// `ANY` for `SOME`, parentheses only where precedence (NOT > AND > OR) or the tree's shape
  /// needs them. Parsing it with ``init(format:_:)`` (and no arguments) gives back an equal
  /// predicate, except for the degenerate compound predicates described on ``FetchPredicate``.
  public var description: String {
    switch self {
    case .true:
      return "TRUEPREDICATE"
    case .false:
      return "FALSEPREDICATE"
    case .and(let subpredicates):
      if subpredicates.isEmpty { return "TRUEPREDICATE" }
      if subpredicates.count == 1 { return subpredicates[0].description }
      return subpredicates.map { $0.isCompound ? "(\($0))" : $0.description }.joined(separator: " AND ")
    case .or(let subpredicates):
      if subpredicates.isEmpty { return "FALSEPREDICATE" }
      if subpredicates.count == 1 { return subpredicates[0].description }
      return subpredicates.map { $0.isDisjunction ? "(\($0))" : $0.description }.joined(separator: " OR ")
    case .not(let subpredicate):
      return subpredicate.isCompound ? "NOT (\(subpredicate))" : "NOT \(subpredicate)"
    case .comparison(let comparison):
      return comparison.description
    }
  }

  /// Whether this is an `AND` or `OR` node that prints as more than one term.
  private var isCompound: Bool {
    switch self {
    case .and(let subpredicates), .or(let subpredicates): subpredicates.count > 1
    default: false
    }
  }

  /// Whether this is an `OR` node that prints as more than one term.
  private var isDisjunction: Bool {
    if case .or(let subpredicates) = self { return subpredicates.count > 1 }
    return false
  }
}

extension PredicateComparison: CustomStringConvertible {
  /// The comparison in the format syntax, such as `ANY tags.name ==[c] "swift"`.
  public var description: String {
    let prefix = modifier == .direct ? "" : modifier.rawValue + " "
    return "\(prefix)\(left) \(self.operator.rawValue)\(options.formatSuffix) \(right)"
  }
}
