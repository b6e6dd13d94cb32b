import Foundation
import TestSupport
import Testing

/// `modelc check` and `modelc diagram` run as a user runs them: output and exit status 0, 1 or 2.
@Suite(
  "modelc check and diagram",
  .enabled(if: ModelcProcess.executable != nil, Comment(rawValue: ModelcProcess.absentReason)),
  .enabled(if: CheckRepository.gitAvailable, "git is not installed, so the command-line checks cannot run"))
struct CheckCommandTests {
  static let title = #"<attribute name="title" attributeType="String" minValueString="1"/>"#
  static let notes = #"<attribute name="notes" optional="YES" attributeType="String"/>"#

  @Test func anUnchangedModelPasses() throws {
    let repository = try CheckRepository()
    let result = try ModelcProcess.run([
      "check", repository.model, "--mappings", repository.mappings, "--against", "main",
    ])
    #expect(result.status == 0, "\(result.output)\(result.error)")
    #expect(
      result.output.hasSuffix("modelc check: passed: 0 errors, 0 warnings, 0 notes (1 model, 2 steps, against main)\n"))
  }

  @Test func anErrorExitsOne() throws {
    let repository = try CheckRepository()
    try repository.addVersion4(
      replacing: Self.title,
      with: Self.title + "\n        " + #"<attribute name="estimate" attributeType="Integer 32"/>"#)
    let result = try ModelcProcess.run([
      "check", repository.model, "--mappings", repository.mappings, "--against", "main",
    ])
    #expect(result.status == 1)
    let contents = repository.contents("Tasks 4")
    #expect(
      result.output.contains(
        "\(contents):28:9: error: attribute 'Task.estimate' was added as required in 'Tasks 4' without a default value; existing objects have no value for it [required-without-default]"
      ))
    let github = try ModelcProcess.run([
      "check", repository.model, "--mappings", repository.mappings, "--format", "github",
    ])
    #expect(github.status == 1)
    #expect(github.output.contains("::error file=\(contents),line=28,col=9,title=required-without-default::"))
  }

  @Test func warningsFailOnlyWhenStrict() throws {
    let repository = try CheckRepository()
    try repository.addVersion4(replacing: Self.notes + "\n", with: "")
    #expect(try ModelcProcess.run(["check", repository.model, "--mappings", repository.mappings]).status == 0)
    #expect(
      try ModelcProcess.run(["check", repository.model, "--mappings", repository.mappings, "--strict"]).status == 1)
    let config = repository.root.appendingPathComponent("modelc.json").path
    try #"{"ignore": [{"rule": "data-loss", "property": "notes", "reason": "notes were never shown"}]}"#.write(
      toFile: config, atomically: true, encoding: .utf8)
    let ignored = try ModelcProcess.run([
      "check", repository.model, "--mappings", repository.mappings, "--strict", "--config", config,
    ])
    #expect(ignored.status == 0)
    #expect(ignored.output.contains("1 finding ignored by the configuration"))
  }

  @Test func aReleasedVersionEditedFailsWithSARIF() throws {
    let repository = try CheckRepository()
    try repository.edit("Tasks 3", replacing: Self.notes + "\n", with: "")
    let result = try ModelcProcess.run([
      "check", repository.model, "--mappings", repository.mappings, "--against", "main", "--format", "sarif",
    ])
    #expect(result.status == 1)
    #expect(result.output.contains(#""ruleId": "released-version-edited""#))
    #expect(result.output.contains(#""version": "2.1.0""#))
  }

  @Test(
    "Exit status 2 when an input cannot be used",
    arguments: [
      (["--against", "release/9.9"], "the git ref 'release/9.9' does not exist"),
      (["--store", "/nonexistent/Tasks.sqlite"], "no store at '/nonexistent/Tasks.sqlite'"),
      (["--mappings", "/nonexistent/Mappings"], "no folder '/nonexistent/Mappings'"),
      (["--config", "/nonexistent/modelc.json"], "cannot read the configuration file"),
      (["/nonexistent/Models"], "no such file or folder '/nonexistent/Models'"),
      (["--format", "xml"], "--format"),
    ])
  func inputErrors(arguments: [String], message: String) throws {
    let repository = try CheckRepository()
    let result = try ModelcProcess.run(["check", repository.model, "--mappings", repository.mappings] + arguments)
    #expect(result.status == 2)
    #expect(result.error.contains(message), "\(result.error)")
  }

  @Test func aConfigurationWithoutReasonIsAUsageError() throws {
    let repository = try CheckRepository()
    let config = repository.root.appendingPathComponent("modelc.json").path
    try #"{"ignore": [{"rule": "data-loss"}]}"#.write(toFile: config, atomically: true, encoding: .utf8)
    let result = try ModelcProcess.run([
      "check", repository.model, "--mappings", repository.mappings, "--config", config,
    ])
    #expect(result.status == 2)
    #expect(result.error.contains("has no \"reason\""))
  }

  @Test func diagramsMatchTheGoldenFiles() throws {
    let golden = TestPaths.fixtures.appendingPathComponent("golden/diagrams")
    let mermaid = try ModelcProcess.run(["diagram", TestPaths.tasksModel.path])
    #expect(mermaid.status == 0)
    #expect(mermaid.output == (try String(contentsOf: golden.appendingPathComponent("Tasks.mmd"), encoding: .utf8)))
    let dot = try ModelcProcess.run([
      "diagram", TestPaths.tasksModel.path, "--diff", "Tasks 2..Tasks 3", "--format", "dot",
    ])
    #expect(dot.status == 0)
    #expect(
      dot.output == (try String(contentsOf: golden.appendingPathComponent("Tasks 2-Tasks 3.dot"), encoding: .utf8)))
    let bad = try ModelcProcess.run(["diagram", TestPaths.tasksModel.path, "--diff", "Tasks 2"])
    #expect(bad.status == 2)
    let both = try ModelcProcess.run([
      "diagram", TestPaths.tasksModel.path, "--diff", "Tasks..Tasks 2", "--version", "Tasks",
    ])
    #expect(both.status == 2)
    let missing = try ModelcProcess.run(["diagram", TestPaths.tasksModel.path, "--version", "Tasks 9"])
    #expect(missing.status == 1)
  }

  @Test func svgNeedsGraphviz() throws {
    let hasDot = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/dot")
    }
    let result = try ModelcProcess.run(["diagram", TestPaths.tasksModel.path, "--format", "svg"])
    if hasDot {
      #expect(result.status == 0)
      #expect(result.output.contains("<svg"))
    } else {
      #expect(result.status == 1)
      #expect(result.error.contains("apt-get install graphviz"))
    }
  }
}

/// A temporary git repository holding a copy of `Models/Tasks.xcdatamodeld` up to `Tasks 3`
/// (current there), committed on `main`: the tests add their own `Tasks 4`.
final class CheckRepository {
  let root: URL

  static let gitAvailable: Bool = {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
      FileManager.default.isExecutableFile(atPath: "\($0)/git")
    }
  }()

  init() throws {
    root = TestPaths.temporaryDirectory("modelc-check-cli")
    let models = root.appendingPathComponent("Models")
    try FileManager.default.createDirectory(at: models, withIntermediateDirectories: true)
    try FileManager.default.copyItem(at: TestPaths.tasksModel, to: models.appendingPathComponent("Tasks.xcdatamodeld"))
    try FileManager.default.removeItem(atPath: "\(model)/Tasks 4.xcdatamodel")
    try Self.currentVersionPlist("Tasks 3").write(
      toFile: "\(model)/.xccurrentversion", atomically: true, encoding: .utf8)
    try git("init", "-q", "-b", "main")
    try git("add", "-A")
    try git("commit", "-q", "-m", "Tasks model as released")
  }

  var model: String { root.appendingPathComponent("Models/Tasks.xcdatamodeld").path }

  /// Where the repository's mapping models would be (the model's folder), passed explicitly:
  /// the default also reads `Migrations/` of the current directory, which is this package's.
  var mappings: String { root.appendingPathComponent("Models").path }

  func contents(_ version: String) -> String { "\(model)/\(version).xcdatamodel/contents" }

  func git(_ arguments: String...) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments =
      ["git", "-c", "user.name=modelc tests", "-c", "user.email=tests@modelc.invalid", "-c", "commit.gpgsign=false"]
      + arguments
    process.currentDirectoryURL = root
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw CocoaError(.executableLoad) }
  }

  func edit(_ version: String, replacing old: String, with new: String) throws {
    let text = try String(contentsOfFile: contents(version), encoding: .utf8)
    precondition(text.contains(old))
    try text.replacingOccurrences(of: old, with: new).write(
      toFile: contents(version), atomically: true, encoding: .utf8)
  }

  /// Adds `Tasks 4`, a copy of `Tasks 3` with `old` replaced by `new`, and makes it current.
  func addVersion4(replacing old: String, with new: String) throws {
    let folder = URL(fileURLWithPath: model).appendingPathComponent("Tasks 4.xcdatamodel")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: contents("Tasks 3"), toPath: folder.appendingPathComponent("contents").path)
    try edit("Tasks 4", replacing: old, with: new)
    try Self.currentVersionPlist("Tasks 4").write(
      toFile: "\(model)/.xccurrentversion", atomically: true, encoding: .utf8)
  }

  /// `.xccurrentversion` naming a version, as Xcode writes it.
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

  deinit {
    try? FileManager.default.removeItem(at: root)
  }
}
