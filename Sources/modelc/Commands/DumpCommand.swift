import ArgumentParsing
import DataModel

/// `modelc dump MODEL [--version NAME] --format json`: the model's canonical JSON.
enum DumpCommand: ModelcCommand {
  enum Format: String, CaseIterable { case json }

  static let spec = CommandSpec(
    "dump", abstract: "Print a model as canonical JSON, byte-identical from run to run.",
    discussion:
      "The JSON is {\"versions\": [...]} in migration order; each version has name, isCurrent, hash (the model checksum, base64) and entities, each with name, hash (hex), attributes and relationships keyed by the XML attribute names.",
    positionals: [.required("MODEL", help: "A .xcdatamodeld bundle, a .xcdatamodel directory or a contents file.")],
    options: [
      OptionSpec("--version", value: "NAME", help: "Only this version (default: every version)."),
      OptionSpec("--format", value: "FORMAT", type: .choice(of: Format.self), default: "json", help: "Output format."),
    ])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let bundle = try ModelLoading.load(arguments.positionals[0], terminal: terminal)
    var names: [String]?
    if let name = arguments.value("--version") {
      names = [try ModelLoading.version(name, in: bundle).name]
    }
    terminal.write(JSONWriter.prettyPrinted(ModelDump.json(of: bundle, versionNames: names)))
    return .success
  }
}
