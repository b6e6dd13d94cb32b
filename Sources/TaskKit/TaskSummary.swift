import Foundation

/// What a view shows of a task: plain values, safe to hand anywhere.
public struct TaskSummary: Sendable, Hashable, Identifiable {
  /// The task's identifier (its `id` attribute).
  public var id: UUID
  public var title: String
  public var isCompleted: Bool
  public var dueDate: Date?
  public var priority: TaskPriority
  public var notes: String?
  /// Tag names, sorted.
  public var tags: [String]
  /// The project's name, if any.
  public var project: String?

  public init(_ task: Task) {
    self.id = task.taskID
    self.title = task.title
    self.isCompleted = task.isCompleted
    self.dueDate = task.dueDate
    self.priority = TaskPriority(storedValue: task.priority)
    self.notes = task.notes
    self.tags = task.tags.map(\.name).sorted()
    self.project = task.project?.name
  }

  /// The short form of the identifier shown in lists: its first eight characters, lowercased.
  public var shortID: String { String(id.uuidString.lowercased().prefix(8)) }
}
