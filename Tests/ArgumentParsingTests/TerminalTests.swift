import Testing

@testable import ArgumentParsing

/// Colour and progress decisions of the terminal helper.
@Suite struct TerminalTests {
  @Test func colorOnlyOnATerminal() {
    let terminal = Terminal(standardOutputIsTTY: true, standardErrorIsTTY: false)
    #expect(terminal.usesColor(on: .standardOutput))
    #expect(!terminal.usesColor(on: .standardError))
    #expect(terminal.styled("ok", .green, on: .standardOutput) == "\u{1B}[32mok\u{1B}[0m")
    #expect(terminal.styled("error", .red, .bold, on: .standardError) == "error")
  }

  @Test func noColorAndDumbTerminalsDisableColor() {
    for environment in [["NO_COLOR": "1"], ["NO_COLOR": "yes", "TERM": "xterm"], ["TERM": "dumb"]] {
      let terminal = Terminal(standardOutputIsTTY: true, standardErrorIsTTY: true, environment: environment)
      #expect(!terminal.usesColor(on: .standardOutput))
      #expect(terminal.styled("x", .red, on: .standardOutput) == "x")
      #expect(terminal.isTTY(.standardError))
    }
    let emptyNoColor = Terminal(standardOutputIsTTY: true, standardErrorIsTTY: true, environment: ["NO_COLOR": ""])
    #expect(emptyNoColor.usesColor(on: .standardOutput))
  }

  @Test func ansiWrapping() {
    #expect(TerminalStyle.apply([.bold, .cyan], to: "name") == "\u{1B}[1;36mname\u{1B}[0m")
    #expect(TerminalStyle.apply([], to: "plain") == "plain")
    #expect(TerminalStyle.apply([.red], to: "") == "")
    #expect(TerminalStyle.apply([.gray, .underline, .dim], to: "g") == "\u{1B}[90;4;2mg\u{1B}[0m")
  }

  @Test func progressIsSilentWhenNotATerminal() {
    // Not on a terminal: nothing to write, so logs and pipes never see progress.
    let quiet = Terminal(standardOutputIsTTY: true, standardErrorIsTTY: false)
    #expect(quiet.progressText("working") == nil)
    #expect(quiet.progressText("") == nil)
    // On a terminal: the line is erased and rewritten in place.
    let shown = Terminal(standardOutputIsTTY: false, standardErrorIsTTY: true)
    #expect(shown.progressText("working") == "\r\u{1B}[2Kworking")
    #expect(shown.progressText("") == "\r\u{1B}[2K")
  }

  @Test func currentReflectsTheProcess() {
    let terminal = Terminal.current()
    #expect(terminal.isTTY(.standardOutput) == terminal.standardOutputIsTTY)
  }
}
