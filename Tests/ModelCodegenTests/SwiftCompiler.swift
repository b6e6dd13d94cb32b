import Foundation
import ModelCodegen
import TestSupport

/// Compiles generated files against the package's `Persistence` module, as an app's module
/// would: Swift 6 language mode (strict concurrency), warnings as errors, SIL diagnostics
/// included (`-c`, whole module).
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

  /// Compiles the files (and any extra sources) as one module; nil when they compile, else
  /// the compiler's output.
  static func check(_ files: [GeneratedFile], extraSources: [String: String] = [:]) -> String? {
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
    let (status, output) = run(arguments, in: directory)
    return status == 0 ? nil : output
  }

  /// Runs a command through `env`, returning its exit status and its output and errors.
  static func run(_ arguments: [String], in directory: URL) -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    do {
      try process.run()
    } catch {
      return (-1, "cannot run \(arguments[0]): \(error)")
    }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }
}
