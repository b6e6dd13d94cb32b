import Foundation

/// What a view shows of a task: plain values, safe to hand anywhere.
public struct TaskSummary: Sendable, Hashable, Identifiable {
  /// The task's identifier (its `id` attribute).
  public var id: UUID
  public var title: String
  /// When the task was marked done; nil while it is pending.
  public var completedAt: Date?
  public var dueDate: Date?
  public var priority: TaskPriority
  /// The task's notes, oldest first (the order of the `notes` relationship).
  public var notes: [NoteSummary]
  /// Tag names, sorted.
  public var tags: [String]
  /// The project's name, if any.
  public var project: String?

  public init(_ task: Task) {
    self.id = task.taskID
    self.title = task.title
    self.completedAt = task.completedAt
    self.dueDate = task.dueDate
    self.priority = TaskPriority(storedValue: task.priority)
    self.notes = task.notes.map(NoteSummary.init)
    self.tags = task.tags.map(\.name).sorted()
    self.project = task.project?.name
  }

  /// Whether the task is done (it has a completion date).
  public var isCompleted: Bool { completedAt != nil }

  /// The short form of the identifier shown in lists: its first eight characters, lowercased.
  public var shortID: String { String(id.uuidString.lowercased().prefix(8)) }
}
