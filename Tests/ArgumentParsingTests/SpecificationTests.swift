import Testing

@testable import ArgumentParsing

/// Mistakes in specifications are reported before any user sees them.
@Suite struct SpecificationTests {
  @Test func problemsAreListed() {
    let spec = CommandSpec(
      "tool",
      positionals: [.optional("A"), .required("B"), .variadic("C"), .required("D")],
      options: [OptionSpec("--x", value: "X"), OptionSpec("--help", value: "H"), OptionSpec("y", value: "Y")],
      flags: [FlagSpec("--x")],
      exclusiveGroups: [["--x", "--z"]],
      subcommands: [CommandSpec("sub"), CommandSpec("sub", flags: [FlagSpec("--q"), FlagSpec("--q")])])
    #expect(
      spec.problems == [
        "tool: option '--help' is declared twice",
        "tool: option name 'y' must start with '-' or '--'",
        "tool: option '--x' is declared twice",
        "tool: required argument 'B' follows an optional one",
        "tool: variadic argument 'C' must be the last one",
        "tool: required argument 'D' follows an optional one",
        "tool: exclusive group member '--z' is not an option of this command",
        "tool: a command with subcommands cannot take positional arguments",
        "tool: two subcommands share a name",
        "sub: option '--q' is declared twice",
      ])
  }

  @Test func suggestions() {
    #expect(Suggestion.editDistance("kitten", "sitting") == 3)
    #expect(Suggestion.editDistance("", "abc") == 3)
    #expect(Suggestion.closest(to: "--limt", among: ["--limit", "--list"]) == "--limit")
    #expect(Suggestion.closest(to: "--zzz", among: ["--limit"]) == nil)
    #expect(Suggestion.closest(to: "x", among: ["y"]) == "y")
  }
}
