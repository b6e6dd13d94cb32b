import Foundation
import TestSupport
import Testing

/// `modelc mapping show|check|new` and the mapping lines of `diff` and `migrate`, run as a user
/// runs them.
@Suite("modelc mapping")
struct MappingCommandTests {
  static let model = TestPaths.tasksModel.path

  /// A scratch folder holding a mapping from `from` to `to` made by `modelc mapping new`.
  static func newMapping(from: String, to: String) throws -> (ScratchDirectory, String) {
    let scratch = ScratchDirectory()
    let output = scratch.path("Migrations/Step.xcmappingmodel")
    let result = try ModelcProcess.run(["mapping", "new", model, "--from", from, "--to", to, "--output", output])
    #expect(result.status == 0, "\(result.error)")
    return (scratch, output)
  }

  @Test("mapping new, then show (text and JSON, identical from run to run) and check")
  func newShowCheck() throws {
    guard ModelcProcess.executable != nil else {
      print("skipped: \(ModelcProcess.absentReason)")
      return
    }
    let (scratch, mapping) = try Self.newMapping(from: "Tasks 2", to: "Tasks 3")
    defer { withExtendedLifetime(scratch) {} }
    let json = try ModelcProcess.run(["mapping", "show", mapping, "--model", Self.model, "--format", "json"])
    #expect(json.status == 0)
    #expect(json.output.contains("\"version\" : \"Tasks 2\"") || json.output.contains("\"version\": \"Tasks 2\""))
    #expect(json.output.contains("\"matchedBy\""))
    #expect(json.output.contains("\"TaskToTask\""))
    let again = try ModelcProcess.run(["mapping", "show", mapping, "--model", Self.model, "--format", "json"])
    #expect(again.output == json.output)
    let text = try ModelcProcess.run(["mapping", "show", mapping, "--model", Self.model])
    #expect(text.output.contains("source: 'Tasks 2' (matched by version hashes)"))
    let check = try ModelcProcess.run(["mapping", "check", mapping, "--model", Self.model])
    #expect(check.status == 0, "\(check.error)")
    #expect(check.output.contains("valid (Tasks 2 → Tasks 3, 0 errors"))
  }

  @Test("check of a mapping made for another model: exit 1, orphaned, closest version named")
  func checkOrphaned() throws {
    guard ModelcProcess.executable != nil else {
      print("skipped: \(ModelcProcess.absentReason)")
      return
    }
    let (scratch, mapping) = try Self.newMapping(from: "Tasks 2", to: "Tasks 3")
    let other = try scratch.model(
      "Other",
      """
      <entity name="Task" representedClassName="Task" syncable="YES">
          <attribute name="title" attributeType="String"/>
      </entity>
      """)
    let check = try ModelcProcess.run(["mapping", "check", mapping, "--model", other])
    #expect(check.status == 1)
    #expect(check.error.contains("error: mapping model 'Step' is orphaned"))
    #expect(check.error.contains("xcmapping.xml:"))
  }

  @Test("Bad input: a truncated mapping, a missing file, a usage error")
  func badInput() throws {
    guard ModelcProcess.executable != nil else {
      print("skipped: \(ModelcProcess.absentReason)")
      return
    }
    let (scratch, mapping) = try Self.newMapping(from: "Tasks 2", to: "Tasks 3")
    defer { withExtendedLifetime(scratch) {} }
    let file = URL(fileURLWithPath: mapping).appendingPathComponent("xcmapping.xml")
    let text = try String(contentsOf: file, encoding: .utf8)
    try String(text.prefix(2000)).write(to: file, atomically: true, encoding: .utf8)
    let truncated = try ModelcProcess.run(["mapping", "show", mapping, "--model", Self.model])
    #expect(truncated.status == 1)
    #expect(truncated.error.contains("xcmapping.xml:"))
    #expect(truncated.error.contains("error: the mapping model is not well-formed XML"))
    let missing = try ModelcProcess.run(["mapping", "check", "/nonexistent/X.xcmappingmodel", "--model", Self.model])
    #expect(missing.status == 1)
    #expect(missing.error.contains("no mapping model at '/nonexistent/X.xcmappingmodel'"))
    let usage = try ModelcProcess.run(["mapping", "new", Self.model, "--from", "Tasks"])
    #expect(usage.status == 2)
  }

  @Test("diff and a refused migrate say which mapping covers a step, or how to start one")
  func coverageLines() throws {
    guard ModelcProcess.executable != nil else {
      print("skipped: \(ModelcProcess.absentReason)")
      return
    }
    let scratch = ScratchDirectory()
    // Two versions whose step inference refuses: a required attribute added without a default.
    let model = try scratch.write(
      "Shop.xcdatamodeld/V1.xcdatamodel/contents",
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Item" representedClassName="Item" syncable="YES">
              <attribute name="name" attributeType="String"/>
          </entity>
      </model>
      """)
    _ = try scratch.write(
      "Shop.xcdatamodeld/V2.xcdatamodel/contents",
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Item" representedClassName="Item" syncable="YES">
              <attribute name="name" attributeType="String"/>
              <attribute name="price" attributeType="Double" usesScalarValueType="YES"/>
          </entity>
      </model>
      """)
    _ = model
    let bundle = scratch.path("Shop.xcdatamodeld")
    let none = try ModelcProcess.run(["diff", bundle, "--check", "--mappings", scratch.path("Migrations")])
    #expect(none.status == 1)
    #expect(none.output.contains("No mapping model covers this step; start one with: modelc mapping new"))
    let created = try ModelcProcess.run([
      "mapping", "new", bundle, "--from", "V1", "--to", "V2", "--output",
      scratch.path("Migrations/V1ToV2.xcmappingmodel"),
    ])
    #expect(created.status == 0, "\(created.error)")
    let covered = try ModelcProcess.run(["diff", bundle, "--check", "--mappings", scratch.path("Migrations")])
    #expect(covered.status == 0, "\(covered.output)")
    #expect(covered.output.contains("Covered by "))
    #expect(covered.output.contains("V1ToV2.xcmappingmodel"))
    // A store at V1: migrate plans the step through the covering mapping; without it, the
    // refusal says how to start one.
    let store = scratch.path("shop.sqlite")
    let made = try ModelcProcess.run(["store", "create", store, "--model", bundle, "--version", "V1"])
    #expect(made.status == 0, "\(made.error)")
    let planned = try ModelcProcess.run([
      "migrate", store, "--model", bundle, "--dry-run", "--mappings", scratch.path("Migrations"),
    ])
    #expect(planned.status == 0, "\(planned.error)")
    #expect(
      planned.output.contains("mapped by \(scratch.path("Migrations"))/V1ToV2.xcmappingmodel"), "\(planned.output)")
    let refused = try ModelcProcess.run([
      "migrate", store, "--model", bundle, "--dry-run", "--mappings", scratch.path("none"),
    ])
    #expect(refused.status == 1)
    #expect(refused.error.contains("start one with"), "\(refused.error)")
  }
}
