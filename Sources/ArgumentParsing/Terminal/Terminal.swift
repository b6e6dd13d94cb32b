#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the process's output streams are connected to, and output that adapts to it.
///
/// Both executables colour their output and show progress only on an interactive terminal:
/// piped or redirected output stays plain text, and progress stays silent. Colour also
/// honours the `NO_COLOR` convention (any non-empty value disables it) and `TERM=dumb`.
///
/// A value type: ``current()`` captures the real process state once; tests build one with
/// ``init(standardOutputIsTTY:standardErrorIsTTY:environment:)``.
public struct Terminal: Sendable {
  /// Whether standard output is a terminal.
  public var standardOutputIsTTY: Bool
  /// Whether standard error is a terminal.
  public var standardErrorIsTTY: Bool
  /// Whether the environment asks for no colour (`NO_COLOR` non-empty, or `TERM=dumb`).
  public var colorDisabledByEnvironment: Bool

  /// Describes a terminal explicitly (tests, or forcing plain output).
  public init(standardOutputIsTTY: Bool, standardErrorIsTTY: Bool, environment: [String: String] = [:]) {
    self.standardOutputIsTTY = standardOutputIsTTY
    self.standardErrorIsTTY = standardErrorIsTTY
    self.colorDisabledByEnvironment =
      !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
  }

  /// The process's real streams (`isatty`) and environment.
  public static func current() -> Terminal {
    var environment: [String: String] = [:]
    for name in ["NO_COLOR", "TERM"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return Terminal(
      standardOutputIsTTY: isatty(TerminalStream.standardOutput.fileDescriptor) == 1,
      standardErrorIsTTY: isatty(TerminalStream.standardError.fileDescriptor) == 1,
      environment: environment)
  }

  /// Whether `stream` is a terminal.
  public func isTTY(_ stream: TerminalStream) -> Bool {
    switch stream {
    case .standardOutput: return standardOutputIsTTY
    case .standardError: return standardErrorIsTTY
    }
  }

  /// Whether text written to `stream` should be coloured.
  public func usesColor(on stream: TerminalStream) -> Bool {
    isTTY(stream) && !colorDisabledByEnvironment
  }

  /// `text` with `styles` applied if `stream` uses colour, else `text` unchanged.
  public func styled(_ text: String, _ styles: TerminalStyle..., on stream: TerminalStream) -> String {
    usesColor(on: stream) ? TerminalStyle.apply(styles, to: text) : text
  }

  /// Writes `text` as is (add the newline yourself) to `stream`.
  ///
  /// Standard output goes through Swift's `print`, so it stays ordered with other `print`
  /// calls; standard error is written directly and unbuffered.
  public func write(_ text: String, to stream: TerminalStream = .standardOutput) {
    switch stream {
    case .standardOutput:
      print(text, terminator: "")
    case .standardError:
      writeAll(text, to: stream.fileDescriptor)
    }
  }

  /// Writes `text` and a newline to `stream`.
  public func writeLine(_ text: String, to stream: TerminalStream = .standardOutput) {
    write(text + "\n", to: stream)
  }

  /// Replaces the current progress line on standard error with `text`; does nothing unless
  /// standard error is a terminal, so logs and pipes never see progress noise.
  public func progress(_ text: String) {
    guard let bytes = progressText(text) else { return }
    writeAll(bytes, to: TerminalStream.standardError.fileDescriptor)
  }

  /// Erases the progress line (call before printing results or when done).
  public func endProgress() {
    guard let bytes = progressText("") else { return }
    writeAll(bytes, to: TerminalStream.standardError.fileDescriptor)
  }

  /// What ``progress(_:)`` writes for `text` (the line erased, then `text`); nil when standard
  /// error is not a terminal, so nothing is written.
  func progressText(_ text: String) -> String? {
    standardErrorIsTTY ? "\r\u{1B}[2K" + text : nil
  }
}

/// Writes every byte of `text` to `descriptor`, retrying short writes and interruptions.
private func writeAll(_ text: String, to descriptor: Int32) {
  var text = text
  text.withUTF8 { buffer in
    var offset = 0
    while offset < buffer.count {
      let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written > 0 {
        offset += written
      } else if written < 0 && errno == EINTR {
        continue
      } else {
        return
      }
    }
  }
}
