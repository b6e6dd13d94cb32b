import ArgumentParsing
import Foundation
import Persistence

/// `modelc store import STORE --model MODEL FILE.json`: objects from JSON, in one transaction.
enum StoreImportCommand: ModelcCommand {
  static let spec = CommandSpec(
    "import", abstract: "Add the objects of a JSON file to a store, all or nothing.",
    discussion:
      "The JSON is what 'modelc store export' writes: an object keyed by entity name, each an array of objects with an \"_id\" label (which relationships in the file refer to) and one key per attribute and relationship. The whole file is saved in one transaction; any problem (an unknown key, a value of the wrong type, a number that overflows its attribute, a broken rule of the model) refuses the whole file, lists every problem, and leaves the store unchanged.",
    positionals: [
      .required("STORE", help: "An existing store."),
      .required("FILE", help: "The JSON file to import."),
    ],
    options: [StoreOpening.modelOption])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let path = arguments.value("STORE")!
    let file = arguments.value("FILE")!
    let bundle = try ModelLoading.load(arguments.value("--model")!, terminal: terminal)
    let text = try InputFile.readText(file)
    let container = try StoreOpening.open(path, bundle: bundle, readOnly: false)
    let summary: StoreImport.Summary
    do {
      summary = try StoreImport.importJSON(text, into: container.newContext())
    } catch {
      let count = error.problems.count
      throw CommandFailure(
        "the import of '\(file)' was refused (\(count) problem\(count == 1 ? "" : "s")); the store is unchanged",
        details: error.problems.map(\.description))
    }
    PhaseTrace.record("import: committed")
    let parts = summary.insertedObjects.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
    terminal.writeLine(
      "imported \(summary.total) object\(summary.total == 1 ? "" : "s") into \(path)\(parts.isEmpty ? "" : " (\(parts.joined(separator: ", ")))")"
    )
    return .success
  }
}
