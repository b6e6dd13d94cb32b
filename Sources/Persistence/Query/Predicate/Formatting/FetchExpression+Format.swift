extension FetchExpression: CustomStringConvertible {
  /// The expression in the format syntax; it parses back to an equal expression when the
  /// expression is in the canonical form described on ``FetchExpression``.
  public var description: String {
    switch self {
    case .constant(let value): value.description
    case .evaluatedObject: "SELF"
    case .variable(let name): "$" + name
    case .keyPath(let path): path.description
    case .member(let base, let path): "\(base).\(path)"
    case .aggregate(let elements): "{" + elements.map(\.description).joined(separator: ", ") + "}"
    case .collectionOperator(let op, let collection, let keyPath):
      "\(collection).@\(op.rawValue)" + (keyPath.map { ".\($0)" } ?? "")
    case .subquery(let collection, let variable, let predicate):
      "SUBQUERY(\(collection), $\(variable), \(predicate))"
    }
  }
}
