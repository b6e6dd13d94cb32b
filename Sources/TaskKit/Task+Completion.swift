import Foundation

extension Task {
  /// Whether the task is done: it has a completion date. Since model version 'Tasks 4' the
  /// store keeps when a task was done (`completedAt`) instead of a flag; this reads the flag from it.
  public var isCompleted: Bool { completedAt != nil }
}
