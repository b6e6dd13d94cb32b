/// The operator of a ``PredicateComparison``: the counterpart of `NSComparisonPredicate.Operator`.
///
/// The raw value is the canonical spelling that ``FetchPredicate/description`` prints.
public enum PredicateOperator: String, Sendable, Hashable, Codable, CaseIterable {
  /// `==` (also written `=`): the sides are equal.
  case equalTo = "=="
  /// `!=` (also written `<>`): the sides are not equal; `nil != "a"` is true.
  case notEqualTo = "!="
  /// `<`: the left side orders before the right side.
  case lessThan = "<"
  /// `<=` (also written `=<`).
  case lessThanOrEqualTo = "<="
  /// `>`: the left side orders after the right side.
  case greaterThan = ">"
  /// `>=` (also written `=>`).
  case greaterThanOrEqualTo = ">="
  /// `BETWEEN {lower, upper}`: inclusive range test.
  case between = "BETWEEN"
  /// `IN`: the left side is an element of the right-hand collection (or a substring of a
  /// right-hand string).
  case `in` = "IN"
  /// `CONTAINS`: the left string contains the right string, or the left collection contains the
  /// right value.
  case contains = "CONTAINS"
  /// `BEGINSWITH`: the left string starts with the right string.
  case beginsWith = "BEGINSWITH"
  /// `ENDSWITH`: the left string ends with the right string.
  case endsWith = "ENDSWITH"
  /// `LIKE`: the left string matches a wildcard pattern (`*` any run, `?` one character).
  case like = "LIKE"
  /// `MATCHES`: the whole left string matches an ICU regular expression.
  case matches = "MATCHES"

  /// Whether this operator works on strings only (a non-string operand makes it false).
  public var isStringOperator: Bool {
    switch self {
    case .beginsWith, .endsWith, .like, .matches: true
    default: false
    }
  }
}
