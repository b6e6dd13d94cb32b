import Foundation
import ModelCodegen
import TestSupport

/// Compiles generated files against the package's `Persistence` module, as an app's module
/// would: Swift 6 language mode (strict concurrency), warnings as errors, SIL diagnostics
/// included (`-c`, whole module).
///
/// Compilers run as child processes awaited without blocking a thread (other tests run on the
/// same small pool), at most one per processor at a time.
enum SwiftCompiler {
  /// The directory with the build's `.swiftmodule` files: next to the test executable (the
  /// debug build CI runs), else `.build/debug/Modules`.
  static let modules: URL = {
    let candidates = [
      Bundle.main.executableURL?.deletingLastPathComponent().appendingPathComponent("Modules"),
      URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("Modules"),
      TestPaths.packageRoot.appendingPathComponent(".build/debug/Modules"),
    ].compactMap { $0 }
    return candidates.first {
      FileManager.default.fileExists(atPath: $0.appendingPathComponent("Persistence.swiftmodule").path)
    } ?? candidates[candidates.count - 1]
  }()

  private static let slots = ProcessSlots(ProcessInfo.processInfo.activeProcessorCount)

  /// Compiles the files (and any extra sources) as one module; nil when they compile, else
  /// the compiler's output.
  static func check(_ files: [GeneratedFile], extraSources: [String: String] = [:]) async -> String? {
    let directory = TestPaths.temporaryDirectory("codegen-compile")
    defer { try? FileManager.default.removeItem(at: directory) }
    var paths: [String] = []
    for file in files {
      let url = directory.appendingPathComponent(file.name)
      try? Data(file.contents.utf8).write(to: url)
      paths.append(url.path)
    }
    for (name, source) in extraSources.sorted(by: { $0.key < $1.key }) {
      let url = directory.appendingPathComponent(name)
      try? Data(source.utf8).write(to: url)
      paths.append(url.path)
    }
    let arguments =
      [
        "swiftc", "-c", "-wmo", "-parse-as-library", "-swift-version", "6", "-warnings-as-errors", "-module-name",
        "ModelcGeneratedCheck", "-I", modules.path, "-I",
        TestPaths.packageRoot.appendingPathComponent("Sources/CSQLite").path, "-o",
        directory.appendingPathComponent("check.o").path,
      ] + paths
    let (status, output) = await run(arguments, in: directory)
    return status == 0 ? nil : output
  }

  /// Runs a command through `env`, returning its exit status and its output and errors.
  static func run(_ arguments: [String], in directory: URL) async -> (Int32, String) {
    await slots.acquire()
    let result = await runNow(arguments, in: directory)
    await slots.release()
    return result
  }

  private static func runNow(_ arguments: [String], in directory: URL) async -> (Int32, String) {
    let log = directory.appendingPathComponent(".output-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: log) }
    guard let handle = try? FileHandle(forWritingTo: log) else { return (-1, "cannot create \(log.path)") }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    process.standardOutput = handle
    process.standardError = handle
    let status: Int32 = await withCheckedContinuation { continuation in
      process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
      do {
        try process.run()
      } catch {
        process.terminationHandler = nil
        continuation.resume(returning: -1)
      }
    }
    try? handle.close()
    let output = FileManager.default.contents(atPath: log.path) ?? Data()
    return (status, String(decoding: output, as: UTF8.self))
  }
}

/// A counting semaphore for async code.
private actor ProcessSlots {
  private var available: Int
  private var waiting: [CheckedContinuation<Void, Never>] = []

  init(_ count: Int) {
    available = max(1, count)
  }

  func acquire() async {
    if available > 0 {
      available -= 1
      return
    }
    await withCheckedContinuation { waiting.append($0) }
  }

  func release() {
    if waiting.isEmpty {
      available += 1
    } else {
      waiting.removeFirst().resume()
    }
  }
}
