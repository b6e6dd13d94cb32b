/// An error in a predicate format string (or in its format arguments), or in a sort key list,
/// with the 1-based column where it was found.
///
/// The ``description`` reads like `column 13: expected a value after '==' but found end of input`
/// or `column 7: unknown operator 'CONTAINZ'; did you mean CONTAINS?`. Columns count characters
/// (grapheme clusters) from the start of the format string; the end of input is one past the
/// last character.
public struct PredicateSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What kind of mistake the format string has.
  public enum Kind: String, Hashable, Sendable, CaseIterable {
    /// A token appeared where the grammar expects something else (see ``expected``).
    case unexpectedToken
    /// A word stands where an operator, modifier, function or collection operator is expected,
    /// but is not one (see ``suggestion``).
    case unknownKeyword
    /// A string literal has no closing quote.
    case unterminatedString
    /// A backslash escape in a string literal is not one the syntax defines.
    case invalidEscape
    /// A number literal is malformed or out of range.
    case invalidNumber
    /// A character that starts no token of the syntax.
    case invalidCharacter
    /// A `%` specifier the syntax does not define (`%x`).
    case unknownFormatSpecifier
    /// A format specifier has no argument left to consume.
    case missingArgument
    /// Arguments are left over after the whole format string was read.
    case extraArguments
    /// An argument has the wrong type for its specifier (a string for `%d`).
    case argumentTypeMismatch
    /// A `%K` argument or a key path is not a valid key path.
    case invalidKeyPath
    /// A `CAST`, `BETWEEN` or similar construct has operands it cannot use.
    case invalidOperand
    /// A construct of NSPredicate's syntax that this toolkit does not implement (arithmetic,
    /// `FUNCTION`, array subscripts).
    case unsupported
  }

  /// What kind of mistake the format string has.
  public let kind: Kind
  /// The 1-based column of the offending token.
  public let column: Int
  /// The offending token as written, or `nil` when the error is at the end of input.
  public let token: String?
  /// What the parser expected instead, when that is the point of the error (`"a value after '=='"`).
  public let expected: String?
  /// A keyword the offending word is probably a typo of, when there is one.
  public let suggestion: String?
  /// The explanation after the column (`"unknown operator 'CONTAINZ'; did you mean CONTAINS?"`).
  public let message: String

  /// Creates an error; the parser and the sort-descriptor reader use it.
  public init(
    _ kind: Kind,
    column: Int,
    token: String?,
    message: String,
    expected: String? = nil,
    suggestion: String? = nil
  ) {
    self.kind = kind
    self.column = column
    self.token = token
    self.expected = expected
    self.suggestion = suggestion
    self.message = message
  }

  /// `column N: message`.
  public var description: String { "column \(column): \(message)" }

  /// An "expected X but found Y" error for `token` (nil meaning the end of input).
  package static func unexpected(expected: String, column: Int, token: String?) -> PredicateSyntaxError {
    let found = token.map { "'\($0)'" } ?? "end of input"
    return PredicateSyntaxError(
      .unexpectedToken, column: column, token: token, message: "expected \(expected) but found \(found)",
      expected: expected)
  }
}
