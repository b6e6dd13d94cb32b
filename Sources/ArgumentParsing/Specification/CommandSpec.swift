/// The declarative description of a command: its positionals, options, flags and
/// subcommands, from which the parser and the help text are both derived.
///
/// A tool is a root `CommandSpec` (named after the executable) whose subcommands may have
/// subcommands of their own: `modelc` → `store` → `create`. A command with subcommands takes
/// no positionals; its own options and flags, if any, go before the subcommand's name.
///
/// ```swift
/// let create = CommandSpec(
///   "create", abstract: "Create an empty store for a model.",
///   positionals: [.required("STORE", help: "The store file to create.")],
///   options: [OptionSpec("--model", value: "MODEL", required: true, help: "The data model.")],
///   flags: [FlagSpec("--dry-run", help: "Show what would happen.")])
/// ```
public struct CommandSpec: Sendable {
  /// The command's name: the executable's name for the root, the word typed for a subcommand.
  public var name: String
  /// A one-line summary, shown in the command's help and in its parent's command list.
  public var abstract: String
  /// More paragraphs of help, shown after the abstract.
  public var discussion: String?
  /// The positional arguments, in order.
  public var positionals: [PositionalSpec]
  /// The options that take values.
  public var options: [OptionSpec]
  /// The flags.
  public var flags: [FlagSpec]
  /// Groups of option or flag names of which at most one may be given (`--pending | --done`).
  public var exclusiveGroups: [[String]]
  /// The subcommands; when non-empty, one of them must be named.
  public var subcommands: [CommandSpec]

  /// Declares a command.
  public init(
    _ name: String, abstract: String = "", discussion: String? = nil, positionals: [PositionalSpec] = [],
    options: [OptionSpec] = [], flags: [FlagSpec] = [], exclusiveGroups: [[String]] = [],
    subcommands: [CommandSpec] = []
  ) {
    self.name = name
    self.abstract = abstract
    self.discussion = discussion
    self.positionals = positionals
    self.options = options
    self.flags = flags
    self.exclusiveGroups = exclusiveGroups
    self.subcommands = subcommands
  }

  /// The subcommand called `name`, if any.
  public func subcommand(named name: String) -> CommandSpec? {
    subcommands.first { $0.name == name }
  }

  /// Mistakes in this specification and its subcommands' (duplicate names, a required
  /// positional after an optional one…), one sentence each; empty when the spec is sound.
  ///
  /// The parser refuses to run an unsound spec (a programming error), so a unit test that
  /// asserts this is empty catches mistakes before any user sees them.
  public var problems: [String] {
    var problems: [String] = []
    var names: Set<String> = ["-h", "--help"]
    let declared: [String?] =
      options.flatMap { [$0.name, $0.shortName] } + flags.flatMap { [$0.name, $0.shortName] }
    for case let name? in declared {
      if !name.hasPrefix("-") || name == "-" || name == "--" {
        problems.append("\(self.name): option name '\(name)' must start with '-' or '--'")
      }
      if !names.insert(name).inserted { problems.append("\(self.name): option '\(name)' is declared twice") }
    }
    var sawOptional = false
    for (index, positional) in positionals.enumerated() {
      switch positional.arity {
      case .required where sawOptional:
        problems.append("\(self.name): required argument '\(positional.name)' follows an optional one")
      case .required:
        break
      case .optional:
        sawOptional = true
      case .variadic:
        sawOptional = true
        if index != positionals.count - 1 {
          problems.append("\(self.name): variadic argument '\(positional.name)' must be the last one")
        }
      }
    }
    if Set(positionals.map(\.name)).count != positionals.count {
      problems.append("\(self.name): two positional arguments share a name")
    }
    for group in exclusiveGroups {
      for member in group where !names.contains(member) {
        problems.append("\(self.name): exclusive group member '\(member)' is not an option of this command")
      }
    }
    if !subcommands.isEmpty && !positionals.isEmpty {
      problems.append("\(self.name): a command with subcommands cannot take positional arguments")
    }
    if Set(subcommands.map(\.name)).count != subcommands.count {
      problems.append("\(self.name): two subcommands share a name")
    }
    return problems + subcommands.flatMap(\.problems)
  }

  /// The option called `name` (long or short), if declared.
  func option(named name: String) -> OptionSpec? {
    options.first { $0.name == name || $0.shortName == name }
  }

  /// The flag called `name` (long or short), if declared.
  func flag(named name: String) -> FlagSpec? {
    flags.first { $0.name == name || $0.shortName == name }
  }
}
