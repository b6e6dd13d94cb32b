import Foundation
import TestSupport
import Testing

/// `modelc validate` run as a user runs it: diagnostics placed at their file, line and column
/// (errors on standard error, warnings on standard output), a summary line per model, and exit
/// status 0 when every model is valid (warnings allowed), 1 when any has an error, 2 for a wrong
/// command line.
@Suite(
  "modelc validate",
  .enabled(if: ModelcProcess.executable != nil, Comment(rawValue: ModelcProcess.absentReason)))
struct ValidateCommandTests {
  static let models = TestPaths.fixtures.appendingPathComponent("models")

  @Test("A valid bundle: exit 0, one summary line, nothing on standard error")
  func validBundle() throws {
    let result = try ModelcProcess.run(["validate", TestPaths.tasksModel.path])
    #expect(result.status == 0, "\(result.error)")
    #expect(result.output == "\(TestPaths.tasksModel.path): valid (4 versions, 0 errors, 0 warnings)\n")
    #expect(result.error.isEmpty)
  }

  @Test("An error: exit 1, the error at file:line:col with a note on standard error, 'invalid' in the summary")
  func invalidBundle() throws {
    let scratch = ScratchDirectory()
    let model = try scratch.model(
      "Shop",
      """
        <entity name="Item" representedClassName="Item">
          <attribute name="title" attributeType="String"/>
          <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/>
        </entity>
      """)
    let result = try ModelcProcess.run(["validate", model])
    #expect(result.status == 1)
    let contents = model + "/contents"
    #expect(
      result.error.hasPrefix(
        "\(contents):5:5: error: relationship 'owner' of entity 'Item' has destination entity 'Owner', which does not exist\n\(contents):5:5: note: "
      ), "\(result.error)")
    #expect(result.output == "\(model): invalid (1 version, 1 error, 0 warnings)\n")
  }

  @Test("Warnings only: exit 0, each warning on standard output at its line and column")
  func warningsPass() throws {
    let model = Self.models.appendingPathComponent("Clashes.xcdatamodel").path
    let result = try ModelcProcess.run(["validate", model])
    #expect(result.status == 0, "\(result.error)")
    #expect(
      result.output.contains(
        "\(model)/contents:16:9: warning: property 'Swift' of entity 'Data' starts with an uppercase letter\n"))
    #expect(result.output.hasSuffix("\(model): valid (1 version, 0 errors, 4 warnings)\n"))
    #expect(result.error.isEmpty)
  }

  @Test("Several models: one verdict each; --quiet prints errors only; any error fails the run")
  func severalModels() throws {
    let clashes = Self.models.appendingPathComponent("Clashes.xcdatamodel").path
    let invalid = Self.models.appendingPathComponent("Invalid.xcdatamodeld").path
    let both = try ModelcProcess.run(["validate", TestPaths.tasksModel.path, clashes])
    #expect(both.status == 0)
    #expect(both.output.contains("\(TestPaths.tasksModel.path): valid"))
    #expect(both.output.contains("\(clashes): valid (1 version, 0 errors, 4 warnings)"))

    let quiet = try ModelcProcess.run(["validate", "--quiet", clashes, invalid])
    #expect(quiet.status == 1)
    #expect(quiet.output.isEmpty, "--quiet printed warnings or a summary: \(quiet.output)")
    #expect(quiet.error.contains(": error: relationship 'owner' of entity 'Item'"), "\(quiet.error)")
  }

  @Test("Output is the same from run to run")
  func deterministic() throws {
    let clashes = Self.models.appendingPathComponent("Clashes.xcdatamodel").path
    let first = try ModelcProcess.run(["validate", clashes, TestPaths.tasksModel.path])
    let second = try ModelcProcess.run(["validate", clashes, TestPaths.tasksModel.path])
    #expect(first.output == second.output)
    #expect(first.error == second.error)
  }

  @Test("What cannot be read: a missing path and an Xcode 3 model exit 1 and say what to do")
  func unreadable() throws {
    let missing = try ModelcProcess.run(["validate", "/nonexistent/Shop.xcdatamodeld"])
    #expect(missing.status == 1)
    #expect(missing.error.contains("no model at '/nonexistent/Shop.xcdatamodeld'"), "\(missing.error)")
    let legacy = Self.models.appendingPathComponent("Legacy.xcdatamodel").path
    let old = try ModelcProcess.run(["validate", legacy])
    #expect(old.status == 1)
    #expect(old.error.contains("binary format of Xcode 3"), "\(old.error)")
    #expect(old.error.contains("note: open the model in a current Xcode and save it"))
    #expect(old.output == "\(legacy): invalid (unreadable, 1 error, 0 warnings)\n")
  }

  @Test("A wrong command line exits 2 with the usage error")
  func usageError() throws {
    let none = try ModelcProcess.run(["validate"])
    #expect(none.status == 2)
    #expect(none.error.contains("missing required argument 'MODEL'"), "\(none.error)")
    let unknown = try ModelcProcess.run(["validate", TestPaths.tasksModel.path, "--frobnicate"])
    #expect(unknown.status == 2)
  }
}
