import Foundation

/// A recursive-descent parser for NSPredicate's format syntax, substituting format arguments as
/// it meets their specifiers.
///
/// Grammar (keywords are case-insensitive):
///
///     predicate   := or
///     or          := and (("OR" | "||") and)*
///     and         := not (("AND" | "&&") not)*
///     not         := ("NOT" | "!") not | "(" predicate ")" | "TRUEPREDICATE" | "FALSEPREDICATE" | comparison
///     comparison  := ["ANY" | "SOME" | "ALL" | "NONE"] expression operator ["[" options "]"] expression
///     operator    := "==" | "=" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>"
///                  | "BETWEEN" | "IN" | "CONTAINS" | "BEGINSWITH" | "ENDSWITH" | "LIKE" | "MATCHES"
///     expression  := primary ("." (key | "@" collectionOperator ["." key ("." key)*]))*
///     primary     := number | string | "nil" | "NULL" | "YES" | "NO" | "TRUE" | "FALSE" | "SELF"
///                  | key | "$" name | "%@" | "%K" | "%d" … | "{" [expression ("," expression)*] "}"
///                  | "SUBQUERY" "(" expression "," "$" name "," predicate ")"
///                  | "CAST" "(" expression "," string ")"
///     key         := identifier that is not a reserved word | "#" identifier
struct PredicateParser {
  private let tokens: [PredicateToken]
  private let source: [Character]
  private let arguments: [PredicateValue]
  private var index = 0
  private var argumentIndex = 0
  /// How many NOTs, parentheses, `{…}`, SUBQUERYs and CASTs enclose the current token.
  private var depth = 0

  /// The deepest nesting a predicate may have. Each level is a few stack frames of this
  /// recursive parser (and of the evaluators and the SQL translation after it): without a bound, a
  /// string of 50,000 '(' or NOTs overflows the stack; with it, it is an error with a column.
  static let maximumDepth = 200

  /// The operator keywords, for "did you mean" hints.
  private static let operatorKeywords = ["CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "MATCHES", "BETWEEN", "IN"]
  /// Keywords that start a predicate, for "did you mean" hints on a misspelled first word.
  private static let leadingKeywords = ["ANY", "SOME", "ALL", "NONE", "NOT", "TRUEPREDICATE", "FALSEPREDICATE"]
  /// Keywords that join predicates, for "did you mean" hints after a complete comparison.
  private static let joiningKeywords = ["AND", "OR"]
  /// Key-value-coding collection operators this toolkit does not evaluate.
  private static let unsupportedCollectionOperators: Set<String> = [
    "distinctunionofobjects", "unionofobjects", "distinctunionofarrays", "unionofarrays", "distinctunionofsets",
  ]

  private init(format: String, arguments: [PredicateValue]) throws(PredicateSyntaxError) {
    self.tokens = try PredicateLexer.tokenize(format)
    self.source = Array(format)
    self.arguments = arguments
  }

  /// Parses a whole format string, requiring every argument to be consumed.
  static func parse(_ format: String, arguments: [PredicateValue]) throws(PredicateSyntaxError) -> FetchPredicate {
    var parser = try PredicateParser(format: format, arguments: arguments)
    let predicate = try parser.parseOr()
    try parser.expectEndOfPredicate()
    guard parser.argumentIndex == arguments.count else {
      let extra = arguments.count - parser.argumentIndex
      throw PredicateSyntaxError(
        .extraArguments, column: parser.current.column, token: nil,
        message:
          "too many format arguments: the format uses \(parser.argumentIndex) of the \(arguments.count) given "
          + "(\(extra) left over)")
    }
    return predicate
  }

  /// Parses a key path written the way `%K` arguments and sort descriptors write them: keys
  /// joined by dots, optionally with one collection operator (`items.@sum.price`).
  static func keyPathExpression(_ text: String, column: Int, token: String?) throws(PredicateSyntaxError)
    -> FetchExpression
  {
    func invalid(_ reason: String) -> PredicateSyntaxError {
      PredicateSyntaxError(
        .invalidKeyPath, column: column, token: token, message: "invalid key path '\(text)': \(reason)")
    }
    let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    var expression = FetchExpression.evaluatedObject
    var index = 0
    while index < components.count {
      let component = components[index]
      index += 1
      if component.hasPrefix("@") {
        let name = String(component.dropFirst())
        guard let op = PredicateCollectionOperator(rawValue: name.lowercased()) else {
          throw invalid("unknown collection operator '\(component)'")
        }
        let rest = components[index...]
        guard rest.allSatisfy(PredicateKeywords.isIdentifier) else { throw invalid("'\(component)' must end it") }
        if !rest.isEmpty && !op.acceptsKeyPath { throw invalid("'@count' cannot be followed by a key") }
        return .collectionOperator(
          op, collection: expression, keyPath: rest.isEmpty ? nil : PredicateKeyPath(Array(rest)))
      }
      guard PredicateKeywords.isIdentifier(component) else {
        throw invalid(component.isEmpty ? "empty key" : "'\(component)' is not a key name")
      }
      expression = expression.appending(PredicateKeyPath([component]))
    }
    return expression
  }

  // MARK: - Tokens

  private var current: PredicateToken { tokens[index] }

  private var previous: PredicateToken? { index > 0 ? tokens[index - 1] : nil }

  private mutating func advance() {
    if index < tokens.count - 1 { index += 1 }
  }

  /// "what after '<previous token>'", for error messages.
  private func after(_ what: String) -> String {
    guard let previous else { return what }
    return "\(what) after '\(previous.text)'"
  }

  private func unexpected(_ expected: String) -> PredicateSyntaxError {
    .unexpected(expected: expected, column: current.column, token: current.quoted)
  }

  private mutating func expect(_ kind: PredicateToken.Kind, _ expected: String) throws(PredicateSyntaxError) {
    guard current.kind == kind else { throw unexpected(expected) }
    advance()
  }

  /// The source text from the start of `token` to the end of the previous token.
  private func text(from token: PredicateToken) -> String {
    guard let previous else { return "" }
    let end = previous.column - 1 + previous.text.count
    return String(source[(token.column - 1)..<max(end, token.column - 1)])
  }

  private func isWord(_ keyword: String) -> Bool { current.isKeyword(keyword) }

  private mutating func expectEndOfPredicate() throws(PredicateSyntaxError) {
    guard current.kind != .end else { return }
    if let word = current.word, let suggestion = PredicateKeywords.suggestion(for: word, among: Self.joiningKeywords) {
      throw PredicateSyntaxError(
        .unknownKeyword, column: current.column, token: word,
        message: "unknown keyword '\(word)'; did you mean \(suggestion)?", suggestion: suggestion)
    }
    if current.kind == .rightParen {
      throw PredicateSyntaxError(
        .unexpectedToken, column: current.column, token: ")", message: "unbalanced ')': no '(' is open here",
        expected: "AND, OR or end of input")
    }
    throw unexpected(after("AND, OR or end of input"))
  }

  // MARK: - Predicates

  private mutating func parseOr() throws(PredicateSyntaxError) -> FetchPredicate {
    var terms = [try parseAnd()]
    while current.kind == .or || isWord("OR") {
      advance()
      terms.append(try parseAnd())
    }
    return terms.count == 1 ? terms[0] : .or(terms)
  }

  private mutating func parseAnd() throws(PredicateSyntaxError) -> FetchPredicate {
    var terms = [try parseNot()]
    while current.kind == .and || isWord("AND") {
      advance()
      terms.append(try parseNot())
    }
    return terms.count == 1 ? terms[0] : .and(terms)
  }

  /// Enters one more level of nesting, refusing the predicate past ``maximumDepth``; the caller
  /// calls ``leaveNesting()`` when the nested part is parsed.
  private mutating func enterNesting() throws(PredicateSyntaxError) {
    depth += 1
    guard depth <= Self.maximumDepth else {
      throw PredicateSyntaxError(
        .unsupported, column: current.column, token: nil,
        message:
          "the predicate nests more than \(Self.maximumDepth) levels deep (NOT, parentheses, SUBQUERY, CAST or {…}); simplify it"
      )
    }
  }

  private mutating func leaveNesting() {
    depth -= 1
  }

  private mutating func parseNot() throws(PredicateSyntaxError) -> FetchPredicate {
    if current.kind == .not || isWord("NOT") {
      advance()
      try enterNesting()
      defer { leaveNesting() }
      return .not(try parseNot())
    }
    if current.kind == .leftParen {
      let open = current
      advance()
      try enterNesting()
      defer { leaveNesting() }
      let predicate = try parseOr()
      guard current.kind == .rightParen else {
        if current.kind == .end {
          throw PredicateSyntaxError.unexpected(
            expected: "')' to close the '(' at column \(open.column)", column: current.column, token: nil)
        }
        try expectEndOfPredicateInsideParentheses(open: open)
        throw unexpected("')'")
      }
      advance()
      return predicate
    }
    if isWord("TRUEPREDICATE") {
      advance()
      return .true
    }
    if isWord("FALSEPREDICATE") {
      advance()
      return .false
    }
    return try parseComparison()
  }

  private func expectEndOfPredicateInsideParentheses(open: PredicateToken) throws(PredicateSyntaxError) {
    if let word = current.word, let suggestion = PredicateKeywords.suggestion(for: word, among: Self.joiningKeywords) {
      throw PredicateSyntaxError(
        .unknownKeyword, column: current.column, token: word,
        message: "unknown keyword '\(word)'; did you mean \(suggestion)?", suggestion: suggestion)
    }
    throw unexpected("AND, OR or ')' (closing the '(' at column \(open.column))")
  }

  private mutating func parseComparison() throws(PredicateSyntaxError) -> FetchPredicate {
    var modifier = PredicateModifier.direct
    switch current.word?.uppercased() {
    case "ANY", "SOME": modifier = .any
    case "ALL": modifier = .all
    case "NONE": modifier = .none
    default: break
    }
    if modifier != .direct { advance() }
    let leftStart = current
    let left = try parseExpression(expected: modifier == .direct ? after("a predicate") : after("a key path"))
    let leftText = text(from: leftStart)
    let op = try parseOperator(left: left, leftStart: leftStart, leftText: leftText, modifier: modifier)
    let operatorToken = previous!
    let options = try parseOptions()
    let rightStart = current
    let right = try parseExpression(expected: "a value after '\(operatorToken.text)\(options.formatSuffix)'")
    if op == .between { try checkBetweenBounds(right, at: rightStart) }
    return .comparison(PredicateComparison(left, op, right, modifier: modifier, options: options))
  }

  private mutating func parseOperator(
    left: FetchExpression, leftStart: PredicateToken, leftText: String, modifier: PredicateModifier
  ) throws(PredicateSyntaxError) -> PredicateOperator {
    if case .comparison(let op) = current.kind {
      advance()
      return op
    }
    if let word = current.word {
      if let op = PredicateOperator(rawValue: word.uppercased()), !op.rawValue.first!.isPunctuation,
        !op.rawValue.first!.isSymbol
      {
        advance()
        return op
      }
      if word.uppercased() == "NOT" {
        throw PredicateSyntaxError(
          .unexpectedToken, column: current.column, token: word,
          message: "'NOT' cannot follow '\(leftText)'; negate the whole comparison instead (NOT \(leftText) …)",
          expected: "an operator")
      }
    }
    // A misspelled leading keyword (`ANYY tags.name == 1`) reads as a one-key key path followed by
    // a stray word; point at the misspelling rather than at the word after it.
    if modifier == .direct, case .keyPath(let path) = left, path.components.count == 1, leftStart.word != nil,
      let suggestion = PredicateKeywords.suggestion(for: leftText, among: Self.leadingKeywords)
    {
      throw PredicateSyntaxError(
        .unknownKeyword, column: leftStart.column, token: leftText,
        message: "unknown keyword '\(leftText)'; did you mean \(suggestion)?", suggestion: suggestion)
    }
    if let word = current.word, !PredicateKeywords.isReserved(word) {
      let suggestion = PredicateKeywords.suggestion(for: word, among: Self.operatorKeywords)
      throw PredicateSyntaxError(
        .unknownKeyword, column: current.column, token: word,
        message: "unknown operator '\(word)'" + (suggestion.map { "; did you mean \($0)?" } ?? ""),
        expected: "an operator", suggestion: suggestion)
    }
    throw unexpected("an operator after '\(leftText)'")
  }

  private mutating func parseOptions() throws(PredicateSyntaxError) -> PredicateComparisonOptions {
    guard current.kind == .leftBracket else { return [] }
    advance()
    guard let word = current.word else { throw unexpected("comparison options (c, d or n) after '['") }
    guard let options = PredicateComparisonOptions(letters: word) else {
      throw PredicateSyntaxError(
        .unknownKeyword, column: current.column, token: word,
        message: "unknown comparison option '\(word)'; expected c, d or n (as in [cd])", expected: "c, d or n")
    }
    advance()
    try expect(.rightBracket, "']' after comparison options")
    return options
  }

  private func checkBetweenBounds(_ right: FetchExpression, at token: PredicateToken) throws(PredicateSyntaxError) {
    let count: Int
    switch right {
    case .constant(.array(let values)): count = values.count
    case .aggregate(let elements): count = elements.count
    case .constant(let value) where !value.isNull:
      throw PredicateSyntaxError(
        .invalidOperand, column: token.column, token: token.quoted,
        message: "BETWEEN needs two bounds written {lower, upper}, not a single value")
    default: return
    }
    guard count == 2 else {
      throw PredicateSyntaxError(
        .invalidOperand, column: token.column, token: token.quoted,
        message: "BETWEEN needs exactly two bounds {lower, upper}, but found \(count)")
    }
  }

  // MARK: - Expressions

  private mutating func parseExpression(expected: String) throws(PredicateSyntaxError) -> FetchExpression {
    var expression = try parsePrimary(expected: expected)
    while current.kind == .dot {
      advance()
      if let key = current.keyName {
        advance()
        expression = expression.appending(PredicateKeyPath([key]))
      } else if case .collectionOperator(let name) = current.kind {
        return try parseCollectionOperator(name, on: expression)
      } else {
        throw unexpected("a key or a collection operator such as @count after '.'")
      }
    }
    return expression
  }

  private mutating func parseCollectionOperator(_ name: String, on collection: FetchExpression)
    throws(PredicateSyntaxError) -> FetchExpression
  {
    let token = current
    guard let op = PredicateCollectionOperator(rawValue: name.lowercased()) else {
      if Self.unsupportedCollectionOperators.contains(name.lowercased()) {
        throw PredicateSyntaxError(
          .unsupported, column: token.column, token: token.text,
          message: "the collection operator '\(token.text)' is not supported; use @count, @sum, @avg, @min or @max")
      }
      let suggestion = PredicateKeywords.suggestion(
        for: name, among: PredicateCollectionOperator.allCases.map { $0.rawValue.uppercased() })
      throw PredicateSyntaxError(
        .unknownKeyword, column: token.column, token: token.text,
        message: "unknown collection operator '\(token.text)'"
          + (suggestion.map { "; did you mean @\($0.lowercased())?" } ?? ""),
        suggestion: suggestion.map { "@" + $0.lowercased() })
    }
    advance()
    var keys: [String] = []
    if op.acceptsKeyPath {
      while current.kind == .dot, let key = tokens[min(index + 1, tokens.count - 1)].keyName {
        keys.append(key)
        advance()
        advance()
      }
    }
    if current.kind == .dot {
      throw PredicateSyntaxError(
        .unexpectedToken, column: current.column, token: ".",
        message: op == .count
          ? "'@count' is a number and cannot be followed by a key path"
          : "nothing can follow the key path of '\(token.text)' (found '.')")
    }
    return .collectionOperator(op, collection: collection, keyPath: keys.isEmpty ? nil : PredicateKeyPath(keys))
  }

  private mutating func parsePrimary(expected: String) throws(PredicateSyntaxError) -> FetchExpression {
    let token = current
    switch token.kind {
    case .integer(let value):
      advance()
      return .constant(.integer(value))
    case .double(let value):
      advance()
      return .constant(.double(value))
    case .string(let value):
      advance()
      return .constant(.string(value))
    case .escapedWord(let key):
      advance()
      return .keyPath(PredicateKeyPath([key]))
    case .variable(let name):
      advance()
      return .variable(name)
    case .format(let specifier):
      advance()
      return try substitute(specifier, token: token)
    case .leftBrace:
      return try parseAggregate()
    case .word(let word):
      return try parseWord(word, token: token, expected: expected)
    case .collectionOperator:
      throw PredicateSyntaxError(
        .unexpectedToken, column: token.column, token: token.text,
        message: "a collection operator must follow a collection, as in 'tags.\(token.text)' or 'SELF.\(token.text)'",
        expected: expected)
    default:
      throw unexpected(expected)
    }
  }

  private mutating func parseWord(_ word: String, token: PredicateToken, expected: String) throws(PredicateSyntaxError)
    -> FetchExpression
  {
    let upper = word.uppercased()
    switch upper {
    case "NIL", "NULL":
      advance()
      return .constant(.null)
    case "YES", "TRUE":
      advance()
      return .constant(.bool(true))
    case "NO", "FALSE":
      advance()
      return .constant(.bool(false))
    case "SELF":
      advance()
      return .evaluatedObject
    case "SUBQUERY":
      return try parseSubquery()
    case "CAST":
      return try parseCast()
    case "FUNCTION", "FETCH", "ANYKEY", "FIRST", "LAST", "SIZE":
      throw PredicateSyntaxError(
        .unsupported, column: token.column, token: word,
        message: "'\(upper)' is not supported (to use a key named '\(word)', write #\(word))")
    default:
      break
    }
    if PredicateKeywords.isReserved(word) {
      throw PredicateSyntaxError.unexpected(expected: expected, column: token.column, token: word)
    }
    let next = tokens[min(index + 1, tokens.count - 1)]
    if next.kind == .leftParen {
      if let suggestion = PredicateKeywords.suggestion(for: word, among: ["SUBQUERY", "CAST"]) {
        throw PredicateSyntaxError(
          .unknownKeyword, column: token.column, token: word,
          message: "unknown function '\(word)'; did you mean \(suggestion)?", suggestion: suggestion)
      }
      throw PredicateSyntaxError(
        .unsupported, column: token.column, token: word,
        message: "function calls such as '\(word)(…)' are not supported; only SUBQUERY(…) and CAST(…) are")
    }
    advance()
    return .keyPath(PredicateKeyPath([word]))
  }

  private mutating func parseAggregate() throws(PredicateSyntaxError) -> FetchExpression {
    let open = current
    advance()
    try enterNesting()
    defer { leaveNesting() }
    var elements: [FetchExpression] = []
    if current.kind != .rightBrace {
      elements.append(try parseExpression(expected: after("a value")))
      while current.kind == .comma {
        advance()
        elements.append(try parseExpression(expected: after("a value")))
      }
    }
    guard current.kind == .rightBrace else {
      throw unexpected("',' or '}' to close the '{' at column \(open.column)")
    }
    advance()
    var values: [PredicateValue] = []
    for element in elements {
      guard case .constant(let value) = element else { return .aggregate(elements) }
      values.append(value)
    }
    return .constant(.array(values))
  }

  private mutating func parseSubquery() throws(PredicateSyntaxError) -> FetchExpression {
    advance()
    try enterNesting()
    defer { leaveNesting() }
    try expect(.leftParen, after("'('"))
    let collection = try parseExpression(expected: "a collection after 'SUBQUERY('")
    try expect(.comma, after("','"))
    guard case .variable(let variable) = current.kind else {
      throw unexpected("a variable such as $x after 'SUBQUERY(\(collection),'")
    }
    advance()
    try expect(.comma, after("','"))
    let predicate = try parseOr()
    try expect(.rightParen, after("')' to close SUBQUERY"))
    return .subquery(collection: collection, variable: variable, predicate: predicate)
  }

  private mutating func parseCast() throws(PredicateSyntaxError) -> FetchExpression {
    let castToken = current
    advance()
    try enterNesting()
    defer { leaveNesting() }
    try expect(.leftParen, after("'('"))
    let value = try parseExpression(expected: "a value after 'CAST('")
    try expect(.comma, after("','"))
    let typeToken = current
    guard case .string(let typeName) = current.kind else { throw unexpected("a type name string such as \"NSDate\"") }
    advance()
    try expect(.rightParen, after("')' to close CAST"))
    guard case .constant(let constant) = value else {
      throw PredicateSyntaxError(
        .unsupported, column: castToken.column, token: castToken.text,
        message: "CAST of a non-constant value is not supported")
    }
    if constant.isNull { return .constant(.null) }
    guard
      let converted = try PredicateCast.convert(constant, to: typeName, column: typeToken.column, token: typeToken.text)
    else {
      throw PredicateSyntaxError(
        .invalidOperand, column: castToken.column, token: castToken.text,
        message: "cannot CAST \(constant) to \(typeName)")
    }
    return .constant(converted)
  }

  // MARK: - Format arguments

  private mutating func substitute(_ specifier: PredicateFormatSpecifier, token: PredicateToken)
    throws(PredicateSyntaxError) -> FetchExpression
  {
    guard argumentIndex < arguments.count else {
      throw PredicateSyntaxError(
        .missingArgument, column: token.column, token: token.text,
        message:
          "missing argument for '\(token.text)': the format needs more than the \(arguments.count) "
          + "argument\(arguments.count == 1 ? "" : "s") given")
    }
    let value = arguments[argumentIndex]
    argumentIndex += 1
    func mismatch(_ wanted: String) -> PredicateSyntaxError {
      PredicateSyntaxError(
        .argumentTypeMismatch, column: token.column, token: token.text,
        message: "'\(token.text)' needs \(wanted) but argument \(argumentIndex) is \(value.kindDescription)")
    }
    switch specifier {
    case .object:
      return .constant(value)
    case .keyPath:
      guard case .string(let keyPath) = value else { throw mismatch("a key path string") }
      return try Self.keyPathExpression(keyPath, column: token.column, token: token.text)
    case .integer:
      switch value {
      case .integer: return .constant(value)
      case .bool(let flag): return .constant(.integer(flag ? 1 : 0))
      default: throw mismatch("an integer")
      }
    case .double:
      switch value {
      case .double: return .constant(value)
      case .integer(let integer): return .constant(.double(Double(integer)))
      case .decimal(let decimal): return .constant(.double(NSDecimalNumber(decimal: decimal).doubleValue))
      default: throw mismatch("a number")
      }
    }
  }
}
