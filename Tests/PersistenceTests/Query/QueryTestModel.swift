import Foundation
import Persistence

/// A Tasks-like model for query tests, with every attribute type a predicate compares, nils
/// everywhere, a sub-entity, to-one and to-many relationships (through inverse foreign keys
/// and a join table), and a reflexive parent/children pair.
enum QueryTestModel {
  static let entities = """
    <entity name="Item">
        <attribute name="serial" attributeType="Integer 32" defaultValueString="0"/>
        <attribute name="title" attributeType="String" defaultValueString=""/>
        <attribute name="notes" optional="YES" attributeType="String"/>
        <attribute name="priority" optional="YES" attributeType="Integer 16"/>
        <attribute name="score" optional="YES" attributeType="Double"/>
        <attribute name="amount" optional="YES" attributeType="Decimal"/>
        <attribute name="due" optional="YES" attributeType="Date"/>
        <attribute name="done" attributeType="Boolean" defaultValueString="NO"/>
        <attribute name="uid" optional="YES" attributeType="UUID"/>
        <attribute name="link" optional="YES" attributeType="URI"/>
        <attribute name="blob" optional="YES" attributeType="Binary"/>
        <relationship name="group" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Group" \
    inverseName="items" inverseEntity="Group"/>
        <relationship name="labels" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Label" \
    inverseName="items" inverseEntity="Label"/>
        <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" \
    inverseName="children" inverseEntity="Item"/>
        <relationship name="children" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" \
    inverseName="parent" inverseEntity="Item"/>
        <fetchIndex name="byPriorityAndDue">
            <fetchIndexElement property="priority" type="Binary" order="ascending"/>
            <fetchIndexElement property="due" type="Binary" order="ascending"/>
        </fetchIndex>
    </entity>
    <entity name="Urgent" parentEntity="Item">
        <attribute name="level" optional="YES" attributeType="Integer 16"/>
    </entity>
    <entity name="Group">
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="rank" optional="YES" attributeType="Integer 32"/>
        <relationship name="items" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Item" \
    inverseName="group" inverseEntity="Item"/>
    </entity>
    <entity name="Label">
        <attribute name="name" optional="YES" attributeType="String"/>
        <attribute name="weight" optional="YES" attributeType="Double"/>
        <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" \
    inverseName="labels" inverseEntity="Item"/>
    </entity>
    """

  static let model: ModelVersion = ContextFixtures.model(entities, name: "Query")

  static func container() throws -> PersistentContainer {
    try PersistentContainer(model: model, options: .inMemory)
  }

  // MARK: - Value pools

  /// Strings with case, diacritic, normalization and wildcard variants, so folding matters.
  static let strings = [
    "apple", "Apple", "APPLE", "äpple", "Äpple", "café", "cafe", "Cafe\u{301}", "CAFÉ", "straße", "STRASSE",
    "İstanbul", "istanbul", "ISTANBUL", "", "a*b?c", "x%y_z", "日本語", "naïve", "NAÏVE", "résumé", "resume",
    "ǅemal", "Zebra", "zebra", "ab", "abc", "b", "ΟΔΟΣ", "οδος", "emoji 😀",
  ]
  static let labelNames = ["red", "Red", "rêd", "blue", "BLUE", "green", "", "Ünïcödé"]
  static let groupNames = ["Home", "home", "Work", "wörk", "Garden", ""]
  static let scores: [Double] = [-1.5, 0, 0.25, 1, 2.5, 3, 100]
  static let amounts: [Decimal] = [
    Decimal(string: "0.1")!, 2, Decimal(string: "3.25")!, Decimal(string: "12345678901234567890.5")!, -7,
  ]
  static let dates: [Date] = [-86_400.0, 0, 0.5, 700_000_000, 800_000_000.125, 800_000_001].map {
    Date(timeIntervalSinceReferenceDate: $0)
  }
  static let uuids = [
    UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
    UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
    UUID(uuidString: "FFFFFFFF-0000-4000-8000-000000000000")!,
  ]
  static let links = ["https://example.com/a", "https://example.com/B", "file:///tmp/x", "mailto:someone@example.org"]
    .map { URL(string: $0)! }
  static let blobs = [Data([1, 2, 3]), Data([1, 2]), Data([0xFF]), Data([1, 2, 3, 4])]
  static let weights: [Double] = [0, 0.5, 1, 2.25, 10]
}

/// Choices for the seeded generator of the predicate tests (`PredicateRoundTripTests.swift`).
extension SeedRandom {
  /// True with probability `p`.
  mutating func chance(_ p: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < p
  }

  /// A random element.
  mutating func pick<T>(_ values: [T]) -> T {
    values[Int.random(in: 0..<values.count, using: &self)]
  }

  /// A random element, or nil with probability `nilChance`.
  mutating func maybe<T>(_ values: [T], nilChance: Double = 0.25) -> T? {
    chance(nilChance) ? nil : pick(values)
  }
}

/// Random objects of ``QueryTestModel``.
enum QueryTestData {
  /// Inserts groups, labels and items (some of the sub-entity) into a context, with
  /// relationships; the same seed always makes the same graph.
  static func populate(_ context: ObjectContext, seed: UInt64, items count: Int = 36) throws {
    var random = SeedRandom(seed: seed)
    var groups: [ManagedObject] = []
    for index in 0..<5 {
      let group = try context.insert(entityNamed: "Group")
      try group.setValue(random.maybe(QueryTestModel.groupNames, nilChance: 0.15).map { .string($0) }, forKey: "name")
      try group.setValue(random.chance(0.2) ? nil : .integer(Int64(index % 3)), forKey: "rank")
      groups.append(group)
    }
    var labels: [ManagedObject] = []
    for _ in 0..<6 {
      let label = try context.insert(entityNamed: "Label")
      try label.setValue(random.maybe(QueryTestModel.labelNames, nilChance: 0.1).map { .string($0) }, forKey: "name")
      try label.setValue(random.maybe(QueryTestModel.weights).map { .double($0) }, forKey: "weight")
      labels.append(label)
    }
    var items: [ManagedObject] = []
    for serial in 0..<count {
      let item = try context.insert(entityNamed: random.chance(0.3) ? "Urgent" : "Item")
      try item.setValue(.integer(Int64(serial)), forKey: "serial")
      try item.setValue(.string(random.pick(QueryTestModel.strings)), forKey: "title")
      try item.setValue(random.maybe(QueryTestModel.strings, nilChance: 0.4).map { .string($0) }, forKey: "notes")
      try item.setValue(
        random.chance(0.2) ? nil : .integer(Int64.random(in: 1...5, using: &random)), forKey: "priority")
      try item.setValue(random.maybe(QueryTestModel.scores).map { .double($0) }, forKey: "score")
      try item.setValue(random.maybe(QueryTestModel.amounts, nilChance: 0.4).map { .decimal($0) }, forKey: "amount")
      try item.setValue(random.maybe(QueryTestModel.dates).map { .date($0) }, forKey: "due")
      try item.setValue(.boolean(random.chance(0.5)), forKey: "done")
      try item.setValue(random.maybe(QueryTestModel.uuids, nilChance: 0.4).map { .uuid($0) }, forKey: "uid")
      try item.setValue(random.maybe(QueryTestModel.links, nilChance: 0.4).map { .uri($0) }, forKey: "link")
      try item.setValue(random.maybe(QueryTestModel.blobs, nilChance: 0.4).map { .binary($0) }, forKey: "blob")
      if item.entityName == "Urgent" {
        try item.setValue(random.chance(0.3) ? nil : .integer(Int64.random(in: 1...3, using: &random)), forKey: "level")
      }
      if let group = random.maybe(groups, nilChance: 0.3) { try item.setObject(group, forKey: "group") }
      if !items.isEmpty, random.chance(0.5) { try item.setObject(random.pick(items), forKey: "parent") }
      for label in labels where random.chance(0.3) { try item.addObject(label, forKey: "labels") }
      items.append(item)
    }
  }
}
