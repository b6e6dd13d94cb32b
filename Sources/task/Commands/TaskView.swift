import ArgumentParsing
import DataModel
import Foundation
import TaskKit

/// How `task` prints tasks: an aligned table for people (priority in colour on a terminal,
/// unless `NO_COLOR` is set), or JSON: `completedAt` (ISO 8601 in UTC, or null), `isCompleted`
/// (whether it has one) and `notes`, the texts of the notes in order.
struct TaskView {
  let terminal: Terminal

  func json(_ task: TaskSummary) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("id", .string(task.id.uuidString.lowercased()))
    object.add("title", .string(task.title))
    object.add("isCompleted", .bool(task.isCompleted))
    object.add("completedAt", task.completedAt.map { .string(TaskDates.formatISO8601($0)) } ?? .null)
    object.add("dueDate", task.dueDate.map { .string(TaskDates.format($0)) } ?? .null)
    object.add("priority", .string(task.priority.rawValue))
    object.add("notes", .array(task.notes.map { .string($0.text) }))
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
    let text = priority.rawValue.padded(to: width)
    switch priority {
    case .high: return terminal.styled(text, .bold, .red, on: .standardOutput)
    case .medium: return terminal.styled(text, .yellow, on: .standardOutput)
    case .low: return terminal.styled(text, .dim, on: .standardOutput)
    }
  }

  /// The tasks as a table. The second column marks the done tasks with ✓, or, with
  /// `showingCompletionDates`, is a `DONE` column saying when each was done (local time).
  func printTable(_ tasks: [TaskSummary], showingCompletionDates: Bool = false) {
    guard !tasks.isEmpty else {
      terminal.writeLine("No tasks.")
      return
    }
    let headers = ["ID", showingCompletionDates ? "DONE" : "", "PRIORITY", "DUE", "TITLE", "TAGS", "PROJECT"]
    let rows = tasks.map { task in
      let done =
        showingCompletionDates ? task.completedAt.map(TaskDates.formatMoment) ?? "-" : (task.isCompleted ? "✓" : " ")
      return [
        task.shortID, done, task.priority.rawValue, task.dueDate.map(TaskDates.format) ?? "-",
        task.title, task.tags.joined(separator: ","), task.project ?? "",
      ]
    }
    // Each cell measured once, for the column widths and for its padding.
    let headerWidths = headers.map(\.columnWidth)
    let rowWidths = rows.map { $0.map(\.columnWidth) }
    let widths = headers.indices.map { column in
      rowWidths.reduce(headerWidths[column]) { Swift.max($0, $1[column]) }
    }
    // One string per line, each cell and its padding appended in place: mapping the cells to
    // padded strings, joining them and trimming the result Character by Character was a tenth of
    // a `task list` run of 1,000 tasks (docs/benchmarks.md).
    let lineWidth = widths.reduce(2 * (widths.count - 1), +)
    func line(_ cells: [String], cellWidths: [Int], priority: TaskPriority?) -> String {
      var text = ""
      // Room for the whole line at once (in bytes: more for cells that are not ASCII, which
      // then grow the string as before), where appending cell by cell grew it three times.
      text.reserveCapacity(lineWidth)
      for (index, cell) in cells.enumerated() {
        if index > 0 { text += "  " }
        if index == 2, let priority {
          text += styledPriority(priority, width: widths[index])
        } else {
          text += cell
          if index < cells.count - 1 { text.appendSpaces(widths[index] - cellWidths[index]) }
        }
      }
      return text.trimmingTrailingSpaces()
    }
    terminal.writeLine(line(headers, cellWidths: headerWidths, priority: nil))
    for index in tasks.indices {
      terminal.writeLine(line(rows[index], cellWidths: rowWidths[index], priority: tasks[index].priority))
    }
  }

  /// One task, a field a line; the notes last, oldest first, each with when it was written (a
  /// note of several lines keeps them, indented under its first).
  func printDetail(_ task: TaskSummary) {
    let fields: [(String, String)] = [
      ("id", task.id.uuidString.lowercased()), ("title", task.title),
      ("done", task.completedAt.map { "yes, \(TaskDates.formatMoment($0))" } ?? "no"),
      ("priority", task.priority.rawValue), ("due", task.dueDate.map(TaskDates.format) ?? "-"),
      ("tags", task.tags.isEmpty ? "-" : task.tags.joined(separator: ", ")), ("project", task.project ?? "-"),
    ]
    let indent = 9
    func label(_ name: String) -> String { name.padding(toLength: indent, withPad: " ", startingAt: 0) }
    for (name, value) in fields {
      terminal.writeLine("\(label(name))\(value)")
    }
    guard !task.notes.isEmpty else {
      terminal.writeLine("\(label("notes"))-")
      return
    }
    for (index, note) in task.notes.enumerated() {
      let stamp = "\(TaskDates.formatMoment(note.createdAt))  "
      let lines = note.text.split(separator: "\n", omittingEmptySubsequences: false)
      let continuation = String(repeating: " ", count: indent + stamp.count)
      terminal.writeLine("\(label(index == 0 ? "notes" : ""))\(stamp)\(lines[0])".trimmingTrailingSpaces())
      for line in lines.dropFirst() {
        terminal.writeLine("\(continuation)\(line)".trimmingTrailingSpaces())
      }
    }
  }
}

extension String {
  /// The text followed by spaces up to `width` characters (the measure of the table's column
  /// widths). Foundation's `padding(toLength:withPad:startingAt:)` went through `NSString` and
  /// counted UTF-16 units: it was a tenth of a `task list` run of 1,000 tasks, and misaligned
  /// the columns after a title with characters outside the Basic Multilingual Plane.
  fileprivate func padded(to width: Int) -> String {
    var text = self
    text.appendSpaces(width - columnWidth)
    return text
  }

  /// The text's width in the table: its number of Characters. ASCII text without a carriage
  /// return (the one ASCII pair, CR LF, that is a single Character) is as wide as its UTF-8
  /// form is long, found without the grapheme-breaking rules that `count` runs: they were two
  /// thirds of measuring a table's cells.
  fileprivate var columnWidth: Int {
    let asciiWidth = utf8.withContiguousStorageIfAvailable { bytes -> Int? in
      for byte in bytes where byte >= 0x80 || byte == 0x0D { return nil }
      return bytes.count
    }
    return (asciiWidth ?? nil) ?? count
  }

  /// Appends `count` spaces (none when `count` is not positive).
  fileprivate mutating func appendSpaces(_ count: Int) {
    var left = count
    while left > 0 {
      // Slices of one string of spaces: appending a `Substring` is specialized, where appending a
      // `repeatElement` of Characters is a generic loop (it cost more than the rest of the table).
      let run = Swift.min(left, Self.spaces.utf8.count)
      append(contentsOf: Self.spaces[..<Self.spaces.utf8.index(Self.spaces.startIndex, offsetBy: run)])
      left -= run
    }
  }

  private static let spaces = String(repeating: " ", count: 64)

  /// The text without its trailing spaces (U+0020). They are found as bytes of the UTF-8 form,
  /// where a space is one byte that no other scalar's encoding contains; `hasSuffix(" ")` and
  /// `removeLast()` compared and removed whole Characters, through the grapheme breaking rules.
  fileprivate func trimmingTrailingSpaces() -> String {
    var end = utf8.endIndex
    while end > utf8.startIndex {
      let before = utf8.index(before: end)
      guard utf8[before] == UInt8(ascii: " ") else { break }
      end = before
    }
    // The end is a scalar's boundary, which may fall inside a Character (after a prepended mark):
    // cut as scalars, as a Character-aligned slice would round it down.
    return end == utf8.endIndex ? self : String(unicodeScalars[..<end])
  }
}
