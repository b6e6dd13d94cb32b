/// Parsing that reports help and usage errors the way every modelc executable does.
extension CommandSpec {
  /// Parses `arguments`, printing help to standard output or a usage error to standard error.
  ///
  /// Every executable treats these two outcomes alike — help is a success, a usage error
  /// exits with status 2 — so they are handled here once.
  ///
  /// - Returns: the parsed arguments to run with, or the exit code to stop with after help
  ///   (`.success`) or a usage error (`.usage`).
  public func parse(_ arguments: [String], reportingTo terminal: Terminal) -> ReportedParse {
    do {
      switch try parse(arguments) {
      case .help(let text):
        terminal.write(text.hasSuffix("\n") ? text : text + "\n")
        return .exit(.success)
      case .run(let parsed):
        return .run(parsed)
      }
    } catch {
      terminal.writeLine(error.description, to: .standardError)
      return .exit(.usage)
    }
  }
}

/// The outcome of ``CommandSpec/parse(_:reportingTo:)``: what is left to do once help or a
/// usage error has been printed.
public enum ReportedParse: Sendable {
  /// Run the command with these arguments.
  case run(ParsedArguments)
  /// Nothing to run: exit with this code (help was printed, or a usage error was reported).
  case exit(ExitCode)
}
