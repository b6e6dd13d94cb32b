/// One token of a predicate format string, with where it starts and how it was written.
package struct PredicateToken: Sendable {
  /// What the token is.
  package enum Kind: Hashable, Sendable {
    /// A bare word: a key name or a keyword (keywords are recognized by the parser, case-insensitively).
    case word(String)
    /// `#word`: a key name escaped so that it is never a keyword.
    case escapedWord(String)
    /// `$name`: a variable.
    case variable(String)
    /// `@name`: a collection operator.
    case collectionOperator(String)
    /// An integer literal.
    case integer(Int64)
    /// A floating-point literal.
    case double(Double)
    /// A quoted string literal, with its escapes resolved.
    case string(String)
    /// A `%` format specifier.
    case format(PredicateFormatSpecifier)
    /// A symbolic comparison operator (`==`, `=`, `!=`, `<>`, `<`, `<=`, `=<`, `>`, `>=`, `=>`).
    case comparison(PredicateOperator)
    /// `&&`.
    case and
    /// `||`.
    case or
    /// `!`.
    case not
    /// `(`.
    case leftParen
    /// `)`.
    case rightParen
    /// `{`.
    case leftBrace
    /// `}`.
    case rightBrace
    /// `[`.
    case leftBracket
    /// `]`.
    case rightBracket
    /// `,`.
    case comma
    /// `.`.
    case dot
    /// The end of the format string.
    case end
  }

  /// What the token is.
  package let kind: Kind
  /// The 1-based column of its first character.
  package let column: Int
  /// The token as written in the format string (empty at the end).
  package let text: String

  /// The token as an error message quotes it: its text, or `nil` for the end of input.
  package var quoted: String? { kind == .end ? nil : text }

  /// The word, when the token is a bare word.
  package var word: String? {
    if case .word(let word) = kind { return word }
    return nil
  }

  /// The key name after a dot: a bare word (reserved words included, since nothing else can
  /// follow a dot) or a `#`-escaped word.
  package var keyName: String? {
    switch kind {
    case .word(let name), .escapedWord(let name): name
    default: nil
    }
  }

  /// Whether the token is the bare word `keyword`, in any case.
  package func isKeyword(_ keyword: String) -> Bool {
    word?.uppercased() == keyword
  }
}
