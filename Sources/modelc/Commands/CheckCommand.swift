import ArgumentParsing
import Foundation
import SchemaCheck

/// `modelc check [PATH...] [--against REF] [--store STORE]... [--mappings DIR]... [--format F]
/// [--strict] [--config FILE]`: every check of model changes a CI job needs, with stable rule ids
/// and the formats CI systems display. The checks live in the `SchemaCheck` library.
enum CheckCommand: ModelcCommand {
  static let spec = CommandSpec(
    "check", abstract: "Check models, their version steps, their history and real stores, for CI.",
    discussion: """
      Checks every model found: validation, every consecutive version step (inferable? covered by a mapping \
      model? loses data? a forgotten renaming identifier?), with --against the versions released at a git ref, and \
      with --store the data of real stores against later versions. Findings carry a stable rule id (see \
      docs/rules.md); .modelc.json in the current directory (or --config) sets severities and ignores. Exit status \
      0 when no finding is an error (warnings too with --strict), 1 otherwise, 2 on a usage error or an input that \
      cannot be read (a missing path, git or ref, an unreadable store or configuration).
      """,
    positionals: [
      .variadic(
        "PATH", minimum: 0,
        help: "Model bundles, or folders searched for .xcdatamodeld bundles (default: the current directory).")
    ],
    options: [
      OptionSpec(
        "--against", value: "GIT_REF",
        help: "Compare with the versions at this git ref (e.g. origin/main): released versions must not change."),
      OptionSpec(
        "--store", value: "STORE", repeatable: true,
        help: "Check a store's data against the versions after the one it is at (opened read-only)."),
      OptionSpec(
        "--mappings", value: "DIR", repeatable: true,
        help: "A folder holding mapping models (.xcmappingmodel) for steps inference cannot do."),
      OptionSpec(
        "--format", value: "FORMAT", type: .choice(of: ReportFormat.self), default: "text",
        help: "text, json, sarif (SARIF 2.1.0), github (workflow annotations) or markdown."),
      OptionSpec("--config", value: "FILE", help: "The configuration file (default: ./.modelc.json when present)."),
    ],
    flags: [FlagSpec("--strict", help: "Fail on warnings too.")])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    do {
      let configuration = try loadConfiguration(arguments.value("--config"))
      let mappingDirectories = arguments.values("--mappings")
      for directory in mappingDirectories {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
          throw CheckInputError("no folder '\(directory)' (given with --mappings)")
        }
      }
      let request = SchemaCheckRequest(
        paths: arguments.positionals, against: arguments.value("--against"), stores: arguments.values("--store"),
        mappings: CatalogMappingModels(directories: mappingDirectories), configuration: configuration)
      let report = try SchemaCheck.run(request)
      let strict = arguments.flag("--strict")
      let format = arguments.value("--format", as: ReportFormat.self) ?? .text
      terminal.write(format.render(report, strict: strict))
      return report.fails(strict: strict) ? .failure : .success
    } catch let error as CheckInputError {
      terminal.writeLine("modelc check: error: \(error.message)", to: .standardError)
      for note in error.notes { terminal.writeLine("note: \(note)", to: .standardError) }
      return .usage
    }
  }

  /// `--config FILE`, else `.modelc.json` in the current directory, else the defaults.
  private static func loadConfiguration(_ path: String?) throws(CheckInputError) -> CheckConfiguration {
    if let path { return try CheckConfiguration.read(path: path) }
    guard FileManager.default.fileExists(atPath: CheckConfiguration.fileName) else { return CheckConfiguration() }
    return try CheckConfiguration.read(path: CheckConfiguration.fileName)
  }
}
