/// The two output streams a command-line tool writes to.
///
/// Results go to standard output (so they can be piped); errors, warnings and progress go
/// to standard error (so they never corrupt piped results).
public enum TerminalStream: Sendable, Hashable {
  /// File descriptor 1.
  case standardOutput
  /// File descriptor 2.
  case standardError

  /// The POSIX file descriptor.
  var fileDescriptor: Int32 {
    switch self {
    case .standardOutput: return 1
    case .standardError: return 2
    }
  }
}
