import Foundation

/// A line per phase of a long write (opening, backup, copy, verification, swap, save), appended
/// to the file `$MODELC_PHASE_TRACE` names, so that the kill campaign (`scripts/crash-campaign`)
/// can tell in which phase each SIGKILL landed. Does nothing when the variable is unset.
///
/// Each line is `<seconds since 1970> <phase>`, written with one `write(2)` on a file opened
/// for appending, so a line is whole even when the process is killed right after.
///
/// For kill tests at a chosen point, `$MODELC_KILL_AT_PHASE` names a phase: the process sends
/// itself `SIGKILL` when it reaches the first phase whose text starts with it (after tracing
/// that phase when `$MODELC_PHASE_TRACE` is set too), exactly as an outside `kill -9` would
/// stop it there. Off unless the variable is set to a non-empty text; only the kill tests and
/// `scripts/crash-campaign` set it.
public enum PhaseTrace {
  private static let path: String? = ProcessInfo.processInfo.environment["MODELC_PHASE_TRACE"]
  private static let killPhase: String? = ProcessInfo.processInfo.environment["MODELC_KILL_AT_PHASE"].flatMap {
    $0.isEmpty ? nil : $0
  }

  /// Whether phases are being recorded.
  public static var isEnabled: Bool { path != nil }

  /// Records that `phase` starts now; stops the process there when `$MODELC_KILL_AT_PHASE`
  /// names it.
  public static func record(_ phase: @autoclosure () -> String) {
    guard path != nil || killPhase != nil else { return }
    let text = phase()
    if let path {
      let line = String(format: "%.6f ", Date().timeIntervalSince1970) + text + "\n"
      let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
      if descriptor >= 0 {
        _ = line.withCString { write(descriptor, $0, strlen($0)) }
        close(descriptor)
      }
    }
    if let killPhase, text.hasPrefix(killPhase) {
      kill(getpid(), SIGKILL)
    }
  }
}
