import ArgumentParsing
import DataModel
import Foundation
import Migration

/// `modelc diff MODEL [--from VERSION] [--to VERSION] [--format text|json] [--check]`: what
/// changed between two versions, whether lightweight migration can carry it out, and whether it
/// loses data — for reviews and CI.
enum DiffCommand: ModelcCommand {
  enum Format: String, CaseIterable {
    case text, json
  }

  static let spec = CommandSpec(
    "diff", abstract: "Show what changed between two versions of a model, and whether stores can migrate.",
    discussion: """
      Compares --from (default: the version before --to) with --to (default: the current version). Each change \
      says whether it changes a version hash (stores need migrating) and whether it loses stored data; the verdict \
      says whether lightweight migration can infer the step. With --check the exit status is 1 when the step \
      cannot be inferred or loses data, for CI.
      """,
    positionals: [.required("MODEL", help: "A .xcdatamodeld bundle.")],
    options: [
      OptionSpec("--from", value: "VERSION", help: "The older version (default: the one before --to)."),
      OptionSpec("--to", value: "VERSION", help: "The newer version (default: the current version)."),
      OptionSpec("--format", value: "FORMAT", type: .choice(of: Format.self), default: "text", help: "Output format."),
      OptionSpec(
        "--mappings", value: "DIR", repeatable: true,
        help: "A folder of mapping models (default: Migrations/ when it exists, and the model's folder)."),
    ],
    flags: [
      FlagSpec(
        "--check",
        help: "Exit 1 when the change loses data, or cannot be migrated lightweight and no mapping model covers it.")
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let bundle = try ModelLoading.load(arguments.positionals[0], terminal: terminal)
    let destination = try ModelLoading.version(arguments.value("--to"), in: bundle)
    let source: ModelVersion
    if let name = arguments.value("--from") {
      source = try ModelLoading.version(name, in: bundle)
    } else {
      guard let index = bundle.index(ofVersionNamed: destination.name), index > 0 else {
        throw CommandFailure(
          "'\(destination.name)' is the first version; there is nothing to compare it with",
          notes: ["pass --from and --to"])
      }
      source = bundle.versions[index - 1]
    }
    let diff = ModelDiff(from: source, to: destination)
    var refusals: [MigrationRefusal] = []
    do {
      _ = try LightweightInference.mappingModel(from: source, to: destination)
    } catch {
      refusals = error.refusals
    }
    let losesData = diff.allChanges.contains { $0.losesData }
    let modelPath = arguments.positionals[0]
    var coverage: String?
    var catalogMatch: LoadedMappingModel?
    if !refusals.isEmpty {
      let catalog = MappingCatalog.discover(
        in: MappingDirectories.resolve(arguments.values("--mappings"), modelPath: modelPath), bundle: bundle)
      catalogMatch = catalog.mapping(from: source.name, to: destination.name)
      coverage = MappingCoverage.line(from: source.name, to: destination.name, catalog: catalog, modelPath: modelPath)
    }
    let needsMigration = !diff.isHashCompatible
    if arguments.value("--format", as: Format.self) == .json {
      var object = JSONObjectBuilder()
      object.add("from", .string(source.name))
      object.add("to", .string(destination.name))
      object.add("needsMigration", .bool(needsMigration))
      object.add("lightweight", .bool(refusals.isEmpty))
      object.add(
        "coveredBy",
        catalogMatch.map {
          JSONValue.string(MappingCoverage.displayPath(MappingCoverage.mappingBundlePath($0.file.path)))
        }
          ?? .null)
      object.add("losesData", .bool(losesData))
      object.add(
        "changes",
        .array(
          diff.allChanges.map { change in
            var item = JSONObjectBuilder()
            item.add("kind", .string(change.kind.rawValue))
            item.add("entity", .string(change.entity))
            item.add("property", change.property)
            item.add("detail", .string(change.detail))
            item.add("changesHash", .bool(change.changesHash))
            item.add("losesData", .bool(change.losesData))
            return item.value
          }))
      object.add(
        "refusals",
        .array(
          refusals.map { refusal in
            var item = JSONObjectBuilder()
            item.add("entity", .string(refusal.entity))
            item.add("property", refusal.property)
            item.add("change", .string(refusal.change))
            item.add("reason", .string(refusal.reason))
            return item.value
          }))
      terminal.write(JSONWriter.prettyPrinted(object.value))
    } else {
      terminal.writeLine("'\(source.name)' → '\(destination.name)'")
      if diff.allChanges.isEmpty { terminal.writeLine("  no changes") }
      for change in diff.allChanges {
        let marks = (change.losesData ? " [loses data]" : "") + (change.changesHash ? "" : " [no migration needed]")
        terminal.writeLine("  \(change)\(marks)")
      }
      if !needsMigration {
        terminal.writeLine("Stores need no migration: the version hashes are equal.")
      } else if refusals.isEmpty {
        terminal.writeLine(
          "Lightweight migration can carry this out\(losesData ? ", dropping the data marked above" : "").")
      } else {
        terminal.writeLine("Lightweight migration cannot carry this out; a mapping model is needed for:")
        for refusal in refusals { terminal.writeLine("  \(refusal)") }
        if let coverage { terminal.writeLine(coverage) }
      }
    }
    if arguments.flag("--check") && ((!refusals.isEmpty && catalogMatch == nil) || losesData) { return .failure }
    return .success
  }
}
