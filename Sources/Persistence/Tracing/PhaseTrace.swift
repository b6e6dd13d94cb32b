import Foundation

/// A line per phase of a long write (opening, backup, copy, verification, swap, save), appended
/// to the file `$MODELC_PHASE_TRACE` names, so that the kill campaign (`scripts/crash-campaign`)
/// can tell in which phase each SIGKILL landed. Does nothing when the variable is unset.
///
/// Each line is `<seconds since 1970> <phase>`, written with one `write(2)` on a file opened
/// for appending, so a line is whole even when the process is killed right after.
public enum PhaseTrace {
  private static let path: String? = ProcessInfo.processInfo.environment["MODELC_PHASE_TRACE"]

  /// Whether phases are being recorded.
  public static var isEnabled: Bool { path != nil }

  /// Records that `phase` starts now.
  public static func record(_ phase: @autoclosure () -> String) {
    guard let path else { return }
    let line = String(format: "%.6f ", Date().timeIntervalSince1970) + phase() + "\n"
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    guard descriptor >= 0 else { return }
    _ = line.withCString { write(descriptor, $0, strlen($0)) }
    close(descriptor)
  }
}
