import Foundation
import Persistence
import SchemaCheck
import TestSupport
import Testing

/// `--store`: a store seeded at the first version with data that the second version's rules
/// refuse; every offending object is counted exactly, and the store is left as it was.
struct StoreCheckTests {
  static let version1 = """
        <entity name="Item" representedClassName="Item">
            <attribute name="code" optional="YES" attributeType="String"/>
            <attribute name="legacy" optional="YES" attributeType="String"/>
            <attribute name="note" optional="YES" attributeType="String"/>
            <attribute name="score" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="item" inverseEntity="Tag"/>
        </entity>
        <entity name="Old" representedClassName="Old">
            <attribute name="x" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Tag" representedClassName="Tag">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
    """

  /// `note` made required, `code` made unique, `score` bounded to 0…10, `legacy` and `Old`
  /// removed, `tags` made to-one, and `rank` added as required without a default.
  static let version2 = """
        <entity name="Item" representedClassName="Item">
            <attribute name="code" optional="YES" attributeType="String"/>
            <attribute name="note" attributeType="String"/>
            <attribute name="rank" attributeType="Integer 16" usesScalarValueType="YES"/>
            <attribute name="score" attributeType="Integer 32" minValueString="0" maxValueString="10" defaultValueString="0" usesScalarValueType="YES"/>
            <relationship name="tags" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Tag" inverseName="item" inverseEntity="Tag"/>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="code"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
        </entity>
        <entity name="Tag" representedClassName="Tag">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
        </entity>
    """

  /// A bundle with both versions and a store at the first, holding five items, three tags
  /// and three `Old` objects.
  private func seededStore() throws -> (model: String, store: String, directory: URL) {
    let directory = TestPaths.temporaryDirectory("modelc-check-store")
    let model = try CheckFixtures.bundle(
      "Items", in: directory, versions: [("Items", Self.version1), ("Items 2", Self.version2)])
    let bundle = try ModelBundle(contentsOf: model)
    let store = directory.appendingPathComponent("Items.sqlite")
    let container = try PersistentContainer(bundle: bundle, versionName: "Items", options: .file(store))
    let context = container.newContext()
    func item(_ code: String?, note: String?, score: Int64, legacy: String?) throws -> ManagedObject {
      let object = try context.insert(entityNamed: "Item")
      try object.setValue(code.map { .string($0) }, forKey: "code")
      try object.setValue(note.map { .string($0) }, forKey: "note")
      try object.setValue(.integer(score), forKey: "score")
      try object.setValue(legacy.map { .string($0) }, forKey: "legacy")
      return object
    }
    let first = try item("A", note: nil, score: 5, legacy: "x")
    _ = try item("A", note: "n", score: 20, legacy: nil)
    let third = try item("B", note: nil, score: 11, legacy: "y")
    _ = try item(nil, note: nil, score: 0, legacy: nil)
    _ = try item(nil, note: "m", score: 10, legacy: nil)
    var tags: [ManagedObject] = []
    for name in ["t1", "t2", "t3"] {
      let tag = try context.insert(entityNamed: "Tag")
      try tag.setValue(.string(name), forKey: "name")
      tags.append(tag)
    }
    try first.setObjects([tags[0], tags[1]], forKey: "tags")
    try third.setObjects([tags[2]], forKey: "tags")
    for _ in 0..<3 {
      let old = try context.insert(entityNamed: "Old")
      try old.setValue(.string("o"), forKey: "x")
    }
    try context.save()
    return (model, store.path, directory)
  }

  private func finding(_ report: CheckReport, _ rule: String, property: String?, store: String) throws -> Finding {
    let matching = report.findings.filter { $0.rule == rule && $0.property == property && $0.message.contains(store) }
    #expect(matching.count == 1, "\(rule) \(property ?? "-"): \(report.findings.map(\.message))")
    return try #require(matching.first)
  }

  @Test func countsEveryOffendingObject() throws {
    let (model, store, directory) = try seededStore()
    defer { try? FileManager.default.removeItem(at: directory) }
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let report = try SchemaCheck.run(SchemaCheckRequest(paths: [model], stores: [store]))
    #expect(report.stores == [store])
    let contents2 = "\(model)/Items 2.xcdatamodel/contents"

    let nulls = try finding(report, "data-nulls-in-required", property: "note", store: store)
    #expect(nulls.severity == .error)
    #expect(nulls.message.hasPrefix("3 objects of 'Item'"))
    let (line, column) = try CheckFixtures.position(of: #"<attribute name="note""#, in: contents2)
    #expect(nulls.location == SourceLocation(file: contents2, line: line, column: column))
    #expect(nulls.fromVersion == "Items" && nulls.toVersion == "Items 2")

    let rank = try finding(report, "data-nulls-in-required", property: "rank", store: store)
    #expect(rank.message.hasPrefix("5 objects of 'Item'"))

    let duplicates = try finding(report, "data-duplicates-in-unique", property: "code", store: store)
    #expect(duplicates.severity == .error)
    #expect(duplicates.message.hasPrefix("2 objects of 'Item'"))
    #expect(duplicates.message.contains("share 1 value of (code)"))
    #expect(duplicates.location?.line == (try CheckFixtures.position(of: "<uniquenessConstraint>", in: contents2)).line)

    let range = try finding(report, "data-out-of-range", property: "score", store: store)
    #expect(range.severity == .error)
    #expect(range.message.hasPrefix("2 objects of 'Item'"))
    #expect(range.message.contains("maximum 10"))

    let legacy = try finding(report, "data-loss", property: "legacy", store: store)
    #expect(legacy.message.hasPrefix("2 objects of 'Item'"))
    #expect(legacy.message.contains("hold a value of 'legacy'"))
    #expect(legacy.location?.file == "\(model)/Items.xcdatamodel/contents")

    let toOne = try finding(report, "data-loss", property: "tags", store: store)
    #expect(toOne.message.hasPrefix("1 object of 'Item'"))
    #expect(toOne.message.contains("has more than one object in 'tags'"))

    let old = try finding(report, "data-loss", property: nil, store: store)
    #expect(old.message.contains("3 objects in"))
    #expect(old.entity == "Old")

    // Read-only: the store file is byte for byte what it was.
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    #expect(report.fails(strict: false))
  }

  @Test func aStoreAtTheCurrentVersionHasNoDataFindings() throws {
    let directory = TestPaths.temporaryDirectory("modelc-check-store")
    defer { try? FileManager.default.removeItem(at: directory) }
    let model = try CheckFixtures.bundle(
      "Items", in: directory, versions: [("Items", Self.version1), ("Items 2", Self.version2)])
    let store = directory.appendingPathComponent("Current.sqlite")
    let container = try PersistentContainer(bundle: try ModelBundle(contentsOf: model), options: .file(store))
    let context = container.newContext()
    let item = try context.insert(entityNamed: "Item")
    try item.setValue(.string("n"), forKey: "note")
    try item.setValue(.integer(1), forKey: "rank")
    try context.save()
    let report = try SchemaCheck.run(SchemaCheckRequest(paths: [model], stores: [store.path]))
    #expect(!report.findings.contains { $0.message.contains(store.path) })
  }

  @Test func aStoreOfAnotherModelIsAnInputError() throws {
    let (_, store, directory) = try seededStore()
    defer { try? FileManager.default.removeItem(at: directory) }
    let error = try #require(throws: CheckInputError.self) {
      try SchemaCheck.run(SchemaCheckRequest(paths: [TestPaths.tasksModel.path], stores: [store]))
    }
    #expect(error.message.contains("matches no version"))
    let missing = try #require(throws: CheckInputError.self) {
      try SchemaCheck.run(SchemaCheckRequest(paths: [TestPaths.tasksModel.path], stores: ["/nonexistent.sqlite"]))
    }
    #expect(missing.message.contains("no store at"))
  }
}
