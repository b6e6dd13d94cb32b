/// Why a task operation failed, in words for one line of a command-line error.
public enum TaskError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No task has this identifier or prefix.
  case notFound(String)
  /// Several tasks start with this prefix; their full identifiers.
  case ambiguous(String, candidates: [String])
  /// A prefix shorter than four characters.
  case prefixTooShort(String)
  /// A rule of the model is broken (an empty title, say).
  case invalid(String)
  /// The store could not be read or written.
  case store(String)

  public var description: String {
    switch self {
    case .notFound(let id):
      "no task with the identifier '\(id)'"
    case .ambiguous(let prefix, let candidates):
      "the prefix '\(prefix)' is ambiguous; it matches \(candidates.joined(separator: ", "))"
    case .prefixTooShort(let prefix):
      "the identifier '\(prefix)' is too short; give at least 4 characters of a task's identifier"
    case .invalid(let message):
      message
    case .store(let message):
      message
    }
  }
}
