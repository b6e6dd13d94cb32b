import Foundation
import TestSupport
import Testing

/// `modelc diff` run as a user runs it, in both formats, with and without `--check`: each change
/// marked when it loses data or needs no migration, the verdict on lightweight migration, and
/// exit status 1 under `--check` exactly when the step loses data or needs a mapping model that
/// no folder holds.
@Suite(
  "modelc diff",
  .enabled(if: ModelcProcess.executable != nil, Comment(rawValue: ModelcProcess.absentReason)))
struct DiffCommandTests {
  static let title = #"<attribute name="title" attributeType="String"/>"#
  static let checkedTitle = #"<attribute name="title" attributeType="String" minValueString="1"/>"#
  static let notes = #"<attribute name="notes" optional="YES" attributeType="String"/>"#
  static let price = #"<attribute name="price" optional="YES" attributeType="Double" usesScalarValueType="NO"/>"#
  static let sku = #"<attribute name="sku" attributeType="String"/>"#

  /// A bundle whose three steps are the three verdicts: `Shop` → `Shop 2` drops `notes`
  /// (lightweight, loses data), `Shop 2` → `Shop 3` only adds a validation rule (same hashes),
  /// `Shop 3` → `Shop 4` adds a required attribute without a default (needs a mapping model);
  /// and an empty folder of mapping models.
  static func shop(in scratch: ScratchDirectory) throws -> (model: String, mappings: String) {
    func item(_ properties: String...) -> String {
      #"<entity name="Item" representedClassName="Item">"# + properties.joined() + "</entity>"
    }
    let model = try scratch.bundle(
      "Shop",
      versions: [
        ("Shop", item(title, notes, price)), ("Shop 2", item(title, price)), ("Shop 3", item(checkedTitle, price)),
        ("Shop 4", item(checkedTitle, price, sku)),
      ])
    let mappings = scratch.path("Migrations")
    try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
    return (model, mappings)
  }

  /// The JSON object a run printed.
  static func object(_ result: ProcessRun) throws -> [String: Any] {
    let parsed = try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    return try #require(parsed as? [String: Any], "not a JSON object: \(result.output)")
  }

  @Test("A lightweight step that drops data: marked in text and JSON; --check fails, without it the run passes")
  func losesData() throws {
    let scratch = ScratchDirectory()
    let (model, mappings) = try Self.shop(in: scratch)
    let arguments = ["diff", model, "--to", "Shop 2", "--mappings", mappings]
    let text = try ModelcProcess.run(arguments)
    #expect(text.status == 0, "\(text.error)")
    #expect(
      text.output == """
        'Shop' → 'Shop 2'
          Item.notes: attribute removed; its stored values are dropped [loses data]
        Lightweight migration can carry this out, dropping the data marked above.

        """)
    let checked = try ModelcProcess.run(arguments + ["--check"])
    #expect(checked.status == 1)
    #expect(checked.output == text.output)

    let json = try ModelcProcess.run(arguments + ["--format", "json", "--check"])
    #expect(json.status == 1)
    let object = try Self.object(json)
    #expect(object["from"] as? String == "Shop")
    #expect(object["to"] as? String == "Shop 2")
    #expect(object["needsMigration"] as? Bool == true)
    #expect(object["lightweight"] as? Bool == true)
    #expect(object["losesData"] as? Bool == true)
    #expect(object["coveredBy"] is NSNull)
    let changes = try #require(object["changes"] as? [[String: Any]])
    #expect(changes.count == 1)
    #expect(changes.first?["kind"] as? String == "attributeRemoved")
    #expect(changes.first?["property"] as? String == "notes")
    #expect(changes.first?["losesData"] as? Bool == true)
    #expect((object["refusals"] as? [Any])?.isEmpty == true)
  }

  @Test("A change that leaves the hashes equal needs no migration: --check passes, in both formats")
  func noMigration() throws {
    let scratch = ScratchDirectory()
    let (model, mappings) = try Self.shop(in: scratch)
    let text = try ModelcProcess.run(["diff", model, "--from", "Shop 2", "--to", "Shop 3", "--check"])
    #expect(text.status == 0, "\(text.output)\(text.error)")
    #expect(
      text.output == """
        'Shop 2' → 'Shop 3'
          Item.title: validation (min/max/regular expression) changed [no migration needed]
        Stores need no migration: the version hashes are equal.

        """)
    let json = try ModelcProcess.run([
      "diff", model, "--from", "Shop 2", "--to", "Shop 3", "--check", "--format", "json", "--mappings", mappings,
    ])
    #expect(json.status == 0)
    let object = try Self.object(json)
    #expect(object["needsMigration"] as? Bool == false)
    #expect(object["lightweight"] as? Bool == true)
    #expect(object["losesData"] as? Bool == false)
    let changes = try #require(object["changes"] as? [[String: Any]])
    #expect(changes.map { $0["changesHash"] as? Bool } == [false])
  }

  @Test("A step inference refuses: the refusal and how to start a mapping model; --check fails, in both formats")
  func needsMapping() throws {
    let scratch = ScratchDirectory()
    let (model, mappings) = try Self.shop(in: scratch)
    // Without --from and --to: the current version and the one before it.
    let text = try ModelcProcess.run(["diff", model, "--mappings", mappings])
    #expect(text.status == 0, "\(text.error)")
    #expect(
      text.output == """
        'Shop 3' → 'Shop 4'
          Item.sku: attribute added (String, required, no default)
        Lightweight migration cannot carry this out; a mapping model is needed for:
          Item.sku: attribute added (String, required, no default): a new required attribute needs a default value for the existing objects; give it one or make it optional
        No mapping model covers this step; start one with: modelc mapping new \(model) --from 'Shop 3' --to 'Shop 4' --output Migrations/Shop3ToShop4.xcmappingmodel

        """)
    #expect(try ModelcProcess.run(["diff", model, "--mappings", mappings, "--check"]).status == 1)

    let json = try ModelcProcess.run(["diff", model, "--mappings", mappings, "--format", "json", "--check"])
    #expect(json.status == 1)
    let object = try Self.object(json)
    #expect(object["lightweight"] as? Bool == false)
    #expect(object["losesData"] as? Bool == false)
    let refusals = try #require(object["refusals"] as? [[String: Any]])
    #expect(refusals.count == 1)
    #expect(refusals.first?["entity"] as? String == "Item")
    #expect(refusals.first?["property"] as? String == "sku")
    #expect((refusals.first?["reason"] as? String)?.hasPrefix("a new required attribute needs a default value") == true)
    // The same input prints the same bytes.
    let again = try ModelcProcess.run(["diff", model, "--mappings", mappings, "--format", "json", "--check"])
    #expect(again.output == json.output)
  }

  @Test("Nothing to compare, an unknown version: exit 1 with what to pass; an unknown format: exit 2")
  func errors() throws {
    let scratch = ScratchDirectory()
    let (model, _) = try Self.shop(in: scratch)
    let first = try ModelcProcess.run(["diff", model, "--to", "Shop"])
    #expect(first.status == 1)
    #expect(first.error.contains("'Shop' is the first version; there is nothing to compare it with"), "\(first.error)")
    #expect(first.error.contains("note: pass --from and --to"))
    let unknown = try ModelcProcess.run(["diff", model, "--from", "Shop 7"])
    #expect(unknown.status == 1)
    #expect(unknown.error.contains("the model has no version 'Shop 7'"), "\(unknown.error)")
    let format = try ModelcProcess.run(["diff", model, "--format", "yaml"])
    #expect(format.status == 2)
  }
}
