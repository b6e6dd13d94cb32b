/// A command line that does not match its command's specification.
///
/// The message names the offending option or argument and the description names the command
/// and how to get help:
///
/// ```
/// modelc validate: unknown option '--frobnicate'
/// see 'modelc validate --help'
/// ```
///
/// Executables print ``description`` to standard error and exit with ``ExitCode/usage`` (2).
public struct UsageError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The command as typed so far: `modelc validate`.
  public let command: String
  /// What is wrong: `unknown option '--frobnicate'`.
  public let message: String

  /// Creates an error for `command` (its full path, e.g. `modelc store create`).
  public init(command: String, message: String) {
    self.command = command
    self.message = message
  }

  /// Where to find help: `see 'modelc validate --help'`.
  public var hint: String { "see '\(command) --help'" }

  /// The error line and the hint line.
  public var description: String { "\(command): \(message)\n\(hint)" }
}
