/// A comparison between two expressions: the node behind `NSComparisonPredicate`.
///
/// The format `ANY tags.name ==[c] "swift"` is a comparison whose ``left`` is the key path
/// `tags.name`, whose ``operator`` is ``PredicateOperator/equalTo``, whose ``right`` is the
/// constant `"swift"`, with the ``PredicateModifier/any`` modifier and the
/// ``PredicateComparisonOptions/caseInsensitive`` option.
public struct PredicateComparison: Sendable, Hashable, Codable {
  /// The left-hand expression, usually a key path of the evaluated object.
  public var left: FetchExpression
  /// How the two sides are compared.
  public var `operator`: PredicateOperator
  /// The right-hand expression, usually a constant or a format argument.
  public var right: FetchExpression
  /// How a to-many left-hand side is quantified (`ANY`, `ALL`, `NONE`), or `.direct`.
  public var modifier: PredicateModifier
  /// String comparison options (`[c]`, `[d]`, `[n]`).
  public var options: PredicateComparisonOptions

  /// Creates a comparison from its parts.
  public init(
    _ left: FetchExpression,
    _ operator: PredicateOperator,
    _ right: FetchExpression,
    modifier: PredicateModifier = .direct,
    options: PredicateComparisonOptions = []
  ) {
    self.left = left
    self.operator = `operator`
    self.right = right
    self.modifier = modifier
    self.options = options
  }
}
