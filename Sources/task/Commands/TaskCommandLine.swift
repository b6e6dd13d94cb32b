import ArgumentParsing
import Foundation
import TaskKit

/// The `task` command line: parsing, opening the store, running a command, reporting errors.
@MainActor
enum TaskCommandLine {
  static let storeOption = OptionSpec(
    "--store", value: "PATH",
    help:
      "The store file (default: $TASK_STORE, else $XDG_DATA_HOME/task/tasks.sqlite, else ~/.local/share/task/tasks.sqlite)."
  )
  static let priorityType = ValueType.choice(of: TaskPriority.self)
  static let dateType = ValueType.custom(expected: "a date like 2026-01-31") { TaskDates.parse($0) != nil }

  static let spec = CommandSpec(
    "task", abstract: "A small task list, kept in a Core Data store.",
    discussion: "Exit codes: 0 ok; 1 not found, ambiguous, or a rule of the model broken; 2 usage error.",
    options: [storeOption],
    subcommands: [
      CommandSpec(
        "add", abstract: "Add a task and print its identifier.",
        positionals: [.required("TITLE", help: "The task's title.")],
        options: [
          storeOption,
          OptionSpec("--due", value: "YYYY-MM-DD", type: dateType, help: "Due date (local time)."),
          OptionSpec("--priority", value: "LEVEL", type: priorityType, help: "high, medium or low (default: medium)."),
          OptionSpec(
            "--notes", value: "TEXT", repeatable: true, help: "A note (repeatable: each is a note, in order)."),
          OptionSpec("--tag", value: "NAME", repeatable: true, help: "A tag (repeatable)."),
          OptionSpec("--project", value: "NAME", help: "The project."),
        ]),
      CommandSpec(
        "list", abstract: "List tasks: by priority (high first), then due date (undated last).",
        options: [
          storeOption,
          OptionSpec(
            "--search", value: "TEXT",
            help: "Only tasks whose title or one of whose notes contains TEXT (any case and accents)."),
          OptionSpec("--tag", value: "NAME", help: "Only tasks with this tag."),
          OptionSpec("--project", value: "NAME", help: "Only tasks of this project."),
        ],
        flags: [
          FlagSpec("--pending", help: "Only tasks not done."),
          FlagSpec("--done", help: "Only tasks done, with when each was done."),
          FlagSpec("--json", help: "Print JSON instead of a table."),
        ],
        exclusiveGroups: [["--pending", "--done"]]),
      CommandSpec(
        "show", abstract: "Show one task, with its notes in order.",
        positionals: [.required("ID", help: "The identifier, or a prefix of at least 4 characters.")],
        options: [storeOption], flags: [FlagSpec("--json", help: "Print JSON.")]),
      CommandSpec(
        "done", abstract: "Mark tasks done, now (a task already done keeps its date).",
        positionals: [.variadic("ID", minimum: 1, help: "Identifiers or prefixes.")],
        options: [storeOption]),
      CommandSpec(
        "reopen", abstract: "Mark tasks not done.",
        positionals: [.variadic("ID", minimum: 1, help: "Identifiers or prefixes.")],
        options: [storeOption]),
      CommandSpec(
        "edit", abstract: "Change a task.",
        positionals: [.required("ID", help: "The identifier, or a prefix of at least 4 characters.")],
        options: [
          storeOption,
          OptionSpec("--title", value: "TITLE", help: "New title."),
          OptionSpec("--due", value: "YYYY-MM-DD", type: dateType, help: "New due date."),
          OptionSpec("--priority", value: "LEVEL", type: priorityType, help: "high, medium or low."),
          OptionSpec(
            "--notes", value: "TEXT", repeatable: true, help: "Add a note after the task's notes (repeatable)."),
          OptionSpec("--tag", value: "NAME", repeatable: true, help: "Replace the tags (repeatable)."),
          OptionSpec("--project", value: "NAME", help: "New project (empty removes it)."),
        ],
        flags: [
          FlagSpec("--no-due", help: "Remove the due date."),
          FlagSpec("--no-notes", help: "Delete the task's notes (before adding those of --notes)."),
        ],
        exclusiveGroups: [["--due", "--no-due"]]),
      CommandSpec(
        "delete", abstract: "Delete tasks.",
        positionals: [.variadic("ID", minimum: 1, help: "Identifiers or prefixes.")],
        options: [storeOption]),
    ])

  static func run(_ arguments: [String]) -> ExitCode {
    let terminal = Terminal.current()
    let parsed: ParsedArguments
    switch spec.parse(arguments, reportingTo: terminal) {
    case .exit(let code): return code
    case .run(let result): parsed = result
    }
    guard let command = parsed.subcommandPath.first else {
      terminal.writeLine(
        "task: missing command; expected one of: add, list, show, done, reopen, edit, delete", to: .standardError)
      terminal.writeLine("see 'task --help'", to: .standardError)
      return .usage
    }
    let environment = ProcessInfo.processInfo.environment
    let url = TaskStoreLocation.resolve(explicit: parsed.value("--store"), environment: environment)
    do {
      let container = try TaskStore.open(at: url) { line in
        Terminal.current().writeLine(line, to: .standardError)
      }
      let model = TaskListViewModel(container: container)
      let view = TaskView(terminal: terminal)
      switch command {
      case "add": try TaskCommands.add(parsed, model: model, view: view)
      case "list": try TaskCommands.list(parsed, model: model, view: view)
      case "show": try TaskCommands.show(parsed, model: model, view: view)
      case "done": try TaskCommands.setCompleted(parsed, true, model: model)
      case "reopen": try TaskCommands.setCompleted(parsed, false, model: model)
      case "edit": try TaskCommands.edit(parsed, model: model)
      case "delete": try TaskCommands.delete(parsed, model: model)
      default: return .usage
      }
      return .success
    } catch {
      terminal.writeLine("task \(command): \(error)", to: .standardError)
      return .failure
    }
  }
}
