import ArgumentParsing
import DataModel

/// `modelc validate MODEL...`: prints every diagnostic of each model.
enum ValidateCommand: ModelcCommand {
  static let spec = CommandSpec(
    "validate", abstract: "Check data models for the errors Xcode refuses and the problems it warns about.",
    discussion: "Exit status 0 when every model is valid (warnings allowed), 1 when any has an error.",
    positionals: [
      .variadic("MODEL", minimum: 1, help: "A .xcdatamodeld bundle, a .xcdatamodel directory or a contents file.")
    ],
    flags: [FlagSpec("--quiet", short: "-q", help: "Print errors only, no warnings or summary.")])

  static func run(_ arguments: ParsedArguments, terminal: Terminal) throws -> ExitCode {
    var anyError = false
    let quiet = arguments.flag("--quiet")
    for path in arguments.positionals {
      let result = ModelReader.read(path: path)
      let errors = result.diagnostics.errors.count
      let warnings = result.diagnostics.warnings.count
      for diagnostic in result.diagnostics where !quiet || diagnostic.severity == .error {
        terminal.writeLine(diagnostic.description, to: diagnostic.severity == .error ? .standardError : .standardOutput)
      }
      if errors > 0 || result.bundle == nil { anyError = true }
      if !quiet {
        let versions =
          result.bundle.map { "\($0.versions.count) version\($0.versions.count == 1 ? "" : "s")" } ?? "unreadable"
        let verdict = errors > 0 || result.bundle == nil ? "invalid" : "valid"
        terminal.writeLine(
          "\(path): \(verdict) (\(versions), \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s"))"
        )
      }
    }
    return anyError ? .failure : .success
  }
}
