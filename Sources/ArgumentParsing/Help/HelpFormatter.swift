/// Generates a command's help text from its specification.
///
/// Layout (sections appear only when non-empty):
///
/// ```
/// <abstract>
///
/// <discussion>
///
/// Usage: modelc store create STORE --model MODEL [--version NAME] [--dry-run]
///
/// Arguments:
///   STORE              The store file to create.
///
/// Options:
///   --model MODEL      The data model.
///   --version NAME     The model version. (default: current)
///   --dry-run          Show what would happen.
///   -h, --help         Show this help.
///
/// Commands:
///   create             Create an empty store.
///
/// Run 'modelc store <command> --help' for help on a command.
/// ```
struct HelpFormatter {
  /// The commands from the root to the one being described.
  let commands: [CommandSpec]

  private var command: CommandSpec { commands[commands.count - 1] }
  private var path: String { commands.map(\.name).joined(separator: " ") }

  /// Help labels longer than this push their text to the next line.
  private static let maximumLabelWidth = 28

  var text: String {
    var sections: [String] = []
    var header: [String] = []
    if !command.abstract.isEmpty { header.append(command.abstract) }
    if let discussion = command.discussion, !discussion.isEmpty { header.append(discussion) }
    if !header.isEmpty { sections.append(header.joined(separator: "\n\n")) }
    sections.append("Usage: " + usage)

    let arguments = command.positionals.map { (label: $0.name, help: describe($0.help, $0.type, nil, false)) }
    var options = command.options.map { option in
      (
        label: label(option.name, option.shortName) + " " + option.valueName,
        help: describe(option.help, option.type, option.defaultValue, option.isRepeatable)
      )
    }
    options += command.flags.map { (label: label($0.name, $0.shortName), help: $0.help) }
    options.append((label: "-h, --help", help: "Show this help."))
    let subcommands = command.subcommands.map { (label: $0.name, help: $0.abstract) }

    let width = min(
      Self.maximumLabelWidth, (arguments + options + subcommands).map(\.label.count).max() ?? 0)
    if !arguments.isEmpty { sections.append(table("Arguments:", arguments, width)) }
    sections.append(table("Options:", options, width))
    if !subcommands.isEmpty {
      sections.append(table("Commands:", subcommands, width))
      sections.append("Run '\(path) <command> --help' for help on a command.")
    }
    return sections.joined(separator: "\n\n") + "\n"
  }

  /// The one-line synopsis: positionals, then options, then flags; `[…]` marks what may be
  /// left out, `...` what may repeat, `a | b` alternatives that exclude each other.
  var usage: String {
    var words = [path]
    for positional in command.positionals {
      switch positional.arity {
      case .required: words.append(positional.name)
      case .optional: words.append("[\(positional.name)]")
      case .variadic(let minimum): words.append(minimum > 0 ? "\(positional.name)..." : "[\(positional.name)...]")
      }
    }
    var rendered: Set<String> = []
    let groups = command.exclusiveGroups.map { group in
      group.map { command.option(named: $0)?.name ?? command.flag(named: $0)?.name ?? $0 }
    }
    let names = command.options.map(\.name) + command.flags.map(\.name)
    for name in names where !rendered.contains(name) {
      if let group = groups.first(where: { $0.contains(name) }) {
        words.append("[" + group.map(synopsis).joined(separator: " | ") + "]")
        rendered.formUnion(group)
      } else if let option = command.option(named: name), option.isRequired {
        words.append(synopsis(name))
      } else {
        words.append("[\(synopsis(name))]")
      }
    }
    if !command.subcommands.isEmpty { words.append("<command>") }
    return words.joined(separator: " ")
  }

  private func synopsis(_ name: String) -> String {
    guard let option = command.option(named: name) else { return name }
    return "\(option.name) \(option.valueName)" + (option.isRepeatable ? " ..." : "")
  }

  private func label(_ name: String, _ shortName: String?) -> String {
    shortName.map { "\($0), \(name)" } ?? name
  }

  private func describe(_ help: String, _ type: ValueType, _ defaultValue: String?, _ isRepeatable: Bool) -> String {
    var notes: [String] = []
    if let constraint = type.helpConstraint { notes.append(constraint) }
    if let defaultValue { notes.append("default: \(defaultValue)") }
    if isRepeatable { notes.append("repeatable") }
    guard !notes.isEmpty else { return help }
    let suffix = "(" + notes.joined(separator: "; ") + ")"
    return help.isEmpty ? suffix : "\(help) \(suffix)"
  }

  private func table(_ title: String, _ rows: [(label: String, help: String)], _ width: Int) -> String {
    var lines = [title]
    for row in rows {
      let indent = "  "
      if row.help.isEmpty {
        lines.append(indent + row.label)
      } else if row.label.count > width {
        lines.append(indent + row.label)
        lines.append(indent + String(repeating: " ", count: width + 2) + row.help)
      } else {
        lines.append(indent + row.label + String(repeating: " ", count: width - row.label.count + 2) + row.help)
      }
    }
    return lines.joined(separator: "\n")
  }
}
