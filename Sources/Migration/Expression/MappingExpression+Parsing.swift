import Foundation
import Persistence

extension MappingExpression {
  /// Reads an expression written in NSExpression's format syntax, the text ``description``
  /// prints: constants (`"text"`, `12`, `2.5`, `YES`, `NO`, `nil`), variables (`$source`), key
  /// paths on a base (`$source.owner.name`, `$source.items.@count`, or on `SELF` when bare:
  /// `name`), `SELF`, `FUNCTION(receiver, "selector", arguments…)`, `FETCH(request, context,
  /// countOnly)`, `{a, b}`, `a UNION b` (also `INTERSECT`, `MINUS`), `FIRST`/`LAST`/`SIZE`,
  /// `ANYKEY`, parentheses, and `CAST(<seconds>, "NSDate")`, `CAST("<base64>", "NSData")`,
  /// `CAST("<name>", "Class")`, `CAST("<number>", "NSNumber")`. A key named like a keyword is
  /// written `#name`. The tokens are the predicate parser's.
  ///
  /// - Throws: `PredicateSyntaxError` with the 1-based column of the first mistake
  ///   (`column 9: expected ')' but found end of input`).
  public init(format: String) throws {
    var parser = Parser(tokens: try PredicateLexer.tokenize(format))
    self = try parser.parseWhole()
  }

  /// A recursive-descent parser over the predicate lexer's tokens.
  private struct Parser {
    let tokens: [PredicateToken]
    var position = 0
    var depth = 0

    init(tokens: [PredicateToken]) {
      self.tokens = tokens
    }

    var current: PredicateToken { tokens[position] }

    mutating func advance() -> PredicateToken {
      let token = tokens[position]
      if position < tokens.count - 1 { position += 1 }
      return token
    }

    func unexpected(_ expected: String) -> PredicateSyntaxError {
      PredicateSyntaxError.unexpected(expected: expected, column: current.column, token: current.quoted)
    }

    mutating func expect(_ kind: PredicateToken.Kind, _ written: String) throws(PredicateSyntaxError) {
      guard current.kind == kind else { throw unexpected("'\(written)'") }
      _ = advance()
    }

    mutating func parseWhole() throws(PredicateSyntaxError) -> MappingExpression {
      let expression = try parseExpression()
      guard current.kind == .end else { throw unexpected("the end of the expression") }
      return expression
    }

    /// `primary (UNION|INTERSECT|MINUS primary)*`, left to right.
    mutating func parseExpression() throws(PredicateSyntaxError) -> MappingExpression {
      depth += 1
      defer { depth -= 1 }
      guard depth < 256 else {
        throw PredicateSyntaxError(
          .unsupported, column: current.column, token: current.quoted, message: "expression nested too deeply")
      }
      var left = try parsePrimary()
      while let word = current.word, let operation = SetOperation(rawValue: word.uppercased()) {
        _ = advance()
        let right = try parsePrimary()
        left = .set(operation, left, right)
      }
      return left
    }

    /// An atom followed by `.key` steps.
    mutating func parsePrimary() throws(PredicateSyntaxError) -> MappingExpression {
      var base: MappingExpression
      var path: [String] = []
      let token = current
      switch token.kind {
      case .word(let word) where !MappingExpression.reservedWords.contains(word.uppercased()):
        _ = advance()
        base = .evaluatedObject
        path = [word]
      case .escapedWord(let word):
        _ = advance()
        base = .evaluatedObject
        path = [word]
      case .collectionOperator(let name):
        try checkOperator(name, token)
        _ = advance()
        base = .evaluatedObject
        path = ["@" + name]
      default:
        base = try parseAtom()
      }
      while current.kind == .dot {
        _ = advance()
        let step = current
        switch step.kind {
        case .word(let name), .escapedWord(let name):
          path.append(name)
        case .collectionOperator(let name):
          try checkOperator(name, step)
          path.append("@" + name)
        default:
          throw unexpected("a key after '.'")
        }
        _ = advance()
      }
      return path.isEmpty ? base : .keyPath(base, path.joined(separator: "."))
    }

    func checkOperator(_ name: String, _ token: PredicateToken) throws(PredicateSyntaxError) {
      guard CollectionOperator(rawValue: name) != nil else {
        let known = CollectionOperator.allCases.map { "@\($0.rawValue)" }.joined(separator: ", ")
        throw PredicateSyntaxError(
          .unknownKeyword, column: token.column, token: token.text,
          message: "unknown collection operator '@\(name)'; known: \(known)")
      }
    }

    mutating func parseAtom() throws(PredicateSyntaxError) -> MappingExpression {
      let token = current
      switch token.kind {
      case .string(let string):
        _ = advance()
        return .constant(.string(string))
      case .integer(let value):
        _ = advance()
        return .constant(.integer(value))
      case .double(let value):
        _ = advance()
        return .constant(.double(value))
      case .variable(let name):
        _ = advance()
        return .variable(name)
      case .leftParen:
        _ = advance()
        let inner = try parseExpression()
        try expect(.rightParen, ")")
        return inner
      case .leftBrace:
        _ = advance()
        return .aggregate(try parseList(until: .rightBrace, "}"))
      case .word(let word):
        return try parseKeyword(word.uppercased(), token)
      case .end:
        throw unexpected("an expression")
      default:
        throw unexpected("an expression")
      }
    }

    mutating func parseKeyword(_ word: String, _ token: PredicateToken) throws(PredicateSyntaxError)
      -> MappingExpression
    {
      _ = advance()
      switch word {
      case "SELF": return .evaluatedObject
      case "NIL", "NULL": return .constant(.null)
      case "YES", "TRUE": return .constant(.bool(true))
      case "NO", "FALSE": return .constant(.bool(false))
      case "ANYKEY": return .anyKey
      case "FIRST", "LAST", "SIZE": return .symbol(word)
      case "FUNCTION":
        try expect(.leftParen, "(")
        let arguments = try parseList(until: .rightParen, ")")
        guard arguments.count >= 2 else {
          throw PredicateSyntaxError(
            .invalidOperand, column: token.column, token: token.text,
            message: "FUNCTION needs a receiver and a selector: FUNCTION(receiver, \"selector:\", arguments…)")
        }
        guard case .constant(.string(let selector)) = arguments[1] else {
          throw PredicateSyntaxError(
            .invalidOperand, column: token.column, token: token.text,
            message: "the selector of FUNCTION must be a string literal (\"selector:\")")
        }
        return .function(arguments[0], selector: selector, arguments: Array(arguments.dropFirst(2)))
      case "FETCH":
        try expect(.leftParen, "(")
        let arguments = try parseList(until: .rightParen, ")")
        guard arguments.count == 3, case .constant(.bool(let countOnly)) = arguments[2] else {
          throw PredicateSyntaxError(
            .invalidOperand, column: token.column, token: token.text,
            message: "FETCH takes a fetch request, a context and YES or NO: FETCH(request, context, NO)")
        }
        return .fetch(request: arguments[0], context: arguments[1], countOnly: countOnly)
      case "CAST":
        try expect(.leftParen, "(")
        let arguments = try parseList(until: .rightParen, ")")
        return try cast(arguments, token)
      default:
        throw PredicateSyntaxError(
          .unsupported, column: token.column, token: token.text,
          message: "'\(token.text)' is not part of the expression syntax; write a key of that name as #\(token.text)")
      }
    }

    func cast(_ arguments: [MappingExpression], _ token: PredicateToken) throws(PredicateSyntaxError)
      -> MappingExpression
    {
      func invalid() -> PredicateSyntaxError {
        PredicateSyntaxError(
          .invalidOperand, column: token.column, token: token.text,
          message:
            "CAST takes a constant and one of \"NSDate\" (seconds since 2001), \"NSData\" (base64), \"Class\" or \"NSNumber\" (a string)"
        )
      }
      guard arguments.count == 2, case .constant(let value) = arguments[0],
        case .constant(.string(let type)) = arguments[1]
      else { throw invalid() }
      switch (type, value) {
      case ("NSDate", .integer(let seconds)):
        return .constant(.date(Date(timeIntervalSinceReferenceDate: Double(seconds))))
      case ("NSDate", .double(let seconds)): return .constant(.date(Date(timeIntervalSinceReferenceDate: seconds)))
      case ("NSData", .string(let base64)):
        guard let data = Data(base64Encoded: base64) else {
          throw PredicateSyntaxError(
            .invalidOperand, column: token.column, token: token.text, message: "CAST(…, \"NSData\") needs base64 text")
        }
        return .constant(.data(data))
      case ("Class", .string(let name)): return .constant(.className(name))
      case ("NSNumber", .string(let text)):
        if let integer = Int64(text) { return .constant(.integer(integer)) }
        if let double = Double(text) { return .constant(.double(double)) }
        throw invalid()
      case ("NSNumber", .integer), ("NSNumber", .double): return .constant(value)
      case ("NSString", .string): return .constant(value)
      default: throw invalid()
      }
    }

    /// Comma-separated expressions up to the closing token (which is consumed).
    mutating func parseList(until closing: PredicateToken.Kind, _ written: String) throws(PredicateSyntaxError)
      -> [MappingExpression]
    {
      var elements: [MappingExpression] = []
      if current.kind == closing {
        _ = advance()
        return elements
      }
      while true {
        elements.append(try parseExpression())
        if current.kind == .comma {
          _ = advance()
          continue
        }
        guard current.kind == closing else { throw unexpected("',' or '\(written)'") }
        _ = advance()
        return elements
      }
    }
  }
}
