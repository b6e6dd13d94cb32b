import Testing

@testable import ArgumentParsing

/// Every usage error: exact message, command path and hint.
@Suite struct UsageErrorTests {
  private func message(_ spec: CommandSpec, _ arguments: [String]) -> String? {
    Fixtures.usageError(spec, arguments)?.message
  }

  @Test func unknownOptionNamesTheCommandAndHowToGetHelp() throws {
    let error = try #require(Fixtures.usageError(Fixtures.modelc, ["validate", "M", "--frobnicate"]))
    #expect(error.command == "modelc validate")
    #expect(error.message == "unknown option '--frobnicate'")
    #expect(error.hint == "see 'modelc validate --help'")
    #expect(error.description == "modelc validate: unknown option '--frobnicate'\nsee 'modelc validate --help'")
  }

  @Test func unknownOptionSuggestsACloseName() {
    #expect(
      message(Fixtures.modelc, ["fetch", "S", "--model", "M", "--entity", "E", "--fromat", "json"])
        == "unknown option '--fromat' (did you mean '--format'?)")
    #expect(message(Fixtures.task, ["list", "-x"]) == "unknown option '-x'")
  }

  @Test func optionsOfAnotherLevelAreUnknown() {
    #expect(
      message(Fixtures.modelc, ["store", "create", "S", "--model", "M", "--verbose"])
        == "unknown option '--verbose'")
  }

  @Test func missingValue() {
    let error = Fixtures.usageError(Fixtures.modelc, ["store", "create", "S", "--model"])
    #expect(error?.command == "modelc store create")
    #expect(error?.message == "missing value for option '--model' (expected MODEL)")
    #expect(
      message(Fixtures.modelc, ["store", "create", "S", "--model", "--dry-run"])
        == "missing value for option '--model' (expected MODEL)")
    #expect(
      message(Fixtures.modelc, ["store", "create", "S", "--model", "--"])
        == "missing value for option '--model' (expected MODEL)")
  }

  @Test func missingRequiredPositional() {
    #expect(
      message(Fixtures.modelc, ["store", "create", "--model", "M"]) == "missing required argument 'STORE'")
    #expect(message(Fixtures.modelc, ["validate"]) == "missing required argument 'MODEL'")
  }

  @Test func missingRequiredOption() {
    #expect(message(Fixtures.modelc, ["store", "create", "S"]) == "missing required option '--model'")
  }

  @Test func badInteger() {
    let base = ["fetch", "S", "--model", "M", "--entity", "E"]
    #expect(
      message(Fixtures.modelc, base + ["--limit", "ten"])
        == "invalid value 'ten' for option '--limit': expected an integer from 1 to 10000")
    #expect(
      message(Fixtures.modelc, base + ["--limit=0"])
        == "invalid value '0' for option '--limit': expected an integer from 1 to 10000")
    #expect(
      message(Fixtures.modelc, base + ["--offset", "1.5"])
        == "invalid value '1.5' for option '--offset': expected an integer")
    #expect(
      message(Fixtures.task, ["edit", "x"])
        == "invalid value 'x' for argument 'ID': expected an integer from 1 to \(Int.max)")
    #expect(
      message(Fixtures.task, ["delete", "1", "two"]) == "invalid value 'two' for argument 'ID': expected an integer")
  }

  @Test func badChoiceListsTheAllowedValues() {
    #expect(
      message(Fixtures.task, ["add", "T", "--priority", "urgent"])
        == "invalid value 'urgent' for option '--priority': expected one of: low, normal, high")
  }

  @Test func customValidation() {
    #expect(
      message(Fixtures.task, ["add", "T", "--due", "tomorrow"])
        == "invalid value 'tomorrow' for option '--due': expected a date like 2026-01-31")
  }

  @Test func conflictingFlagsInCommandLineOrder() {
    let error = Fixtures.usageError(Fixtures.task, ["list", "--done", "--pending"])
    #expect(error?.command == "task list")
    #expect(error?.message == "options '--done' and '--pending' cannot be used together")
    #expect(
      message(Fixtures.task, ["edit", "1", "--due", "2026-01-01", "--no-due"])
        == "options '--due' and '--no-due' cannot be used together")
  }

  @Test func unexpectedExtraPositional() {
    #expect(
      message(Fixtures.modelc, ["store", "import", "S", "F", "extra"]) == "unexpected argument 'extra'")
    #expect(message(Fixtures.task, ["list", "now"]) == "unexpected argument 'now'")
  }

  @Test func repeatedSingleOption() {
    #expect(
      message(Fixtures.modelc, ["store", "create", "S", "--model", "A", "--model", "B"])
        == "option '--model' was given more than once")
  }

  @Test func flagWithAValue() {
    #expect(message(Fixtures.task, ["list", "--done=yes"]) == "option '--done' does not take a value")
  }

  @Test func unknownAndMissingCommands() {
    let unknown = Fixtures.usageError(Fixtures.modelc, ["stor", "create"])
    #expect(unknown?.command == "modelc")
    #expect(
      unknown?.message == "unknown command 'stor' (did you mean 'store'?); expected one of: validate, store, fetch")
    let missing = Fixtures.usageError(Fixtures.modelc, ["store"])
    #expect(missing?.command == "modelc store")
    #expect(missing?.message == "missing command; expected one of: create, import")
    #expect(message(Fixtures.modelc, []) == "missing command; expected one of: validate, store, fetch")
  }

  @Test func exitCodes() {
    #expect(ExitCode.success.rawValue == 0)
    #expect(ExitCode.failure.rawValue == 1)
    #expect(ExitCode.usage.rawValue == 2)
  }
}
