import ArgumentParsing
import DataModel
import Foundation
import TaskKit

/// How `task` prints tasks: an aligned table for people (priority in colour on a terminal,
/// unless `NO_COLOR` is set), or JSON.
struct TaskView {
  let terminal: Terminal

  func json(_ task: TaskSummary) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("id", .string(task.id.uuidString.lowercased()))
    object.add("title", .string(task.title))
    object.add("isCompleted", .bool(task.isCompleted))
    object.add("dueDate", task.dueDate.map { .string(TaskDates.format($0)) } ?? .null)
    object.add("priority", .string(task.priority.rawValue))
    object.add("notes", task.notes.map(JSONValue.string) ?? .null)
    object.add("tags", .array(task.tags.map(JSONValue.string)))
    object.add("project", task.project.map(JSONValue.string) ?? .null)
    return object.value
  }

  func printJSON(_ tasks: [TaskSummary]) {
    terminal.write(JSONWriter.prettyPrinted(.array(tasks.map(json))))
  }

  func printJSON(_ task: TaskSummary) {
    terminal.write(JSONWriter.prettyPrinted(json(task)))
  }

  func styledPriority(_ priority: TaskPriority, width: Int) -> String {
    let text = priority.rawValue.padding(toLength: width, withPad: " ", startingAt: 0)
    switch priority {
    case .high: return terminal.styled(text, .bold, .red, on: .standardOutput)
    case .medium: return terminal.styled(text, .yellow, on: .standardOutput)
    case .low: return terminal.styled(text, .dim, on: .standardOutput)
    }
  }

  func printTable(_ tasks: [TaskSummary]) {
    guard !tasks.isEmpty else {
      terminal.writeLine("No tasks.")
      return
    }
    let headers = ["ID", "", "PRIORITY", "DUE", "TITLE", "TAGS", "PROJECT"]
    let rows = tasks.map { task in
      [
        task.shortID, task.isCompleted ? "✓" : " ", task.priority.rawValue, task.dueDate.map(TaskDates.format) ?? "-",
        task.title, task.tags.joined(separator: ","), task.project ?? "",
      ]
    }
    let widths = headers.indices.map { column in
      ([headers[column]] + rows.map { $0[column] }).map(\.count).max() ?? 0
    }
    func line(_ cells: [String], priority: TaskPriority?) -> String {
      cells.enumerated().map { index, cell in
        if index == 2, let priority { return styledPriority(priority, width: widths[index]) }
        return index == cells.count - 1 ? cell : cell.padding(toLength: widths[index], withPad: " ", startingAt: 0)
      }.joined(separator: "  ").trimmingTrailingSpaces()
    }
    terminal.writeLine(line(headers, priority: nil))
    for (task, row) in zip(tasks, rows) {
      terminal.writeLine(line(row, priority: task.priority))
    }
  }

  func printDetail(_ task: TaskSummary) {
    let fields: [(String, String)] = [
      ("id", task.id.uuidString.lowercased()), ("title", task.title), ("done", task.isCompleted ? "yes" : "no"),
      ("priority", task.priority.rawValue), ("due", task.dueDate.map(TaskDates.format) ?? "-"),
      ("notes", task.notes ?? "-"), ("tags", task.tags.isEmpty ? "-" : task.tags.joined(separator: ", ")),
      ("project", task.project ?? "-"),
    ]
    for (name, value) in fields {
      terminal.writeLine("\(name.padding(toLength: 9, withPad: " ", startingAt: 0))\(value)")
    }
  }
}

extension String {
  fileprivate func trimmingTrailingSpaces() -> String {
    var text = self
    while text.hasSuffix(" ") { text.removeLast() }
    return text
  }
}
