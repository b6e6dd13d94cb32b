import ArgumentParsing
import Foundation
import Persistence

/// `modelc store export STORE --model MODEL [--entity NAME] --format json`: every object as JSON.
enum StoreExportCommand: ModelcCommand {
  enum Format: String, CaseIterable { case json }

  static let spec = CommandSpec(
    "export", abstract: "Print a store's objects as JSON, opening the store read-only.",
    discussion:
      "The JSON is an object keyed by entity name (objects of a sub-entity under their own entity), each an array of objects in primary-key order: \"_id\" (x-coredata://<store UUID>/<Entity>/p<Z_PK>), one key per attribute (null when nil) and one per relationship (to-one: an \"_id\" or null; to-many: an array of \"_id\"s). Numbers are JSON numbers (\"inf\"/\"-inf\" for infinities), Decimal a string, Date ISO 8601 UTC with milliseconds, Binary and Transformable base64, UUID and URI strings.",
    positionals: [.required("STORE", help: "The store to read.")],
    options: [
      StoreOpening.modelOption,
      OptionSpec(
        "--entity", value: "NAME", repeatable: true, help: "Only this entity and its sub-entities (repeatable)."),
      OptionSpec("--format", value: "FORMAT", type: .choice(of: Format.self), default: "json", help: "Output format."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let bundle = try ModelLoading.load(arguments.value("--model")!, terminal: terminal)
    let container = try StoreOpening.open(arguments.value("STORE")!, bundle: bundle, readOnly: true)
    let entities = arguments.values("--entity")
    let document = try StoreExport.json(of: container.newContext(), entityNames: entities.isEmpty ? nil : entities)
    terminal.write(JSONWriter.prettyPrinted(document))
    return .success
  }
}
