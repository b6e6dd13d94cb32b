/// Accumulates generated Swift line by line with indentation, the way swift-protobuf's
/// generator prints: callers say what to print, the printer keeps the layout.
struct CodePrinter {
  private(set) var text = ""
  private var indentation = ""
  private var pendingBlankLine = false

  /// Prints one line at the current indentation (an empty string prints an empty line).
  mutating func line(_ content: String) {
    flushBlankLine()
    text += content.isEmpty ? "\n" : indentation + content + "\n"
  }

  /// Prints each line of a multi-line string as is, without indentation (string literals).
  mutating func verbatim(_ content: String) {
    flushBlankLine()
    text += content
    if !content.hasSuffix("\n") { text += "\n" }
  }

  /// Asks for one empty line before whatever is printed next (never two in a row, none at
  /// the start of a block).
  mutating func blankLine() {
    pendingBlankLine = !text.isEmpty && !text.hasSuffix("{\n") && !text.hasSuffix(" in\n")
  }

  /// Prints `///` documentation lines.
  mutating func documentation(_ lines: [String]) {
    for (index, content) in lines.enumerated() {
      if index > 0 { line("///") }
      line("/// " + content)
    }
  }

  /// Prints `opener {`, the body one level deeper, and `}`.
  mutating func block(_ opener: String, _ body: (inout CodePrinter) -> Void) {
    nested(opener + " {", "}", body)
  }

  /// Prints the opening line, the body one level deeper (or at the same level, for the cases
  /// of a `switch`), and the closing line.
  mutating func nested(
    _ opening: String, _ closing: String, indentsBody: Bool = true, _ body: (inout CodePrinter) -> Void
  ) {
    line(opening)
    if indentsBody { indentation += "  " }
    pendingBlankLine = false
    body(&self)
    pendingBlankLine = false
    if indentsBody { indentation.removeLast(2) }
    line(closing)
  }

  private mutating func flushBlankLine() {
    if pendingBlankLine { text += "\n" }
    pendingBlankLine = false
  }
}
