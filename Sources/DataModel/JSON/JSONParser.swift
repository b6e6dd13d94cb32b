/// A JSON syntax error, with the line and column where the text stops making sense.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var message: String

  public var description: String { "\(line):\(column): \(message)" }
}

/// Reads JSON text into ``JSONValue``s, keeping key order and the exact text of numbers.
public enum JSONParser {
  /// Parses a complete JSON document.
  ///
  /// ```swift
  /// let value = try JSONParser.parse(#"{"rules": {"entity-removed": "error"}}"#)
  /// ```
  ///
  /// - Throws: ``JSONSyntaxError`` (typed) with the line and column where the text stops being
  ///   JSON (including text after the value, and nesting too deep).
  public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
    var parser = Parser(bytes: Array(text.utf8))
    parser.skipWhitespace()
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    if parser.index < parser.bytes.count {
      throw parser.error("unexpected text after the JSON value")
    }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    var index = 0

    init(bytes: [UInt8]) {
      self.bytes = bytes
    }

    func error(_ message: String) -> JSONSyntaxError {
      let table = LineTable(bytes: bytes)
      let position = table.position(of: index)
      return JSONSyntaxError(line: position.line, column: position.column, message: message)
    }

    mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      guard depth < 512 else { throw error("nesting is too deep") }
      guard index < bytes.count else { throw error("unexpected end of input; expected a value") }
      switch bytes[index] {
      case UInt8(ascii: "{"): return try parseObject(depth: depth)
      case UInt8(ascii: "["): return try parseArray(depth: depth)
      case UInt8(ascii: "\""): return .string(try parseString())
      case UInt8(ascii: "t"): return try literal("true", .bool(true))
      case UInt8(ascii: "f"): return try literal("false", .bool(false))
      case UInt8(ascii: "n"): return try literal("null", .null)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
      default:
        throw error("unexpected character '\(String(decoding: [bytes[index]], as: UTF8.self))'; expected a value")
      }
    }

    mutating func literal(_ word: String, _ value: JSONValue) throws(JSONSyntaxError) -> JSONValue {
      let expected = Array(word.utf8)
      guard index + expected.count <= bytes.count, Array(bytes[index..<(index + expected.count)]) == expected else {
        throw error("invalid literal; expected '\(word)'")
      }
      index += expected.count
      return value
    }

    mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
      let start = index
      if bytes[index] == UInt8(ascii: "-") { index += 1 }
      func digits() -> Int {
        let first = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index - first
      }
      let integerStart = index
      let integerDigits = digits()
      guard integerDigits > 0 else { throw error("invalid number; expected digits") }
      if integerDigits > 1 && bytes[integerStart] == UInt8(ascii: "0") {
        index = integerStart  // Point at the number, not past it.
        throw error("invalid number; leading zeros are not allowed")
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
        index += 1
        guard digits() > 0 else { throw error("invalid number; expected digits after '.'") }
      }
      if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
        index += 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { throw error("invalid number; expected digits in the exponent") }
      }
      return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    mutating func parseString() throws(JSONSyntaxError) -> String {
      index += 1  // opening quote
      var output: [UInt8] = []
      while true {
        guard index < bytes.count else { throw error("unterminated string") }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          index += 1
          return String(decoding: output, as: UTF8.self)
        }
        if byte < 0x20 { throw error("control character in a string; escape it") }
        if byte != UInt8(ascii: "\\") {
          output.append(byte)
          index += 1
          continue
        }
        index += 1
        guard index < bytes.count else { throw error("unterminated escape sequence") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""): output.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): output.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): output.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): output.append(0x08)
        case UInt8(ascii: "f"): output.append(0x0C)
        case UInt8(ascii: "n"): output.append(0x0A)
        case UInt8(ascii: "r"): output.append(0x0D)
        case UInt8(ascii: "t"): output.append(0x09)
        case UInt8(ascii: "u"):
          var code = try hex4()
          if (0xD800...0xDBFF).contains(code) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw error("unpaired surrogate in \\u escape") }
            index += 2
            let low = try hex4()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("invalid low surrogate in \\u escape") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(code) {
            throw error("unpaired surrogate in \\u escape")
          }
          guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
          output.append(contentsOf: Array(String(Character(scalar)).utf8))
        default:
          throw error("invalid escape sequence '\\\(String(decoding: [escape], as: UTF8.self))'")
        }
      }
    }

    mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
      guard index + 4 <= bytes.count,
        let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16)
      else { throw error("invalid \\u escape; expected four hexadecimal digits") }
      index += 4
      return value
    }

    mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      index += 1
      var elements: [JSONValue] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      while true {
        skipWhitespace()
        elements.append(try parseValue(depth: depth + 1))
        skipWhitespace()
        guard index < bytes.count else { throw error("unterminated array; expected ',' or ']'") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        if bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(elements)
        }
        throw error("expected ',' or ']' in an array")
      }
    }

    mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
      index += 1
      var pairs: [(key: String, value: JSONValue)] = []
      skipWhitespace()
      if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(pairs)
      }
      while true {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after a key") }
        index += 1
        skipWhitespace()
        pairs.append((key, try parseValue(depth: depth + 1)))
        skipWhitespace()
        guard index < bytes.count else { throw error("unterminated object; expected ',' or '}'") }
        if bytes[index] == UInt8(ascii: ",") {
          index += 1
          continue
        }
        if bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(pairs)
        }
        throw error("expected ',' or '}' in an object")
      }
    }
  }
}
