import Foundation

/// Turns DOT text into SVG with Graphviz's `dot`, when it is installed.
public enum GraphvizRenderer {
  /// The `dot` executable on `PATH`, if any.
  public static func dotExecutable(path: String? = ProcessInfo.processInfo.environment["PATH"]) -> URL? {
    (path ?? "/usr/bin:/bin").split(separator: ":").map {
      URL(fileURLWithPath: String($0)).appendingPathComponent("dot")
    }
    .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  /// What to tell a user without Graphviz.
  public static let installHint =
    "install Graphviz for --format svg: 'apt-get install graphviz' (Debian, Ubuntu), 'brew install graphviz' (macOS), 'dnf install graphviz' (Fedora); or use --format dot or --format mermaid"

  /// Renders DOT to SVG; fails with the install hint when `dot` is missing, or with what `dot` said.
  ///
  /// - Throws: ``CheckInputError`` (typed): `dot` is not installed (with ``installHint``), cannot
  ///   be run, or fails (with its message).
  public static func svg(fromDOT dot: String) throws(CheckInputError) -> String {
    guard let executable = dotExecutable() else {
      throw CheckInputError("Graphviz's 'dot' is not installed, and --format svg needs it", notes: [installHint])
    }
    let process = Process()
    process.executableURL = executable
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    let error = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = error
    do {
      try process.run()
    } catch {
      throw CheckInputError("cannot run '\(executable.path)': \(error)")
    }
    let writer = Thread {
      input.fileHandleForWriting.write(Data(dot.utf8))
      try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let message = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CheckInputError("Graphviz's dot failed: \(String(decoding: message, as: UTF8.self))")
    }
    return String(decoding: data, as: UTF8.self)
  }
}
