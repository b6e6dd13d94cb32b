/// A fetch predicate: the condition a fetch request filters objects with.
///
/// `FetchPredicate` is this toolkit's counterpart of `NSPredicate`. It is a plain value (an
/// abstract syntax tree) so that one predicate can be printed, stored, compared, evaluated in
/// memory and translated to SQL by different layers without any of them owning it.
///
/// Create one from NSPredicate's format syntax, exactly as with Core Data:
///
/// ```swift
/// let predicate = try FetchPredicate(format: "title CONTAINS[cd] %@ AND priority > %d", text, 2)
/// ```
///
/// or build it directly from the cases below (for generated code that should not go through a
/// string).
///
/// ## Naming
/// The type is not called `Predicate` because Foundation (on every platform, including Linux)
/// declares a generic `Predicate` type for its `#Predicate` macro. A module that imports both
/// Foundation and Persistence would have to qualify every use of an unqualified `Predicate`, so
/// this type and its companions use the `Fetch` prefix (`FetchPredicate`, `FetchExpression`,
/// `FetchSortDescriptor`) or a `Predicate` prefix that Foundation does not use.
///
/// ## Canonical form
/// ``description`` prints a format string that parses back to an equal value. The parser
/// produces n-ary `and`/`or` nodes for chains at one parenthesis level, so `a AND b AND c` is
/// `.and([a, b, c])` while `(a AND b) AND c` is `.and([.and([a, b]), c])`. Compound nodes with
/// fewer than two subpredicates are valid and evaluate like `NSCompoundPredicate` does (an empty
/// `and` is true, an empty `or` is false) but print as their equivalent (`TRUEPREDICATE`,
/// `FALSEPREDICATE`, or the single subpredicate), so they do not round-trip structurally.
public indirect enum FetchPredicate: Sendable, Hashable, Codable {
  /// `TRUEPREDICATE`: matches every object.
  case `true`
  /// `FALSEPREDICATE`: matches no object.
  case `false`
  /// All subpredicates must match (`AND`, `&&`). An empty list matches everything.
  case and([FetchPredicate])
  /// At least one subpredicate must match (`OR`, `||`). An empty list matches nothing.
  case or([FetchPredicate])
  /// The subpredicate must not match (`NOT`, `!`).
  case not(FetchPredicate)
  /// A comparison between two expressions, such as `title BEGINSWITH[c] "a"`.
  case comparison(PredicateComparison)
}

extension FetchPredicate {
  /// A comparison predicate built from its parts; a shorthand for `.comparison(PredicateComparison(…))`.
  ///
  /// - Parameters:
  ///   - left: The left-hand expression, usually a key path.
  ///   - operator: The comparison operator.
  ///   - right: The right-hand expression, usually a constant.
  ///   - modifier: `ANY`, `ALL` or `NONE` for to-many left-hand sides; `.direct` otherwise.
  ///   - options: String comparison options (`[c]`, `[d]`, `[n]`).
  public static func compare(
    _ left: FetchExpression,
    _ operator: PredicateOperator,
    _ right: FetchExpression,
    modifier: PredicateModifier = .direct,
    options: PredicateComparisonOptions = []
  ) -> FetchPredicate {
    .comparison(PredicateComparison(left, `operator`, right, modifier: modifier, options: options))
  }
}
