import ArgumentParsing
import Foundation
import Persistence

/// `modelc store create STORE --model MODEL [--version NAME]`: a new, empty store.
enum StoreCreateCommand: ModelcCommand {
  static let spec = CommandSpec(
    "create", abstract: "Create an empty store for a model version, in Core Data's layout.",
    discussion: "Never overwrites: an existing STORE (or a -wal file left beside it) is an error.",
    positionals: [.required("STORE", help: "The SQLite file to create.")],
    options: [
      StoreOpening.modelOption,
      OptionSpec("--version", value: "NAME", help: "The model version (default: the current version)."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let path = arguments.value("STORE")!
    for existing in [path, path + "-wal"] where FileManager.default.fileExists(atPath: existing) {
      throw CommandFailure(
        "'\(existing)' already exists; 'modelc store create' never overwrites a store",
        notes: ["remove it first, or fill it with 'modelc store import' or 'modelc store seed'"])
    }
    let bundle = try ModelLoading.load(arguments.value("--model")!, terminal: terminal)
    let version = try ModelLoading.version(arguments.value("--version"), in: bundle)
    let container = try PersistentContainer(
      bundle: bundle, versionName: version.name, options: .file(URL(fileURLWithPath: path)))
    let entities = version.entities.count
    terminal.writeLine(
      "created \(path) at version '\(version.name)' (\(entities) entit\(entities == 1 ? "y" : "ies"), store UUID \(container.storeUUID))"
    )
    return .success
  }
}
