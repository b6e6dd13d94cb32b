import Foundation
import TestSupport

/// Runs the built `modelc` executable, as a user would.
enum ModelcProcess {
  /// What a run printed and how it ended.
  struct Result {
    var status: Int32
    var output: String
    var error: String
  }

  /// The executable beside the test bundle (`.build/<configuration>/modelc`), when built.
  static let executable: URL? = {
    let fileManager = FileManager.default
    var candidates: [URL] = []
    if let first = CommandLine.arguments.first {
      var directory = URL(fileURLWithPath: first).deletingLastPathComponent()
      // macOS runs tests from inside `modelcPackageTests.xctest/Contents/MacOS`.
      while directory.pathComponents.contains(where: { $0.hasSuffix(".xctest") }) {
        directory = directory.deletingLastPathComponent()
      }
      candidates.append(directory.appendingPathComponent("modelc"))
    }
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("modelc"))
    candidates.append(TestPaths.packageRoot.appendingPathComponent(".build/debug/modelc"))
    return candidates.first { fileManager.isExecutableFile(atPath: $0.path) }
  }()

  static let absentReason =
    "the modelc executable was not found next to the test bundle; build it with `swift build` to run the command-line tests"

  /// Starts `modelc` with the arguments; output goes to files in `directory`.
  static func start(_ arguments: [String], in directory: URL) throws -> (Process, URL, URL) {
    guard let executable else { throw CocoaError(.fileNoSuchFile) }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let name = UUID().uuidString
    let output = directory.appendingPathComponent("\(name).out")
    let error = directory.appendingPathComponent("\(name).err")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    _ = FileManager.default.createFile(atPath: error.path, contents: nil)
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = try FileHandle(forWritingTo: error)
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    try process.run()
    return (process, output, error)
  }

  /// Waits for a started run.
  static func finish(_ started: (Process, URL, URL)) throws -> Result {
    started.0.waitUntilExit()
    return Result(
      status: started.0.terminationStatus, output: try String(contentsOf: started.1, encoding: .utf8),
      error: try String(contentsOf: started.2, encoding: .utf8))
  }

  /// Runs `modelc` to completion.
  static func run(_ arguments: [String], in directory: URL) throws -> Result {
    try finish(try start(arguments, in: directory))
  }
}

/// A fresh directory, removed when released.
final class ScratchDirectory {
  let url: URL

  init() {
    url = TestPaths.temporaryDirectory("modelc-cli")
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  /// Writes a file and returns its path.
  func write(_ name: String, _ text: String) throws -> String {
    let url = url.appendingPathComponent(name)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try text.write(to: url, atomically: true, encoding: .utf8)
    return url.path
  }

  /// Writes a one-version model (`<name>.xcdatamodel/contents`) and returns its path.
  func model(_ name: String, _ entities: String) throws -> String {
    _ = try write(
      "\(name).xcdatamodel/contents",
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
      \(entities)
      </model>
      """)
    return path("\(name).xcdatamodel")
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}
