import Foundation
import SchemaCheck
import TestSupport
import Testing

/// `modelc check` on a git repository holding `Models/Tasks.xcdatamodeld`: each kind of change
/// after the commit gives its rule, severity and location, and fails the check or not.
@Suite(.enabled(if: TasksRepository.gitAvailable, "git is not installed, so the git history checks cannot run"))
struct HistoryCheckTests {
  static let notes = #"<attribute name="notes" optional="YES" attributeType="String"/>"#
  static let title = #"<attribute name="title" attributeType="String" minValueString="1"/>"#
  static let priorityType =
    #"attributeType="Integer 16" minValueString="1" maxValueString="3" defaultValueString="2" usesScalarValueType="YES""#
  static let project =
    #"<relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>"#

  /// The only finding of `rule`, failing the test when there is not exactly one.
  private func only(_ rule: String, in report: CheckReport) throws -> Finding {
    let matching = report.findings.filter { $0.rule == rule }
    #expect(matching.count == 1, "findings of \(rule): \(report.findings.map(\.message))")
    return try #require(matching.first)
  }

  private func expectLocation(_ finding: Finding, file: String, of text: String) throws {
    let (line, column) = try CheckFixtures.position(of: text, in: file)
    #expect(finding.location?.file == file)
    #expect(finding.location?.line == line)
    #expect(finding.location?.column == column)
  }

  @Test func anUnchangedModelHasNoFindings() throws {
    let repository = try TasksRepository()
    let report = try repository.check()
    #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
    #expect(report.stepCount == 2)
    #expect(!report.fails(strict: true))
  }

  @Test func aRequiredAttributeWithoutDefault() throws {
    let repository = try TasksRepository()
    let added = #"<attribute name="estimate" attributeType="Integer 32" usesScalarValueType="YES"/>"#
    try repository.addVersion4(replacing: Self.title, with: Self.title + "\n        " + added)
    let report = try repository.check()
    let finding = try only("required-without-default", in: report)
    #expect(finding.severity == .error)
    #expect(finding.entity == "Task" && finding.property == "estimate")
    #expect(finding.fromVersion == "Tasks 3" && finding.toVersion == "Tasks 4")
    #expect(finding.help.contains("defaultValueString"))
    try expectLocation(finding, file: repository.contents("Tasks 4"), of: added)
    let step = try only("step-not-inferable", in: report)
    #expect(step.severity == .error)
    #expect(step.message.contains("Task.estimate"))
    try expectLocation(step, file: repository.contents("Tasks 4"), of: added)
    #expect(report.fails(strict: false))
  }

  @Test func aTypeChange() throws {
    let repository = try TasksRepository()
    try repository.addVersion4(
      replacing: Self.priorityType, with: #"attributeType="String" defaultValueString="medium""#)
    let report = try repository.check()
    let finding = try only("type-change", in: report)
    #expect(finding.severity == .warning)
    #expect(finding.message.contains("Integer 16") && finding.message.contains("String"))
    try expectLocation(finding, file: repository.contents("Tasks 4"), of: #"<attribute name="priority""#)
    #expect(try only("step-not-inferable", in: report).severity == .error)
    #expect(report.fails(strict: false))
  }

  @Test func aRemovedAttributeLosesData() throws {
    let repository = try TasksRepository()
    try repository.addVersion4(replacing: Self.notes + "\n", with: "")
    let report = try repository.check()
    let finding = try only("data-loss", in: report)
    #expect(finding.severity == .warning)
    #expect(finding.entity == "Task" && finding.property == "notes")
    // A removal points at the element in the older version, the only one that has it.
    try expectLocation(finding, file: repository.contents("Tasks 3"), of: Self.notes)
    #expect(report.findings.filter { $0.rule == "step-not-inferable" }.isEmpty)
    #expect(!report.fails(strict: false))
    #expect(report.fails(strict: true))
  }

  @Test func aRenameWithoutRenamingIdentifier() throws {
    let repository = try TasksRepository()
    let renamed = #"<attribute name="name" attributeType="String" minValueString="1"/>"#
    try repository.addVersion4(replacing: Self.title, with: renamed)
    let report = try repository.check()
    let finding = try only("possible-rename", in: report)
    #expect(finding.severity == .warning)
    #expect(finding.property == "name")
    #expect(finding.message.contains("same type String"))
    #expect(finding.message.contains("same position"))
    #expect(finding.help.contains(#"add elementID="title" to <attribute name="name">"#))
    try expectLocation(finding, file: repository.contents("Tasks 4"), of: renamed)
    #expect(try only("data-loss", in: report).property == "title")
  }

  @Test func aRenameWithRenamingIdentifierIsClean() throws {
    let repository = try TasksRepository()
    try repository.addVersion4(
      replacing: Self.title,
      with: #"<attribute name="name" attributeType="String" minValueString="1" elementID="title"/>"#)
    let report = try repository.check()
    #expect(report.findings.isEmpty, "\(report.findings.map(\.message))")
  }

  @Test func aToOneMadeToManyIsNotDowngradable() throws {
    let repository = try TasksRepository()
    try repository.addVersion4(
      replacing: Self.project,
      with: Self.project.replacingOccurrences(of: #"maxCount="1""#, with: #"toMany="YES""#))
    let report = try repository.check()
    let finding = try only("not-downgradable", in: report)
    #expect(finding.severity == .note)
    #expect(finding.message.contains("cannot be migrated back to 'Tasks 3'"))
    try expectLocation(finding, file: repository.contents("Tasks 4"), of: #"<relationship name="project""#)
    #expect(!report.fails(strict: true))
  }

  @Test func aReleasedVersionEditedInPlace() throws {
    let repository = try TasksRepository()
    let added = #"<attribute name="archived" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>"#
    try repository.edit("Tasks 3", replacing: Self.title, with: Self.title + "\n        " + added)
    let report = try repository.check()
    let finding = try only("released-version-edited", in: report)
    #expect(finding.severity == .error)
    #expect(finding.entity == "Task" && finding.fromVersion == "Tasks 3")
    #expect(finding.message.contains("version hash of entity 'Task' changed"))
    #expect(finding.message.contains("'archived'"))
    try expectLocation(finding, file: repository.contents("Tasks 3"), of: #"<entity name="Task""#)
    #expect(report.fails(strict: false))
  }

  @Test func aReleasedVersionEditedWithoutChangingHashes() throws {
    let repository = try TasksRepository()
    try repository.edit("Tasks 3", replacing: #"defaultValueString="2""#, with: #"defaultValueString="1""#)
    let report = try repository.check()
    let notes = report.findings.filter { $0.rule == "hash-unchanged-edit" }
    #expect(!notes.isEmpty)
    #expect(report.findings.allSatisfy { $0.rule == "hash-unchanged-edit" && $0.severity == .note })
    let finding = try #require(notes.first { $0.message.contains("released version 'Tasks 3'") })
    #expect(finding.help.contains("versionHashModifier") || finding.help.contains("new model version"))
    try expectLocation(finding, file: repository.contents("Tasks 3"), of: #"<attribute name="priority""#)
    #expect(!report.fails(strict: true))
  }

  @Test func aReleasedVersionDeleted() throws {
    let repository = try TasksRepository()
    try FileManager.default.removeItem(atPath: "\(repository.model)/Tasks 2.xcdatamodel")
    let report = try repository.check()
    let finding = try only("released-version-edited", in: report)
    #expect(finding.message.contains("'Tasks 2' exists at 'main' and was deleted"))
    #expect(finding.severity == .error)
    try expectLocation(finding, file: repository.contents("Tasks 3"), of: "<model")
  }

  @Test func theCurrentVersionMovedBack() throws {
    let repository = try TasksRepository()
    try CheckFixtures.currentVersionPlist("Tasks 2").write(
      toFile: "\(repository.model)/.xccurrentversion", atomically: true, encoding: .utf8)
    let report = try repository.check()
    let finding = try only("released-version-edited", in: report)
    #expect(finding.message.contains("moved back from 'Tasks 3'"))
    try expectLocation(finding, file: "\(repository.model)/.xccurrentversion", of: "<string>")
  }

  @Test func versionsReordered() throws {
    let repository = try TasksRepository()
    try "Tasks 2\nTasks\nTasks 3\n".write(
      toFile: "\(repository.model)/.modelc-versions", atomically: true, encoding: .utf8)
    let report = try repository.check()
    let finding = try #require(
      report.findings.first { $0.rule == "released-version-edited" && $0.message.contains("migration order") })
    #expect(finding.location?.file == "\(repository.model)/.modelc-versions")
  }

  @Test func aMissingRefIsAnInputError() throws {
    let repository = try TasksRepository()
    let error = try #require(throws: CheckInputError.self) { try repository.check(against: "release/9.9") }
    #expect(error.message.contains("'release/9.9' does not exist"))
    #expect(error.notes.contains { $0.contains("git fetch") })
  }

  @Test func outsideAGitRepositoryIsAnInputError() throws {
    let directory = TestPaths.temporaryDirectory("modelc-check-nogit")
    defer { try? FileManager.default.removeItem(at: directory) }
    try FileManager.default.copyItem(
      at: TestPaths.tasksModel, to: directory.appendingPathComponent("Tasks.xcdatamodeld"))
    let error = try #require(throws: CheckInputError.self) {
      try SchemaCheck.run(
        SchemaCheckRequest(paths: [directory.appendingPathComponent("Tasks.xcdatamodeld").path], against: "main"))
    }
    #expect(error.message.contains("not in one"))
  }

  @Test func worksInAShallowClone() throws {
    let repository = try TasksRepository()
    try repository.git("commit", "-q", "--allow-empty", "-m", "a second commit, so the clone is really shallow")
    let clone = TestPaths.temporaryDirectory("modelc-check-shallow")
    defer { try? FileManager.default.removeItem(at: clone) }
    _ = try TasksRepository.run(
      ["clone", "-q", "--depth=1", "file://\(repository.root.path)", clone.path], in: repository.root)
    #expect(try TasksRepository.run(["rev-parse", "--is-shallow-repository"], in: clone).hasPrefix("true"))
    let model = clone.appendingPathComponent("Models/Tasks.xcdatamodeld").path
    let contents = "\(model)/Tasks 3.xcdatamodel/contents"
    let text = try String(contentsOfFile: contents, encoding: .utf8)
    try text.replacingOccurrences(of: Self.notes + "\n", with: "").write(
      toFile: contents, atomically: true, encoding: .utf8)
    let report = try SchemaCheck.run(
      SchemaCheckRequest(
        paths: [model], against: "origin/main",
        mappings: CatalogMappingModels(directories: [clone.appendingPathComponent("Models").path])))
    #expect(report.findings.contains { $0.rule == "released-version-edited" && $0.entity == "Task" })
  }
}
