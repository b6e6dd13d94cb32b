import Foundation

/// Runs `git` for `--against`, reading what a ref holds without touching the working tree.
struct GitRunner {
  /// The `git` executable found on `PATH`.
  let executable: URL

  /// Finds `git` on `PATH`; fails with how to install it when it is missing.
  init() throws(CheckInputError) {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    let candidates = path.split(separator: ":").map { URL(fileURLWithPath: String($0)).appendingPathComponent("git") }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
      throw CheckInputError(
        "--against needs git, which is not installed or not on PATH",
        notes: ["install git (apt-get install git, brew install git), or run 'modelc check' without --against"])
    }
    executable = found
  }

  /// What a git run printed.
  struct Output {
    var status: Int32
    var standardOutput: Data
    var standardError: String
  }

  /// Runs `git -C directory arguments…` to completion.
  func run(_ arguments: [String], in directory: String) throws(CheckInputError) -> Output {
    let process = Process()
    process.executableURL = executable
    process.arguments = ["-C", directory] + arguments
    var environment = ProcessInfo.processInfo.environment
    environment["GIT_TERMINAL_PROMPT"] = "0"
    environment["LC_ALL"] = "C"
    process.environment = environment
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = FileHandle.nullDevice
    do {
      try process.run()
    } catch {
      throw CheckInputError("cannot run git at '\(executable.path)': \(error)")
    }
    // Read both pipes to their end before waiting, so a large output never blocks git.
    let errorData = ReadBox()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
      errorData.data = error.fileHandleForReading.readDataToEndOfFile()
      group.leave()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return Output(
      status: process.terminationStatus, standardOutput: data,
      standardError: String(decoding: errorData.data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
  }
}

/// Bytes read on another thread, handed back after the thread is joined.
private final class ReadBox: @unchecked Sendable {
  var data = Data()
}
