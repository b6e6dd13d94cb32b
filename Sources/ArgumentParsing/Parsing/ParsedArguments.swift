/// The validated arguments of one command line, with typed accessors.
///
/// Names are the ones declared in the ``CommandSpec``: options and flags with their dashes
/// (`"--model"`), positionals by their name (`"STORE"`). Asking for a name the command does
/// not declare is a programming error and traps, so a typo cannot silently read as "absent".
/// Values were checked against their ``ValueType`` during parsing, so conversions here
/// cannot fail.
public struct ParsedArguments: Sendable {
  /// The command words, root first: `["modelc", "store", "create"]`.
  public let commandPath: [String]
  /// Every command from the root to the one that runs, for name lookups.
  let commands: [CommandSpec]
  /// Raw option values by long name, in command-line order.
  let optionValues: [String: [String]]
  /// Long names of the flags that were given.
  let givenFlags: Set<String>
  /// Values of each positional, by name.
  let positionalValues: [String: [String]]
  /// Every positional value, in order.
  public let positionals: [String]

  /// The subcommand words below the root (`["store", "create"]`), for dispatching.
  public var subcommandPath: [String] { Array(commandPath.dropFirst()) }

  /// The command that runs.
  public var command: CommandSpec { commands[commands.count - 1] }

  /// The value of an option (its last occurrence, else its default) or of a positional.
  public func value(_ name: String) -> String? {
    if name.hasPrefix("-") {
      let option = requireOption(name)
      return optionValues[option.name]?.last ?? option.defaultValue
    }
    return requirePositional(name).first
  }

  /// Every value of a repeatable option, or of a variadic positional, in order. An absent
  /// option with a default yields the default alone.
  public func values(_ name: String) -> [String] {
    if name.hasPrefix("-") {
      let option = requireOption(name)
      return optionValues[option.name] ?? option.defaultValue.map { [$0] } ?? []
    }
    return requirePositional(name)
  }

  /// Whether a flag was given.
  public func flag(_ name: String) -> Bool {
    for command in commands {
      if let flag = command.flag(named: name) { return givenFlags.contains(flag.name) }
    }
    preconditionFailure("\(commandPath.joined(separator: " ")) declares no flag named '\(name)'")
  }

  /// Whether an option was given explicitly (defaults don't count) or a positional has a value.
  public func contains(_ name: String) -> Bool {
    name.hasPrefix("-") ? optionValues[requireOption(name).name] != nil : !requirePositional(name).isEmpty
  }

  /// The value as an integer (declare it with ``ValueType/integer(_:)``).
  public func integer(_ name: String) -> Int? {
    value(name).flatMap { Int($0) }
  }

  /// Every value as an integer.
  public func integers(_ name: String) -> [Int] {
    values(name).compactMap { Int($0) }
  }

  /// The value as a `Double` (declare it with ``ValueType/number``).
  public func number(_ name: String) -> Double? {
    value(name).flatMap { Double($0) }
  }

  /// The value as a case of a string-backed enum (declare it with
  /// ``ValueType/choice(of:)``).
  public func value<Choice: RawRepresentable>(_ name: String, as type: Choice.Type) -> Choice?
  where Choice.RawValue == String {
    value(name).flatMap { Choice(rawValue: $0) }
  }

  /// The positional value at `index` (0-based, across all positionals), if present.
  public func positional(_ index: Int) -> String? {
    positionals.indices.contains(index) ? positionals[index] : nil
  }

  private func requireOption(_ name: String) -> OptionSpec {
    for command in commands {
      if let option = command.option(named: name) { return option }
    }
    preconditionFailure("\(commandPath.joined(separator: " ")) declares no option named '\(name)'")
  }

  private func requirePositional(_ name: String) -> [String] {
    guard command.positionals.contains(where: { $0.name == name }) else {
      preconditionFailure("\(commandPath.joined(separator: " ")) declares no argument named '\(name)'")
    }
    return positionalValues[name] ?? []
  }
}
