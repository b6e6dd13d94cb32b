import ArgumentParsing
import DataModel
import SchemaCheck

/// `modelc diagram MODEL [--version V] [--diff FROM..TO] [--format mermaid|dot|svg]`: an
/// entity–relationship diagram of a version, or of a step with its changes marked.
enum DiagramCommand: ModelcCommand {
  enum Format: String, CaseIterable { case mermaid, dot, svg }

  static let spec = CommandSpec(
    "diagram", abstract: "Draw an entity-relationship diagram of a version, or of the changes of a step.",
    discussion: """
      Entities with their attributes and types, relationships with both cardinalities, and inheritance, in Mermaid \
      (which GitHub and GitLab draw in Markdown), Graphviz DOT, or SVG (through Graphviz's dot, when installed). \
      With --diff FROM..TO, what the step added, removed and changed is marked. The output is the same for the \
      same model, byte for byte.
      """,
    positionals: [.required("MODEL", help: "A .xcdatamodeld bundle, a .xcdatamodel directory or a contents file.")],
    options: [
      OptionSpec("--version", value: "VERSION", help: "The version to draw (default: the current version)."),
      OptionSpec("--diff", value: "FROM..TO", help: "Draw the step between two versions, its changes marked."),
      OptionSpec(
        "--format", value: "FORMAT", type: .choice(of: Format.self), default: "mermaid", help: "Output format."),
    ],
    exclusiveGroups: [["--version", "--diff"]])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    let bundle = try ModelLoading.load(arguments.positionals[0], terminal: terminal)
    let diagram: EntityDiagram
    if let step = arguments.value("--diff") {
      let parts = step.components(separatedBy: "..")
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
        throw UsageError(
          command: "modelc diagram", message: "--diff expects FROM..TO (two version names), got '\(step)'")
      }
      diagram = EntityDiagram(
        from: try ModelLoading.version(parts[0], in: bundle), to: try ModelLoading.version(parts[1], in: bundle))
    } else {
      diagram = EntityDiagram(version: try ModelLoading.version(arguments.value("--version"), in: bundle))
    }
    switch arguments.value("--format", as: Format.self) ?? .mermaid {
    case .mermaid:
      terminal.write(MermaidRenderer.render(diagram))
    case .dot:
      terminal.write(DotRenderer.render(diagram))
    case .svg:
      do {
        terminal.write(try GraphvizRenderer.svg(fromDOT: DotRenderer.render(diagram)))
      } catch {
        throw CommandFailure(error.message, notes: error.notes)
      }
    }
    return .success
  }
}
