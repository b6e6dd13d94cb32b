/// A task's priority, stored as the `priority` attribute (1 high, 2 medium, 3 low).
public enum TaskPriority: String, Sendable, Hashable, CaseIterable, Comparable {
  case high
  case medium
  case low

  /// The stored value (the model allows 1...3).
  public var storedValue: Int16 {
    switch self {
    case .high: 1
    case .medium: 2
    case .low: 3
    }
  }

  /// The priority of a stored value; values outside 1...3 read as medium.
  public init(storedValue: Int16) {
    switch storedValue {
    case 1: self = .high
    case 3: self = .low
    default: self = .medium
    }
  }

  /// Higher priorities sort first.
  public static func < (lhs: TaskPriority, rhs: TaskPriority) -> Bool { lhs.storedValue < rhs.storedValue }
}

/// Which tasks a list shows by completion.
public enum CompletionFilter: String, Sendable, Hashable, CaseIterable {
  case all
  case pending
  case done
}
