import Foundation
import Migration
import Persistence
import SQLite
import TestSupport
import Testing

@Suite("Progressive migrations")
struct ProgressiveMigrationTests {
  static func version(_ name: String, _ body: String) -> ModelVersion {
    let (version, diagnostics) = ModelReader.readVersion(
      xml: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\(body)</model>
        """, name: name)
    precondition(version != nil && !diagnostics.containsErrors, "\(diagnostics)")
    return version!
  }

  /// v1 → v3 directly would add a required attribute without a default; through v2 (which
  /// gives it a default) each step is lightweight.
  static let bundle = ModelBundle(
    name: "Items",
    versions: [
      version("Items", #"<entity name="Item"><attribute name="x" optional="YES" attributeType="String"/></entity>"#),
      version(
        "Items 2",
        #"<entity name="Item"><attribute name="x" optional="YES" attributeType="String"/><attribute name="y" attributeType="Integer 32" defaultValueString="7"/></entity>"#
      ),
      version(
        "Items 3",
        #"<entity name="Item"><attribute name="x" optional="YES" attributeType="String"/><attribute name="y" attributeType="Integer 32"/><attribute name="z" optional="YES" attributeType="Date"/></entity>"#
      ),
    ])

  @Test("Steps through every version when the direct migration cannot be inferred")
  func stepsThroughIntermediateVersions() throws {
    let url = TestPaths.temporaryDirectory("progressive").appendingPathComponent("Items.sqlite")
    let container = try PersistentContainer(bundle: Self.bundle, versionName: "Items", options: .file(url))
    let context = container.newContext()
    for index in 0..<10 {
      let item = try context.insert(entityNamed: "Item")
      try item.setValue(index.isMultiple(of: 3) ? nil : .string("item \(index)"), forKey: "x")
    }
    try context.save()

    let migration = StoreMigration(storeURL: url, bundle: Self.bundle)
    let plan = try migration.plan()
    #expect(plan.steps.map(\.destination.name) == ["Items 2", "Items 3"])
    let report = try migration.run(options: .init(keepsBackup: false))
    #expect(report.records.map(\.toVersion) == ["Items 2", "Items 3"])

    let migrated = try PersistentContainer(bundle: Self.bundle, options: .file(url)).newContext()
    let items = try migrated.fetch(FetchRequest<ManagedObject>(entityName: "Item", sortDescriptors: []))
    #expect(items.count == 10)
    let expected = (0..<10).map { $0.isMultiple(of: 3) ? "nil" : "item \($0)" }.sorted()
    let actual = try items.map { item -> String in
      if case .string(let text)? = try item.value(forKey: "x") { return text }
      return "nil"
    }.sorted()
    #expect(actual == expected)
    for item in items {
      #expect(try item.value(forKey: "y") == .integer(7))
      #expect(try item.value(forKey: "z") == nil)
    }
    // The history records both steps.
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    #expect(try MigrationHistory.records(on: connection).map(\.toVersion) == ["Items 2", "Items 3"])
  }

  @Test("A store whose hashes match no version is refused")
  func unknownStoreRefused() throws {
    let url = TestPaths.temporaryDirectory("unknown").appendingPathComponent("Other.sqlite")
    let other = Self.version(
      "Other", #"<entity name="Other"><attribute name="o" optional="YES" attributeType="String"/></entity>"#)
    _ = try PersistentContainer(model: other, options: .file(url))
    #expect(throws: PersistenceError.self) {
      _ = try StoreMigration(storeURL: url, bundle: Self.bundle).plan()
    }
  }

  @Test("A store newer than the target is refused, not migrated backwards")
  func backwardsRefused() throws {
    let url = TestPaths.temporaryDirectory("backwards").appendingPathComponent("Items.sqlite")
    _ = try PersistentContainer(bundle: Self.bundle, versionName: "Items 3", options: .file(url))
    #expect(throws: MigrationPlanningError.self) {
      _ = try StoreMigration(storeURL: url, bundle: Self.bundle).plan(to: Self.bundle.versions[0])
    }
  }
}
