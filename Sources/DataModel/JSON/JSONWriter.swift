/// Writes ``JSONValue``s as text, the same bytes every time for the same value.
public enum JSONWriter {
  /// The value as pretty-printed JSON (two-space indentation, keys in their order, a final newline).
  public static func prettyPrinted(_ value: JSONValue) -> String {
    var output = ""
    write(value, into: &output, indent: 0, pretty: true)
    output.append("\n")
    return output
  }

  /// The value as compact JSON on one line.
  public static func compact(_ value: JSONValue) -> String {
    var output = ""
    write(value, into: &output, indent: 0, pretty: false)
    return output
  }

  private static func write(_ value: JSONValue, into output: inout String, indent: Int, pretty: Bool) {
    switch value {
    case .null: output.append("null")
    case .bool(let flag): output.append(flag ? "true" : "false")
    case .number(let text): output.append(text)
    case .string(let text): writeString(text, into: &output)
    case .array(let elements):
      if elements.isEmpty {
        output.append("[]")
        return
      }
      output.append("[")
      for (index, element) in elements.enumerated() {
        if index > 0 { output.append(",") }
        if pretty { newline(&output, indent + 1) }
        write(element, into: &output, indent: indent + 1, pretty: pretty)
      }
      if pretty { newline(&output, indent) }
      output.append("]")
    case .object(let pairs):
      if pairs.isEmpty {
        output.append("{}")
        return
      }
      output.append("{")
      for (index, pair) in pairs.enumerated() {
        if index > 0 { output.append(",") }
        if pretty { newline(&output, indent + 1) }
        writeString(pair.key, into: &output)
        output.append(pretty ? ": " : ":")
        write(pair.value, into: &output, indent: indent + 1, pretty: pretty)
      }
      if pretty { newline(&output, indent) }
      output.append("}")
    }
  }

  private static func newline(_ output: inout String, _ indent: Int) {
    output.append("\n")
    output.append(String(repeating: "  ", count: indent))
  }

  private static func writeString(_ text: String, into output: inout String) {
    output.append("\"")
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output.append("\\\"")
      case "\\": output.append("\\\\")
      case "\n": output.append("\\n")
      case "\r": output.append("\\r")
      case "\t": output.append("\\t")
      case "\u{08}": output.append("\\b")
      case "\u{0C}": output.append("\\f")
      default:
        if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
          let hex = String(scalar.value, radix: 16)
          output.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
        } else {
          output.unicodeScalars.append(scalar)
        }
      }
    }
    output.append("\"")
  }
}
