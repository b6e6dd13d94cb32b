import ArgumentParsing

/// Output formats of `modelc fetch`, for `ValueType.choice(of:)`.
enum FetchFormat: String, CaseIterable {
  case json
  case table
}

/// Task priorities, for `ValueType.choice(of:)`.
enum Priority: String, CaseIterable {
  case low
  case normal
  case high
}

/// Slices of the real `modelc` and `task` command lines, as the executables will declare them.
enum Fixtures {
  static let modelc = CommandSpec(
    "modelc", abstract: "Core Data models, stores and migrations on every platform.",
    flags: [FlagSpec("--verbose", short: "-v", help: "Log every step.")],
    subcommands: [
      CommandSpec(
        "validate", abstract: "Check data models for errors.",
        positionals: [.variadic("MODEL", help: "Model files to check.")],
        options: [OptionSpec("--format", value: "FORMAT", type: .choice(of: FetchFormat.self), default: "table")]),
      CommandSpec(
        "store", abstract: "Create and fill stores.",
        subcommands: [
          CommandSpec(
            "create", abstract: "Create an empty store for a model.",
            positionals: [.required("STORE", help: "The store file to create.")],
            options: [
              OptionSpec("--model", short: "-m", value: "MODEL", required: true, help: "The data model."),
              OptionSpec("--version", value: "NAME", help: "The model version to use."),
            ],
            flags: [FlagSpec("--dry-run", help: "Show what would happen.")]),
          CommandSpec(
            "import", abstract: "Import JSON records into a store.",
            positionals: [.required("STORE"), .optional("FILE", help: "JSON file; standard input if omitted.")]),
        ]),
      CommandSpec(
        "fetch", abstract: "Fetch objects from a store.",
        positionals: [.required("STORE")],
        options: [
          OptionSpec("--model", value: "MODEL", required: true),
          OptionSpec("--entity", value: "ENTITY", required: true),
          OptionSpec("--where", value: "PREDICATE"),
          OptionSpec("--sort", value: "KEYS"),
          OptionSpec("--limit", value: "N", type: .integer(1...10_000)),
          OptionSpec("--offset", value: "N", type: .integer()),
          OptionSpec("--format", value: "FORMAT", type: .choice(of: FetchFormat.self), default: "table"),
        ],
        flags: [FlagSpec("--count")]),
    ])

  static let task = CommandSpec(
    "task", abstract: "A small task list.",
    subcommands: [
      CommandSpec(
        "add", abstract: "Add a task.",
        positionals: [.required("TITLE")],
        options: [
          OptionSpec(
            "--due", value: "DATE",
            type: .custom(expected: "a date like 2026-01-31", isValid: { $0.split(separator: "-").count == 3 })),
          OptionSpec("--priority", value: "LEVEL", type: .choice(of: Priority.self)),
          OptionSpec("--tag", value: "TAG", repeatable: true),
        ]),
      CommandSpec(
        "edit", abstract: "Change a task.",
        positionals: [.required("ID", type: .integer(1...Int.max))],
        options: [OptionSpec("--due", value: "DATE"), OptionSpec("--title", value: "TITLE")],
        flags: [FlagSpec("--no-due", help: "Remove the due date.")],
        exclusiveGroups: [["--due", "--no-due"]]),
      CommandSpec(
        "list", abstract: "List tasks.",
        flags: [FlagSpec("--pending"), FlagSpec("--done")],
        exclusiveGroups: [["--pending", "--done"]]),
      CommandSpec(
        "delete", abstract: "Delete tasks.",
        positionals: [.variadic("ID", type: .integer())]),
    ])

  /// Parses and expects a command to run.
  static func run(_ spec: CommandSpec, _ arguments: [String]) throws -> ParsedArguments {
    switch try spec.parse(arguments) {
    case .run(let parsed): return parsed
    case .help(let text): throw UnexpectedHelp(text: text)
    }
  }

  /// Parses and returns the usage error, if any.
  static func usageError(_ spec: CommandSpec, _ arguments: [String]) -> UsageError? {
    do {
      _ = try spec.parse(arguments)
      return nil
    } catch {
      return error
    }
  }
}

struct UnexpectedHelp: Error {
  let text: String
}
