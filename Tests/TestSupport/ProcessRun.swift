import Foundation

/// A run of one of this package's executables, started as a user would start it.
///
/// Output goes to files rather than pipes, so that a run printing more than a pipe holds
/// never blocks, and several runs can be started before any is waited for.
public struct ProcessRun: Sendable {
  /// A run that was started and not yet waited for.
  public struct Started {
    let process: Process
    let output: URL
    let error: URL
  }

  /// The exit status.
  public var status: Int32
  /// Everything written to standard output.
  public var output: String
  /// Everything written to standard error.
  public var error: String

  /// Starts `executable` with `arguments`. `environment` changes the inherited environment:
  /// a value replaces the variable, `nil` removes it. Colors are off unless asked for. With
  /// `input`, the program reads it as its standard input (else it inherits the test's).
  public static func start(
    _ executable: URL, _ arguments: [String], environment: [String: String?] = [:], input: String? = nil
  ) throws -> Started {
    let directory = TestPaths.temporaryDirectory("modelc-run")
    let output = directory.appendingPathComponent("out")
    let error = directory.appendingPathComponent("err")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: error.path, contents: nil)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: error)
    if let input {
      let inputFile = directory.appendingPathComponent("in")
      try Data(input.utf8).write(to: inputFile)
      process.standardInput = try FileHandle(forReadingFrom: inputFile)
    }
    var merged = ProcessInfo.processInfo.environment
    merged["NO_COLOR"] = "1"
    for (key, value) in environment { merged[key] = value }
    process.environment = merged
    try process.run()
    return Started(process: process, output: output, error: error)
  }

  /// Waits for a started run and collects what it printed.
  public static func finish(_ started: Started) throws -> ProcessRun {
    started.process.waitUntilExit()
    defer { try? FileManager.default.removeItem(at: started.output.deletingLastPathComponent()) }
    return ProcessRun(
      status: started.process.terminationStatus,
      output: try String(contentsOf: started.output, encoding: .utf8),
      error: try String(contentsOf: started.error, encoding: .utf8))
  }

  /// Runs `executable` to completion.
  public static func run(
    _ executable: URL, _ arguments: [String], environment: [String: String?] = [:], input: String? = nil
  ) throws -> ProcessRun {
    try finish(try start(executable, arguments, environment: environment, input: input))
  }
}
