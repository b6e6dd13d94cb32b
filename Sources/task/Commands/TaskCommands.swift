import ArgumentParsing
import Foundation
import TaskKit

/// What each `task` command does with the view model.
@MainActor
enum TaskCommands {
  static func add(_ arguments: ParsedArguments, model: TaskListViewModel, view: TaskView) throws {
    let task = try model.add(
      title: arguments.positionals[0], dueDate: arguments.value("--due").flatMap(TaskDates.parse),
      priority: arguments.value("--priority", as: TaskPriority.self) ?? .medium, notes: arguments.values("--notes"),
      tags: arguments.values("--tag"), project: arguments.value("--project"))
    view.terminal.writeLine(task.taskID.uuidString.lowercased())
  }

  static func list(_ arguments: ParsedArguments, model: TaskListViewModel, view: TaskView) throws {
    model.searchText = arguments.value("--search") ?? ""
    model.completionFilter = arguments.flag("--pending") ? .pending : (arguments.flag("--done") ? .done : .all)
    model.tagFilter = arguments.value("--tag")
    model.projectFilter = arguments.value("--project")
    try model.refresh()
    let summaries = model.tasks.map(TaskSummary.init)
    if arguments.flag("--json") {
      view.printJSON(summaries)
    } else {
      view.printTable(summaries, showingCompletionDates: model.completionFilter == .done)
    }
  }

  static func show(_ arguments: ParsedArguments, model: TaskListViewModel, view: TaskView) throws {
    let summary = TaskSummary(try model.task(identifiedBy: arguments.positionals[0]))
    if arguments.flag("--json") {
      view.printJSON(summary)
    } else {
      view.printDetail(summary)
    }
  }

  static func setCompleted(_ arguments: ParsedArguments, _ completed: Bool, model: TaskListViewModel) throws {
    // Resolve every identifier first, so that a typo changes nothing.
    let tasks = try arguments.positionals.map { try model.task(identifiedBy: $0) }
    for task in tasks { try model.setCompleted(task, completed) }
  }

  static func edit(_ arguments: ParsedArguments, model: TaskListViewModel) throws {
    let task = try model.task(identifiedBy: arguments.positionals[0])
    var edit = TaskListViewModel.Edit()
    edit.title = arguments.value("--title")
    if arguments.flag("--no-due") {
      edit.dueDate = .some(nil)
    } else if let due = arguments.value("--due") {
      edit.dueDate = .some(TaskDates.parse(due))
    }
    edit.priority = arguments.value("--priority", as: TaskPriority.self)
    edit.removesNotes = arguments.flag("--no-notes")
    edit.addedNotes = arguments.values("--notes")
    if arguments.contains("--tag") { edit.tags = arguments.values("--tag") }
    if let project = arguments.value("--project") { edit.project = .some(project.isEmpty ? nil : project) }
    try model.update(task, edit)
  }

  static func delete(_ arguments: ParsedArguments, model: TaskListViewModel) throws {
    let tasks = try arguments.positionals.map { try model.task(identifiedBy: $0) }
    try model.delete(tasks)
  }
}
