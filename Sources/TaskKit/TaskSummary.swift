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
  ///
  /// The first four bytes in lowercase hexadecimal, written directly: `uuidString` formats all
  /// sixteen bytes through `snprintf` and lowercasing and taking a prefix go Character by
  /// Character, about 8,700 instructions a task (a tenth of listing 1,000 tasks).
  public var shortID: String {
    let digits: StaticString = "0123456789abcdef"
    return withUnsafeBytes(of: id.uuid) { bytes in
      String(unsafeUninitializedCapacity: 8) { text in
        digits.withUTF8Buffer { digits in
          for index in 0..<4 {
            text[2 * index] = digits[Int(bytes[index] >> 4)]
            text[2 * index + 1] = digits[Int(bytes[index] & 0x0F)]
          }
        }
        return 8
      }
    }
  }
}
