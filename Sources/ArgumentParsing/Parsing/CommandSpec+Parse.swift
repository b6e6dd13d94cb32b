/// Parsing a command line against a specification.
extension CommandSpec {
  /// Parses `arguments` (the command line without the executable's name) against this
  /// root command and its subcommands.
  ///
  /// Rules: options and flags may appear anywhere among the positionals; `--name=value` and
  /// `--name value` are equivalent (the latter takes the next word as the value unless it
  /// looks like an option; a negative number is a value); `--` makes every later word a
  /// positional; `-h`/`--help` anywhere before `--` asks for the help of the command named
  /// so far. A command's options must follow its own name: `modelc store create --model M`.
  ///
  /// - Returns: ``ParseResult/run(_:)`` with validated arguments, or ``ParseResult/help(_:)``.
  /// - Throws: ``UsageError`` naming the command and the offending word.
  public func parse(_ arguments: [String]) throws(UsageError) -> ParseResult {
    let problems = self.problems
    precondition(problems.isEmpty, "invalid command specification: \(problems.joined(separator: "; "))")
    var parser = CommandLineParser(root: self, tokens: arguments)
    return try parser.parse()
  }
}

/// The state of one parse: which command is current and what was collected so far.
private struct CommandLineParser {
  var commands: [CommandSpec]
  let tokens: [String]
  var index = 0
  var optionValues: [String: [String]] = [:]
  var givenFlags: Set<String> = []
  var firstPosition: [String: Int] = [:]
  var positionalTokens: [String] = []

  init(root: CommandSpec, tokens: [String]) {
    self.commands = [root]
    self.tokens = tokens
  }

  var current: CommandSpec { commands[commands.count - 1] }
  var commandPath: [String] { commands.map(\.name) }

  func usageError(_ message: String) -> UsageError {
    UsageError(command: commandPath.joined(separator: " "), message: message)
  }

  mutating func parse() throws(UsageError) -> ParseResult {
    var optionsEnded = false
    while index < tokens.count {
      let token = tokens[index]
      index += 1
      if !optionsEnded {
        if token == "--" {
          optionsEnded = true
          continue
        }
        if token == "-h" || token == "--help" {
          return .help(HelpFormatter(commands: commands).text)
        }
        if Self.isOptionLike(token) {
          try parseOption(token)
          continue
        }
      }
      if current.subcommands.isEmpty {
        positionalTokens.append(token)
      } else if let subcommand = current.subcommand(named: token) {
        commands.append(subcommand)
      } else {
        var message = "unknown command '\(token)'"
        if let suggestion = Suggestion.closest(to: token, among: current.subcommands.map(\.name)) {
          message += " (did you mean '\(suggestion)'?)"
        }
        throw usageError(message + "; expected one of: \(current.subcommands.map(\.name).joined(separator: ", "))")
      }
    }
    if !current.subcommands.isEmpty {
      throw usageError("missing command; expected one of: \(current.subcommands.map(\.name).joined(separator: ", "))")
    }
    let positionalValues = try assignPositionals()
    try checkRequiredOptions()
    try checkExclusiveGroups()
    return .run(
      ParsedArguments(
        commandPath: commandPath, commands: commands, optionValues: optionValues, givenFlags: givenFlags,
        positionalValues: positionalValues, positionals: positionalTokens))
  }

  /// A word that names an option rather than being a value: starts with `-`, is not `-`
  /// alone (conventionally standard input) and is not a negative number.
  static func isOptionLike(_ token: String) -> Bool {
    token.count > 1 && token.hasPrefix("-") && Double(token) == nil
  }

  mutating func parseOption(_ token: String) throws(UsageError) {
    var name = token
    var inlineValue: String?
    if token.hasPrefix("--"), let equals = token.firstIndex(of: "=") {
      name = String(token[..<equals])
      inlineValue = String(token[token.index(after: equals)...])
    }
    if let flag = current.flag(named: name) {
      if inlineValue != nil { throw usageError("option '\(name)' does not take a value") }
      givenFlags.insert(flag.name)
      record(flag.name)
      return
    }
    guard let option = current.option(named: name) else {
      var message = "unknown option '\(name)'"
      let candidates = current.options.map(\.name) + current.flags.map(\.name) + ["--help"]
      if name.hasPrefix("--"), let suggestion = Suggestion.closest(to: name, among: candidates) {
        message += " (did you mean '\(suggestion)'?)"
      }
      throw usageError(message)
    }
    let value: String
    if let inlineValue {
      value = inlineValue
    } else if index < tokens.count, !Self.isOptionLike(tokens[index]), tokens[index] != "--" {
      value = tokens[index]
      index += 1
    } else {
      throw usageError("missing value for option '\(name)' (expected \(option.valueName))")
    }
    if let expectation = option.type.expectation(for: value) {
      throw usageError("invalid value '\(value)' for option '\(name)': expected \(expectation)")
    }
    if !option.isRepeatable && optionValues[option.name] != nil {
      throw usageError("option '\(option.name)' was given more than once")
    }
    optionValues[option.name, default: []].append(value)
    record(option.name)
  }

  mutating func record(_ name: String) {
    if firstPosition[name] == nil { firstPosition[name] = index }
  }

  func assignPositionals() throws(UsageError) -> [String: [String]] {
    var remaining = positionalTokens[...]
    var values: [String: [String]] = [:]
    for positional in current.positionals {
      let taken: [String]
      switch positional.arity {
      case .required:
        guard let value = remaining.popFirst() else {
          throw usageError("missing required argument '\(positional.name)'")
        }
        taken = [value]
      case .optional:
        taken = remaining.popFirst().map { [$0] } ?? []
      case .variadic(let minimum):
        taken = Array(remaining)
        remaining = []
        if taken.count < minimum {
          throw usageError(
            minimum == 1
              ? "missing required argument '\(positional.name)'"
              : "expected at least \(minimum) values for argument '\(positional.name)', got \(taken.count)")
        }
      }
      for value in taken {
        if let expectation = positional.type.expectation(for: value) {
          throw usageError("invalid value '\(value)' for argument '\(positional.name)': expected \(expectation)")
        }
      }
      if !taken.isEmpty { values[positional.name] = taken }
    }
    if let extra = remaining.first {
      throw usageError("unexpected argument '\(extra)'")
    }
    return values
  }

  func checkRequiredOptions() throws(UsageError) {
    for command in commands {
      for option in command.options where option.isRequired && optionValues[option.name] == nil {
        throw usageError("missing required option '\(option.name)'")
      }
    }
  }

  func checkExclusiveGroups() throws(UsageError) {
    for command in commands {
      for group in command.exclusiveGroups {
        let given = group.compactMap { member -> (name: String, position: Int)? in
          let longName = command.option(named: member)?.name ?? command.flag(named: member)?.name ?? member
          return firstPosition[longName].map { (longName, $0) }
        }.sorted { $0.position < $1.position }
        if given.count >= 2 {
          throw usageError("options '\(given[0].name)' and '\(given[1].name)' cannot be used together")
        }
      }
    }
  }
}
