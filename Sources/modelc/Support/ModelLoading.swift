import ArgumentParsing
import DataModel

/// Loading the model a command names, failing with its diagnostics.
enum ModelLoading {
  /// Reads and validates a model; errors fail the command with every diagnostic printed.
  static func load(_ path: String, terminal: Terminal) throws -> ModelBundle {
    let result = ModelReader.read(path: path)
    guard let bundle = result.bundle, !result.diagnostics.containsErrors else {
      for diagnostic in result.diagnostics.errors.isEmpty ? result.diagnostics : result.diagnostics.errors {
        terminal.writeLine(diagnostic.description, to: .standardError)
      }
      throw CommandFailure("the model at '\(path)' is not valid", notes: ["run 'modelc validate \(path)' for details"])
    }
    return bundle
  }

  /// The version a `--version` option names, or the current one.
  static func version(_ name: String?, in bundle: ModelBundle) throws -> ModelVersion {
    guard let name else { return bundle.currentVersion }
    guard let version = bundle.version(named: name) else {
      throw CommandFailure(
        "the model has no version '\(name)'",
        notes: ["its versions are: \(bundle.versions.map(\.name).joined(separator: ", "))"])
    }
    return version
  }
}
