/// Splits a predicate format string into tokens.
///
/// Besides the obvious tokens it resolves what can be resolved without grammar: string escapes
/// (`\"`, `\'`, `\\`, `\n`, `\t`, `\r`, `\0`, `\xHH`, `\uHHHH` including surrogate pairs) and `%%`
/// inside strings, number literals (decimal, `0x`/`0o`/`0b`, fractions, exponents, a leading `-`),
/// and which `%` specifier a `%` starts. Quoted text is always literal: `'%@'` is the two
/// characters `%@`, as NSPredicate documents.
package struct PredicateLexer {
  private let characters: [Character]
  private var position = 0

  /// Creates a lexer over a format string.
  init(_ source: String) {
    self.characters = Array(source)
  }

  /// All tokens of the format string, ending with a `.end` token.
  package static func tokenize(_ source: String) throws(PredicateSyntaxError) -> [PredicateToken] {
    var lexer = PredicateLexer(source)
    var tokens: [PredicateToken] = []
    while true {
      let token = try lexer.next()
      tokens.append(token)
      if token.kind == .end { return tokens }
    }
  }

  private func peek(_ offset: Int = 0) -> Character? {
    let index = position + offset
    return index < characters.count ? characters[index] : nil
  }

  private func text(from start: Int) -> String {
    String(characters[start..<position])
  }

  private static func isIdentifierStart(_ character: Character) -> Bool {
    character.isLetter || character == "_"
  }

  private static func isIdentifierPart(_ character: Character) -> Bool {
    character.isLetter || character.isNumber || character == "_"
  }

  private mutating func next() throws(PredicateSyntaxError) -> PredicateToken {
    while let character = peek(), character.isWhitespace { position += 1 }
    let start = position
    guard let character = peek() else {
      return PredicateToken(kind: .end, column: start + 1, text: "")
    }
    func token(_ kind: PredicateToken.Kind, length: Int) -> PredicateToken {
      position += length
      return PredicateToken(kind: kind, column: start + 1, text: text(from: start))
    }
    switch character {
    case "(": return token(.leftParen, length: 1)
    case ")": return token(.rightParen, length: 1)
    case "{": return token(.leftBrace, length: 1)
    case "}": return token(.rightBrace, length: 1)
    case "[": return token(.leftBracket, length: 1)
    case "]": return token(.rightBracket, length: 1)
    case ",": return token(.comma, length: 1)
    case ".": return token(.dot, length: 1)
    case "=":
      switch peek(1) {
      case "=": return token(.comparison(.equalTo), length: 2)
      case "<": return token(.comparison(.lessThanOrEqualTo), length: 2)
      case ">": return token(.comparison(.greaterThanOrEqualTo), length: 2)
      default: return token(.comparison(.equalTo), length: 1)
      }
    case "!":
      return peek(1) == "=" ? token(.comparison(.notEqualTo), length: 2) : token(.not, length: 1)
    case "<":
      switch peek(1) {
      case "=": return token(.comparison(.lessThanOrEqualTo), length: 2)
      case ">": return token(.comparison(.notEqualTo), length: 2)
      default: return token(.comparison(.lessThan), length: 1)
      }
    case ">":
      return peek(1) == "="
        ? token(.comparison(.greaterThanOrEqualTo), length: 2) : token(.comparison(.greaterThan), length: 1)
    case "&":
      if peek(1) == "&" { return token(.and, length: 2) }
    case "|":
      if peek(1) == "|" { return token(.or, length: 2) }
    case "\"", "'":
      return try lexString(quote: character)
    case "%":
      return try lexFormatSpecifier()
    case "$", "#", "@":
      position += 1
      guard let first = peek(), Self.isIdentifierStart(first) else {
        throw PredicateSyntaxError.unexpected(
          expected: "a name after '\(character)'", column: position + 1, token: peek().map { String($0) })
      }
      while let part = peek(), Self.isIdentifierPart(part) { position += 1 }
      let name = String(characters[(start + 1)..<position])
      let kind: PredicateToken.Kind =
        switch character {
        case "$": .variable(name)
        case "#": .escapedWord(name)
        default: .collectionOperator(name)
        }
      return PredicateToken(kind: kind, column: start + 1, text: text(from: start))
    case "-" where peek(1)?.isASCIIDigit == true:
      return try lexNumber()
    case _ where character.isASCIIDigit:
      return try lexNumber()
    case _ where Self.isIdentifierStart(character):
      while let part = peek(), Self.isIdentifierPart(part) { position += 1 }
      return PredicateToken(kind: .word(text(from: start)), column: start + 1, text: text(from: start))
    default:
      break
    }
    let message: String
    switch character {
    case "+", "-", "*", "/", "&", "|", "^", "?":
      message = "'\(character)' is not supported (the predicate syntax here has no arithmetic or bitwise operators)"
      throw PredicateSyntaxError(.unsupported, column: start + 1, token: String(character), message: message)
    default:
      message = "unexpected character '\(character)'"
      throw PredicateSyntaxError(.invalidCharacter, column: start + 1, token: String(character), message: message)
    }
  }

  private mutating func lexFormatSpecifier() throws(PredicateSyntaxError) -> PredicateToken {
    let start = position
    position += 1
    var conversion = ""
    while let character = peek(), character.isLetter, conversion.count < 3 {
      conversion.append(character)
      position += 1
      if !["l", "ll", "h", "q", "z"].contains(conversion) { break }
    }
    if conversion.isEmpty, let character = peek(), character == "@" || character == "%" {
      position += 1
      if character == "%" {
        throw PredicateSyntaxError(
          .unexpectedToken, column: start + 1, token: "%%",
          message: "'%%' (a literal percent sign) is only allowed inside a string literal")
      }
      return PredicateToken(kind: .format(.object), column: start + 1, text: "%@")
    }
    let specifier: PredicateFormatSpecifier
    if conversion == "K" {
      specifier = .keyPath
    } else if PredicateFormatSpecifier.integerConversions.contains(conversion) {
      specifier = .integer(conversion)
    } else if PredicateFormatSpecifier.doubleConversions.contains(conversion) {
      specifier = .double(conversion)
    } else {
      let written = text(from: start)
      throw PredicateSyntaxError(
        .unknownFormatSpecifier, column: start + 1, token: written,
        message: "unknown format specifier '\(written)'; use %@, %K, %d, %i, %ld, %lld, %u or %f")
    }
    return PredicateToken(kind: .format(specifier), column: start + 1, text: text(from: start))
  }

  private mutating func lexNumber() throws(PredicateSyntaxError) -> PredicateToken {
    let start = position
    let negative = peek() == "-"
    if negative { position += 1 }
    func invalid(_ reason: String) -> PredicateSyntaxError {
      while let character = peek(), Self.isIdentifierPart(character) || character == "." { position += 1 }
      let written = text(from: start)
      return PredicateSyntaxError(
        .invalidNumber, column: start + 1, token: written, message: "invalid number '\(written)': \(reason)")
    }
    var radix = 10
    if peek() == "0", let marker = peek(1) {
      switch marker {
      case "x", "X": radix = 16
      case "o", "O": radix = 8
      case "b", "B": radix = 2
      default: break
      }
      if radix != 10 { position += 2 }
    }
    let digitsStart = position
    while let character = peek(), character.isHexDigit, radix == 16 || character.isASCIIDigit { position += 1 }
    var isDouble = false
    if radix == 10 {
      if peek() == ".", peek(1)?.isASCIIDigit == true {
        isDouble = true
        position += 1
        while let character = peek(), character.isASCIIDigit { position += 1 }
      }
      if let marker = peek(), marker == "e" || marker == "E" {
        let signLength = (peek(1) == "+" || peek(1) == "-") ? 1 : 0
        if peek(1 + signLength)?.isASCIIDigit == true {
          isDouble = true
          position += 1 + signLength
          while let character = peek(), character.isASCIIDigit { position += 1 }
        }
      }
    }
    if let character = peek(), Self.isIdentifierPart(character) {
      throw invalid("unexpected '\(character)'")
    }
    let digits = String(characters[digitsStart..<position])
    if digits.isEmpty { throw invalid("no digits") }
    let written = text(from: start)
    if isDouble {
      guard let value = Double(written) else { throw invalid("not a number") }
      return PredicateToken(kind: .double(value), column: start + 1, text: written)
    }
    guard digits.allSatisfy({ $0.hexDigitValue.map { $0 < radix } ?? false }) else {
      throw invalid("not a base-\(radix) number")
    }
    guard let value = Int64((negative ? "-" : "") + digits, radix: radix) else {
      throw invalid("out of the 64-bit integer range")
    }
    return PredicateToken(kind: .integer(value), column: start + 1, text: written)
  }

  private mutating func lexString(quote: Character) throws(PredicateSyntaxError) -> PredicateToken {
    let start = position
    position += 1
    var value = String.UnicodeScalarView()
    while true {
      guard let character = peek() else {
        throw PredicateSyntaxError(
          .unterminatedString, column: start + 1, token: text(from: start),
          message: "unterminated string literal (no closing \(quote))")
      }
      if character == quote {
        position += 1
        return PredicateToken(kind: .string(String(value)), column: start + 1, text: text(from: start))
      }
      if character == "%", peek(1) == "%" {
        value.append("%")
        position += 2
        continue
      }
      if character != "\\" {
        value.append(contentsOf: character.unicodeScalars)
        position += 1
        continue
      }
      value.append(try lexEscape())
    }
  }

  private mutating func lexEscape() throws(PredicateSyntaxError) -> Unicode.Scalar {
    let start = position
    position += 1
    guard let character = peek() else {
      throw PredicateSyntaxError(
        .unterminatedString, column: start + 1, token: "\\", message: "unterminated string literal (ends after '\\')")
    }
    position += 1
    func invalid(_ detail: String = "") -> PredicateSyntaxError {
      let written = text(from: start)
      return PredicateSyntaxError(
        .invalidEscape, column: start + 1, token: written, message: "invalid escape sequence '\(written)'\(detail)")
    }
    switch character {
    case "\"", "'", "\\", "/": return character.unicodeScalars.first!
    case "n": return "\n"
    case "t": return "\t"
    case "r": return "\r"
    case "0": return "\0"
    case "x":
      guard let value = hexValue(length: 2), let scalar = Unicode.Scalar(value) else { throw invalid() }
      return scalar
    case "u":
      guard let value = hexValue(length: 4) else { throw invalid("; expected four hex digits") }
      if (0xD800...0xDBFF).contains(value) {
        guard peek() == "\\", peek(1) == "u" else { throw invalid("; a high surrogate must be followed by \\u<low>") }
        position += 2
        guard let low = hexValue(length: 4), (0xDC00...0xDFFF).contains(low) else {
          throw invalid("; a high surrogate must be followed by \\u<low>")
        }
        return Unicode.Scalar(0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00))!
      }
      guard let scalar = Unicode.Scalar(value) else { throw invalid("; a lone surrogate is not a character") }
      return scalar
    default:
      throw invalid()
    }
  }

  private mutating func hexValue(length: Int) -> UInt32? {
    guard position + length <= characters.count else { return nil }
    let digits = String(characters[position..<(position + length)])
    guard digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16) else { return nil }
    position += length
    return value
  }
}

extension Character {
  /// Whether the character is one of the ASCII digits 0–9.
  fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
