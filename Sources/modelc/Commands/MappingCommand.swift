import ArgumentParsing
import DataModel
import Foundation
import Migration

/// `modelc mapping …`: Xcode mapping models (`.xcmappingmodel`) and compiled ones (`.cdm`) —
/// show, check, and start new ones.
enum MappingCommand: ModelcCommand {
  static var subcommands: [any ModelcCommand.Type] {
    [MappingShowCommand.self, MappingCheckCommand.self, MappingNewCommand.self]
  }

  static var spec: CommandSpec {
    CommandSpec(
      "mapping", abstract: "Show, check and create mapping models for heavyweight migrations.",
      discussion:
        "A mapping model says how a store of one model version becomes a store of another when lightweight migration cannot infer it. modelc reads Xcode's .xcmappingmodel bundles and compiled .cdm files, matches them to the model's versions by version hashes, and writes new ones Xcode opens. See docs/mappings.md.",
      subcommands: subcommands.map { $0.spec })
  }

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    try CommandGroup.run(subcommands, group: "mapping", arguments: arguments, terminal: terminal)
  }

  /// The model a mapping command works against: `--model`, else the only `.xcdatamodeld` in the
  /// mapping's folder or in its parent.
  static func modelPath(for mappingPath: String, explicit: String?) throws -> String {
    if let explicit { return explicit }
    var folder = URL(fileURLWithPath: mappingPath).standardizedFileURL
    if folder.lastPathComponent == "xcmapping.xml" { folder.deleteLastPathComponent() }
    folder.deleteLastPathComponent()
    for candidate in [folder, folder.deletingLastPathComponent()] {
      let entries = (try? FileManager.default.contentsOfDirectory(atPath: candidate.path)) ?? []
      let bundles = entries.filter { $0.hasSuffix(".xcdatamodeld") }.sorted()
      if bundles.count == 1 { return candidate.appendingPathComponent(bundles[0]).path }
      if bundles.count > 1 {
        throw UsageError(
          command: "modelc mapping",
          message: "several models are next to the mapping (\(bundles.joined(separator: ", "))): name one with --model")
      }
    }
    throw UsageError(
      command: "modelc mapping", message: "no .xcdatamodeld next to the mapping model: name its model with --model")
  }

  /// Loads a mapping model, turning a read error into the command's failure.
  static func load(_ path: String, bundle: ModelBundle, terminal: Terminal) throws -> LoadedMappingModel {
    do {
      return try MappingModelLoader.load(contentsOf: URL(fileURLWithPath: path), bundle: bundle)
    } catch {
      terminal.writeLine(error.description, to: .standardError)
      throw CommandFailure("cannot read the mapping model at '\(path)'")
    }
  }
}

/// `modelc mapping show MAPPING [--model MODEL] [--format text|json]`.
enum MappingShowCommand: ModelcCommand {
  enum Format: String, CaseIterable { case text, json }

  static let spec = CommandSpec(
    "show", abstract: "Print a mapping model: the versions it maps and every entity and property mapping.",
    discussion:
      "Expressions print in NSExpression's format syntax, with the defaults Xcode's mapping compiler applies filled in. Exit status 0, or 1 when the mapping cannot be read.",
    positionals: [.required("MAPPING", help: "An .xcmappingmodel bundle, its xcmapping.xml, or a compiled .cdm file.")],
    options: [
      OptionSpec(
        "--model", value: "MODEL",
        help: "The .xcdatamodeld bundle (default: the only one next to the mapping or in its parent folder)."),
      OptionSpec("--format", value: "FORMAT", type: .choice(of: Format.self), default: "text", help: "Output format."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let mappingPath = arguments.positionals[0]
    let bundle = try ModelLoading.load(
      MappingCommand.modelPath(for: mappingPath, explicit: arguments.value("--model")), terminal: terminal)
    let loaded = try MappingCommand.load(mappingPath, bundle: bundle, terminal: terminal)
    switch arguments.value("--format", as: Format.self) ?? .text {
    case .json: terminal.writeLine(JSONWriter.prettyPrinted(loaded.json))
    case .text: terminal.writeLine(loaded.text)
    }
    return .success
  }
}

/// `modelc mapping check [MAPPING...] --model MODEL [--mappings DIR]...`.
enum MappingCheckCommand: ModelcCommand {
  static let spec = CommandSpec(
    "check", abstract: "Check mapping models against the two versions they map.",
    discussion: """
      Reports a mapping whose versions were edited after it was made (orphaned), entities and properties it \
      names that do not exist, two mappings of the same pair, required attributes left without a value, \
      expressions reading source keys that do not exist, and custom policy classes. Without MAPPING, checks \
      every mapping model under the --mappings folders (default: Migrations/ and the model's folder).
      Exit status: 0 clean (warnings allowed), 1 errors, 2 usage error.
      """,
    positionals: [.variadic("MAPPING", minimum: 0, help: "An .xcmappingmodel bundle or a compiled .cdm file.")],
    options: [
      OptionSpec("--model", value: "MODEL", required: true, help: "The .xcdatamodeld bundle the mappings belong to."),
      OptionSpec(
        "--mappings", value: "DIR", repeatable: true,
        help: "A folder of mapping models (default: Migrations/ when it exists, and the model's folder)."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let modelPath = arguments.value("--model")!
    let bundle = try ModelLoading.load(modelPath, terminal: terminal)
    var loaded: [LoadedMappingModel] = []
    var failed = false
    if arguments.positionals.isEmpty {
      let directories = MappingDirectories.resolve(arguments.values("--mappings"), modelPath: modelPath)
      let catalog = MappingCatalog.discover(in: directories, bundle: bundle)
      for problem in catalog.problems {
        terminal.writeLine(problem.description, to: .standardError)
        failed = true
      }
      loaded = catalog.mappings
      if loaded.isEmpty && catalog.problems.isEmpty {
        terminal.writeLine("no mapping models under \(directories.map(\.path).joined(separator: ", "))")
      }
    } else {
      for path in arguments.positionals {
        do {
          loaded.append(try MappingModelLoader.load(contentsOf: URL(fileURLWithPath: path), bundle: bundle))
        } catch {
          terminal.writeLine(error.description, to: .standardError)
          failed = true
        }
      }
    }
    for mapping in loaded {
      let diagnostics = MappingChecker.check(mapping, bundle: bundle)
      for diagnostic in diagnostics {
        terminal.writeLine(diagnostic.description, to: diagnostic.severity == .error ? .standardError : .standardOutput)
      }
      let errors = diagnostics.errors.count
      let warnings = diagnostics.warnings.count
      if errors > 0 { failed = true }
      let versions = "\(mapping.source.version ?? "?") → \(mapping.destination.version ?? "?")"
      terminal.writeLine(
        "\(mapping.file.path): \(errors > 0 ? "invalid" : "valid") (\(versions), \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"))"
      )
    }
    return failed ? .failure : .success
  }
}

/// The folders `--mappings` names, or the default ones.
enum MappingDirectories {
  static func resolve(_ given: [String], modelPath: String) -> [URL] {
    given.isEmpty
      ? MappingCatalog.defaultDirectories(forModelAt: modelPath) : given.map { URL(fileURLWithPath: $0) }
  }
}
