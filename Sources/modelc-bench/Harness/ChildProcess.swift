import Foundation

/// Runs a program to its end with its output and errors drained through pipes: the harness's
/// child measurements and the `cold-start` scenario's processes.
struct ChildProcess {
  var status: Int32
  var output: String
  var error: String

  /// This executable, for the harness's child processes.
  static var benchmarkExecutable: URL {
    URL(
      fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        ?? CommandLine.arguments[0])
  }

  /// Runs `executable` with `arguments` and waits for it; standard output and error are read
  /// until the child closes them (errors on a thread of their own, so that neither pipe fills).
  static func run(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil) throws -> ChildProcess
  {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let environment { process.environment = environment }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let errorText = ErrorCollector()
    let reader = Thread { errorText.set(errors.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let printed = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ChildProcess(
      status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
      error: String(decoding: errorText.wait(), as: UTF8.self))
  }
}

/// A child's standard error, read on another thread.
final class ErrorCollector: @unchecked Sendable {
  private let done = DispatchSemaphore(value: 0)
  private var data = Data()

  func set(_ data: Data) {
    self.data = data
    done.signal()
  }

  func wait() -> Data {
    done.wait()
    return data
  }
}
