import Testing

@testable import ArgumentParsing

/// Generated help text, compared exactly.
@Suite struct HelpTextTests {
  @Test func leafCommandHelp() throws {
    let spec = CommandSpec(
      "tool", abstract: "Demonstrate help.", discussion: "Options may come in any order.",
      positionals: [.required("INPUT", help: "The file to read."), .variadic("EXTRA", minimum: 0)],
      options: [
        OptionSpec("--output", short: "-o", value: "PATH", required: true, help: "Where to write."),
        OptionSpec("--level", value: "N", type: .integer(1...9), default: "5", help: "Compression level."),
        OptionSpec("--tag", value: "TAG", repeatable: true, help: "Label the result."),
        OptionSpec("--format", value: "FORMAT", type: .choice(["json", "table"])),
      ],
      flags: [FlagSpec("--fast", help: "Trade size for speed."), FlagSpec("--small")],
      exclusiveGroups: [["--fast", "--small"]])
    let expected = """
      Demonstrate help.

      Options may come in any order.

      Usage: tool INPUT [EXTRA...] --output PATH [--level N] [--tag TAG ...] [--format FORMAT] [--fast | --small]

      Arguments:
        INPUT              The file to read.
        EXTRA

      Options:
        -o, --output PATH  Where to write.
        --level N          Compression level. (1 to 9; default: 5)
        --tag TAG          Label the result. (repeatable)
        --format FORMAT    (one of: json, table)
        --fast             Trade size for speed.
        --small
        -h, --help         Show this help.

      """
    #expect(spec.helpText() == expected)
    guard case .help(let parsed) = try spec.parse(["--help"]) else {
      Issue.record("expected help")
      return
    }
    #expect(parsed == expected)
  }

  @Test func commandWithSubcommandsHelp() throws {
    let expected = """
      Create and fill stores.

      Usage: modelc store <command>

      Options:
        -h, --help  Show this help.

      Commands:
        create      Create an empty store for a model.
        import      Import JSON records into a store.

      Run 'modelc store <command> --help' for help on a command.

      """
    #expect(Fixtures.modelc.helpText(for: ["store"]) == expected)
  }

  @Test func rootHelpShowsItsOwnFlagsBeforeTheCommand() {
    let text = Fixtures.modelc.helpText() ?? ""
    #expect(text.contains("Usage: modelc [--verbose] <command>\n"))
    #expect(text.contains("  -v, --verbose  Log every step.\n"))
    #expect(text.contains("  validate       Check data models for errors.\n"))
  }

  @Test func longLabelsWrapTheirHelpToTheNextLine() {
    let spec = CommandSpec(
      "tool",
      options: [
        OptionSpec("--a-very-long-option-name", value: "SOME-VALUE", help: "Long."),
        OptionSpec("--b", value: "X", help: "Short."),
      ])
    #expect(
      spec.helpText()
        == """
        Usage: tool [--a-very-long-option-name SOME-VALUE] [--b X]

        Options:
          --a-very-long-option-name SOME-VALUE
                                        Long.
          --b X                         Short.
          -h, --help                    Show this help.

        """)
  }

  @Test func unknownSubcommandHasNoHelp() {
    #expect(Fixtures.modelc.helpText(for: ["nope"]) == nil)
  }
}
