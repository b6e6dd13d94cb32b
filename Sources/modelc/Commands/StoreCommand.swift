import ArgumentParsing

/// `modelc store …`: stores in Core Data's SQLite layout — create, import, export, info, seed.
enum StoreCommand: ModelcCommand {
  static var subcommands: [any ModelcCommand.Type] {
    [
      StoreCreateCommand.self, StoreImportCommand.self, StoreExportCommand.self, StoreInfoCommand.self,
      StoreSeedCommand.self,
    ]
  }

  static var spec: CommandSpec {
    CommandSpec(
      "store", abstract: "Create, fill, inspect and export stores in Core Data's SQLite layout.",
      discussion:
        "A store is a SQLite file laid out as Core Data lays out its stores, so stores written by Core Data open here and stores written here open in Core Data. Commands on an existing store open it at the model version its version hashes match.",
      subcommands: subcommands.map { $0.spec })
  }

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    try CommandGroup.run(subcommands, group: "store", arguments: arguments, terminal: terminal)
  }
}
