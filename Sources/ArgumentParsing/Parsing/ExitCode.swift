/// The exit statuses shared by `modelc` and `task`.
///
/// Scripts and tests rely on these three meanings: 0 when the command did what was asked,
/// 1 when it ran and failed (invalid model, store error, validation failure…), 2 when the
/// command line itself was wrong (a ``UsageError``) and nothing was attempted.
public enum ExitCode: Int32, Sendable {
  /// The command succeeded (also after printing help).
  case success = 0
  /// The command ran and failed.
  case failure = 1
  /// The command line was invalid; nothing was done.
  case usage = 2
}
