/// A `%` specifier of a format string, which consumes one format argument.
package enum PredicateFormatSpecifier: Hashable, Sendable {
  /// `%@`: any value, substituted as a constant.
  case object
  /// `%K`: a key path, substituted as a key path (not as a string value).
  case keyPath
  /// `%d`, `%i`, `%ld`, `%lld`, `%u`, … : an integer.
  case integer(String)
  /// `%f`, `%lf`: a floating-point number.
  case double(String)

  /// The integer conversions C's printf offers that NSPredicate accepts, without the `%`.
  static let integerConversions: Set<String> = [
    "d", "i", "u", "ld", "li", "lu", "lld", "lli", "llu", "hd", "hi", "hu", "qd", "qi", "qu", "zd", "zu",
  ]
  /// The floating-point conversions, without the `%`.
  static let doubleConversions: Set<String> = ["f", "lf", "e", "le", "g", "lg"]

  /// The specifier as written (`"%lld"`).
  var text: String {
    switch self {
    case .object: "%@"
    case .keyPath: "%K"
    case .integer(let conversion), .double(let conversion): "%" + conversion
    }
  }
}
