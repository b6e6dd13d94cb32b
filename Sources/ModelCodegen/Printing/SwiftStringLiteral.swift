/// Writes any text as a Swift multi-line raw string literal that reads back byte for byte:
/// enough `#`s that nothing in the text ends the literal or starts an escape, and escapes for
/// what a source file cannot hold verbatim (carriage returns, other control characters).
enum SwiftStringLiteral {
  /// The literal, starting with `#"""` and a line break and ending with a line break, the
  /// closing `"""#` in column 1 (so no indentation is stripped).
  static func multilineRaw(_ text: String) -> String {
    let hashes = String(repeating: "#", count: requiredHashes(text))
    var body = ""
    body.reserveCapacity(text.utf8.count + 64)
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n", "\t":
        body.unicodeScalars.append(scalar)
      case "\r":
        body += "\\\(hashes)r"
      case _
      where scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
        || scalar.value == 0x2028 || scalar.value == 0x2029:
        body += "\\\(hashes)u{\(String(scalar.value, radix: 16))}"
      default:
        body.unicodeScalars.append(scalar)
      }
    }
    // A literal's last line break is not part of the string: keep the text's own.
    return "\(hashes)\"\"\"\n\(body)\n\"\"\"\(hashes)"
  }

  /// Writes a short text as a one-line string literal with the standard escapes.
  static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  /// One more `#` than the longest run of `#` that follows a `"` or a `\` in the text (at
  /// least one, so that backslashes are never escapes).
  private static func requiredHashes(_ text: String) -> Int {
    var longest = 0
    var run = -1
    for byte in text.utf8 {
      if byte == UInt8(ascii: "#"), run >= 0 {
        run += 1
        longest = max(longest, run)
      } else {
        run = byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") ? 0 : -1
      }
    }
    return longest + 1
  }
}
