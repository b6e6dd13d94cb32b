import Foundation
import SchemaCheck
import TestSupport

/// Model bundles written for the checks, and a temporary git repository holding a copy of
/// `Models/Tasks.xcdatamodeld`.
enum CheckFixtures {
  /// Writes `Name.xcdatamodeld` into `directory` with one version per (name, entity XML), the
  /// last one current; returns its path.
  static func bundle(_ name: String, in directory: URL, versions: [(String, String)]) throws -> String {
    let bundle = directory.appendingPathComponent("\(name).xcdatamodeld")
    for (version, entities) in versions {
      let folder = bundle.appendingPathComponent("\(version).xcdatamodel")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try modelXML(entities).write(to: folder.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
    }
    try currentVersionPlist(versions.last!.0).write(
      to: bundle.appendingPathComponent(".xccurrentversion"), atomically: true, encoding: .utf8)
    return bundle.path
  }

  /// A `contents` document: line 1 the XML declaration, line 2 `<model>`, line 3 the first line
  /// of `entities`.
  static func modelXML(_ entities: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic">
    \(entities)
    </model>

    """
  }

  /// A `.xccurrentversion` naming `version`.
  static func currentVersionPlist(_ version: String) -> String {
    """
    <?xml version="1.0" encoding="UTF-8"?>
    <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
    <plist version="1.0">
    <dict>
    \t<key>_XCCurrentVersionName</key>
    \t<string>\(version).xcdatamodel</string>
    </dict>
    </plist>

    """
  }

  /// The 1-based line and column of the first occurrence of `text` in the file.
  static func position(of text: String, in file: String) throws -> (line: Int, column: Int) {
    let contents = try String(contentsOfFile: file, encoding: .utf8)
    for (index, line) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      if let range = line.range(of: text) {
        return (index + 1, line.unicodeScalars.distance(from: line.startIndex, to: range.lowerBound) + 1)
      }
    }
    throw CocoaError(.fileReadUnknown)
  }
}

/// A temporary git repository with `Models/Tasks.xcdatamodeld` up to `Tasks 3` (current there)
/// committed on `main`: the tests add their own `Tasks 4`.
final class TasksRepository {
  let root: URL

  init() throws {
    root = TestPaths.temporaryDirectory("modelc-check-git")
    let models = root.appendingPathComponent("Models")
    try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: TestPaths.tasksModel, to: models.appendingPathComponent("Tasks.xcdatamodeld"))
    try FileManager.default.removeItem(atPath: "\(model)/Tasks 4.xcdatamodel")
    try CheckFixtures.currentVersionPlist("Tasks 3").write(
      toFile: "\(model)/.xccurrentversion", atomically: true, encoding: .utf8)
    try git("init", "-q", "-b", "main")
    try commitAll("Tasks model as released")
  }

  /// Whether git can be run here (the tests that need it say so when it cannot).
  static let gitAvailable: Bool = {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/git")
    }
  }()

  var model: String { root.appendingPathComponent("Models/Tasks.xcdatamodeld").path }

  /// The `contents` path of a version.
  func contents(_ version: String) -> String { "\(model)/\(version).xcdatamodel/contents" }

  /// Runs git in the repository; fails when git does.
  @discardableResult
  func git(_ arguments: String...) throws -> String {
    try Self.run(arguments, in: root)
  }

  static func run(_ arguments: [String], in directory: URL) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      [
        "git", "-c", "user.name=modelc tests", "-c", "user.email=tests@modelc.invalid", "-c", "commit.gpgsign=false",
      ] + arguments
    process.currentDirectoryURL = directory
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "git \(arguments) failed"])
    }
    return String(decoding: data, as: UTF8.self)
  }

  func commitAll(_ message: String) throws {
    try git("add", "-A")
    try git("commit", "-q", "-m", message)
  }

  /// Replaces `old` by `new` in a version's contents (which must contain it).
  func edit(_ version: String, replacing old: String, with new: String) throws {
    let path = contents(version)
    let text = try String(contentsOfFile: path, encoding: .utf8)
    precondition(text.contains(old), "'\(version)' does not contain \(old)")
    try text.replacingOccurrences(of: old, with: new).write(toFile: path, atomically: true, encoding: .utf8)
  }

  /// Adds `Tasks 4`, a copy of `Tasks 3` with `old` replaced by `new`, and makes it current.
  func addVersion4(replacing old: String, with new: String) throws {
    let folder = URL(fileURLWithPath: model).appendingPathComponent("Tasks 4.xcdatamodel")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: contents("Tasks 3"), toPath: folder.appendingPathComponent("contents").path)
    try edit("Tasks 4", replacing: old, with: new)
    try CheckFixtures.currentVersionPlist("Tasks 4").write(
      toFile: "\(model)/.xccurrentversion", atomically: true, encoding: .utf8)
  }

  /// Checks the model against `main`.
  func check(against ref: String? = "main") throws -> CheckReport {
    // The model's folder, as the default would read it from the repository: the default also
    // reads `Migrations/` of the current directory, which is this package's.
    try SchemaCheck.run(
      SchemaCheckRequest(
        paths: [model], against: ref,
        mappings: CatalogMappingModels(directories: [URL(fileURLWithPath: model).deletingLastPathComponent().path])))
  }

  deinit {
    try? FileManager.default.removeItem(at: root)
  }
}
