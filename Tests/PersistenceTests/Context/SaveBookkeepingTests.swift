import Foundation
import SQLite
import TestSupport
import Testing

@testable import Persistence

/// What a save leaves in the objects it wrote: new row versions, committed values, no pending
/// changes — worked out in one pass over the changed objects — and the updated objects that
/// moved a constrained value, found while the save classifies its objects.
@Suite("A save's bookkeeping")
struct SaveBookkeepingTests {
  static let model = ContextFixtures.model(
    """
    <entity name="Item" representedClassName="Item">
      <attribute name="code" optional="YES" attributeType="String"/>
      <attribute name="note" optional="YES" attributeType="String"/>
      <attribute name="size" optional="YES" attributeType="Integer 32" minValueString="0" maxValueString="9"/>
      <attribute name="tag" optional="YES" attributeType="String" regularExpressionString="[a-z]+"/>
      <relationship name="slot" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Slot" inverseName="item" inverseEntity="Slot"/>
      <uniquenessConstraints>
        <uniquenessConstraint><constraint value="code"/></uniquenessConstraint>
      </uniquenessConstraints>
    </entity>
    <entity name="Part" representedClassName="Part" parentEntity="Item">
      <attribute name="weight" optional="YES" attributeType="Integer 32"/>
      <uniquenessConstraints>
        <uniquenessConstraint><constraint value="slot"/></uniquenessConstraint>
      </uniquenessConstraints>
    </entity>
    <entity name="Slot" representedClassName="Slot">
      <attribute name="label" optional="YES" attributeType="String"/>
      <relationship name="item" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="slot" inverseEntity="Item"/>
    </entity>
    """)

  typealias Store = TemporaryStore

  static func store() throws -> Store {
    try TemporaryStore(model: model, fileName: "bookkeeping.sqlite")
  }

  /// Each item's `Z_OPT` in the store, by its code.
  static func versions(_ url: URL) throws -> [String: Int64] {
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    var versions: [String: Int64] = [:]
    try connection.forEachRow("SELECT ZCODE, Z_OPT FROM ZITEM") { versions[$0.text(at: 0)] = $0.int64(at: 1) }
    return versions
  }

  /// Saved items with codes `a`, `b`, `c`, `d`, fetched again in a new context, by code.
  static func savedItems(_ store: Store) throws -> (ObjectContext, [String: ManagedObject]) {
    let writer = store.container.newContext()
    for code in ["a", "b", "c", "d"] {
      try writer.insert(entityNamed: "Item").setValue(.string(code), forKey: "code")
    }
    try writer.save()
    let context = store.container.newContext()
    var items: [String: ManagedObject] = [:]
    for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
      guard case .string(let code)? = try item.value(forKey: "code") else { continue }
      items[code] = item
    }
    return (context, items)
  }

  @Test("Objects changed out of order take their new versions, and only the ones written")
  func versionsOutOfOrder() throws {
    let store = try Self.store()
    let (context, items) = try Self.savedItems(store)
    let (a, b, c, d) = (items["a"]!, items["b"]!, items["c"]!, items["d"]!)
    // Changed last row first (the save sorts what it writes by ID), and `b` changed and
    // changed back: it has nothing to write.
    try d.setValue(.string("dd"), forKey: "note")
    try c.setValue(.string("cc"), forKey: "note")
    try b.setValue(.string("bb"), forKey: "note")
    try b.setValue(nil, forKey: "note")
    try a.setValue(.string("aa"), forKey: "note")
    try context.save()
    #expect(try Self.versions(store.url) == ["a": 2, "b": 1, "c": 2, "d": 2])
    #expect([a, b, c, d].map(\.storedVersion) == [2, 1, 2, 2])
    #expect(![a, b, c, d].contains { $0.hasChanges })
    #expect(!context.hasChanges)

    // The versions kept are the store's: the next save's checks pass, row by row.
    try a.setValue(.string("aaa"), forKey: "note")
    try b.setValue(.string("bbb"), forKey: "note")
    try d.setValue(.string("ddd"), forKey: "note")
    try context.save()
    #expect(try Self.versions(store.url) == ["a": 3, "b": 2, "c": 2, "d": 3])
    #expect([a, b, c, d].map(\.storedVersion) == [3, 2, 2, 3])
    #expect(try a.value(forKey: "note") == .string("aaa"))
    #expect(a.committedAttributeValue(at: a.layout.attributeSlots["note"]!) == .string("aaa"))
  }

  @Test("A context that saved many objects out of order has no pending change left")
  func drainedAfterSave() throws {
    let store = try Self.store()
    let (context, items) = try Self.savedItems(store)
    for code in ["d", "b", "a", "c"] { try items[code]!.setValue(.string(code + "!"), forKey: "note") }
    let inserted = try context.insert(entityNamed: "Item")
    try inserted.setValue(.string("e"), forKey: "code")
    try context.save()
    #expect(!context.hasChanges)
    #expect(items.values.allSatisfy { $0.changeSlot == -1 })
    #expect(inserted.changeSlot == -1 && !inserted.objectID.isTemporary)
    // A later change is tracked again, and saved.
    try items["a"]!.setValue(.string("again"), forKey: "note")
    #expect(context.hasChanges)
    try context.save()
    #expect(try Self.versions(store.url)["a"] == 3)
  }

  @Test("Objects changed out of order are validated as they are classified; failures come by object, in ID order")
  func failuresInOrder() throws {
    let store = try Self.store()
    let (context, items) = try Self.savedItems(store)
    // Each breaks two rules, changed last row first; `b` breaks none.
    for code in ["d", "c", "a"] {
      try items[code]!.setValue(.integer(42), forKey: "size")
      try items[code]!.setValue(.string("NOT LOWER"), forKey: "tag")
    }
    try items["b"]!.setValue(.string("fine"), forKey: "tag")
    let expected = ["a", "a", "c", "c", "d", "d"].map { items[$0]!.objectID }
    let error = #expect(throws: SaveError.self) { try context.save() }
    guard case .validation(let caught)? = error else {
      Issue.record("expected validation failures, got \(String(describing: error))")
      return
    }
    #expect(caught.map(\.objectID) == expected)
    #expect(caught.map(\.property) == ["size", "tag", "size", "tag", "size", "tag"])
    #expect(try context.validatePendingChanges() == caught)
    // The same as checking each object alone, in ID order.
    let sorted = items.values.sorted { $0.objectID < $1.objectID }
    #expect(try context.validationFailures(of: sorted) == caught)
    #expect(try Self.versions(store.url) == ["a": 1, "b": 1, "c": 1, "d": 1])
  }

  @Test("The constrained slots of an entity include its ancestors' constraints and to-one parts")
  func constrainedSlots() throws {
    let layouts = ObjectLayouts(model: Self.model)
    let item = try #require(layouts.layout(named: "Item"))
    let part = try #require(layouts.layout(named: "Part"))
    let slot = try #require(layouts.layout(named: "Slot"))
    #expect(item.constrainedSlots.attributes == [item.attributeSlots["code"]!])
    #expect(item.constrainedSlots.relationships.isEmpty)
    #expect(part.constrainedSlots.attributes == [part.attributeSlots["code"]!])
    #expect(part.constrainedSlots.relationships == [part.relationshipSlots["slot"]!])
    #expect(slot.constrainedSlots.attributes.isEmpty && slot.constrainedSlots.relationships.isEmpty)
  }

  @Test("Whether an object moved a constrained value: attributes and to-one destinations, not other values")
  func changesConstrainedValue() throws {
    let store = try Self.store()
    let context = store.container.newContext()
    let part = try context.insert(entityNamed: "Part")
    try part.setValue(.string("p"), forKey: "code")
    let first = try context.insert(entityNamed: "Slot")
    let second = try context.insert(entityNamed: "Slot")
    try part.setObject(first, forKey: "slot")
    try context.save()
    #expect(!part.changesConstrainedValue)
    try part.setValue(.string("note"), forKey: "note")
    try part.setValue(.integer(3), forKey: "weight")
    #expect(!part.changesConstrainedValue)
    try part.setObject(second, forKey: "slot")
    #expect(part.changesConstrainedValue)
    try part.setObject(first, forKey: "slot")
    #expect(!part.changesConstrainedValue)
    try part.setValue(.string("q"), forKey: "code")
    #expect(part.changesConstrainedValue)
  }

  @Test("Unique values swapped between objects changed out of order are saved, with unconstrained changes beside them")
  func swapsOutOfOrder() throws {
    let store = try Self.store()
    let (context, items) = try Self.savedItems(store)
    // d takes a's code and a takes d's, changed last row first; c and b change other values.
    try items["d"]!.setValue(.string("a"), forKey: "code")
    try items["c"]!.setValue(.string("c note"), forKey: "note")
    try items["b"]!.setValue(.string("b note"), forKey: "note")
    try items["a"]!.setValue(.string("d"), forKey: "code")
    try context.save()
    let check = store.container.newContext()
    var notes: [String: String] = [:]
    for item in try check.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
      guard case .string(let code)? = try item.value(forKey: "code") else { continue }
      if case .string(let note)? = try item.value(forKey: "note") { notes[code] = note } else { notes[code] = "-" }
    }
    #expect(notes == ["a": "-", "b": "b note", "c": "c note", "d": "-"])
    #expect(items["a"]!.objectID.primaryKey! < items["d"]!.objectID.primaryKey!)
    #expect(
      try check.fetch(
        FetchRequest<ManagedObject>(entityName: "Item", predicate: try FetchPredicate(format: "code == 'a'"))
      ).first?.objectID == items["d"]!.objectID)
  }

  @Test("To-one destinations under a constraint swapped between saved objects are saved")
  func toOneSwap() throws {
    let store = try Self.store()
    let context = store.container.newContext()
    let first = try context.insert(entityNamed: "Part")
    let second = try context.insert(entityNamed: "Part")
    try first.setValue(.string("1"), forKey: "code")
    try second.setValue(.string("2"), forKey: "code")
    let left = try context.insert(entityNamed: "Slot")
    let right = try context.insert(entityNamed: "Slot")
    try first.setObject(left, forKey: "slot")
    try second.setObject(right, forKey: "slot")
    try context.save()
    try second.setObject(left, forKey: "slot")
    try first.setObject(right, forKey: "slot")
    try context.save()
    let check = store.container.newContext()
    for part in try check.fetch(FetchRequest<ManagedObject>(entityName: "Part")) {
      let expected = part.objectID == first.objectID ? right.objectID : left.objectID
      #expect(try part.object(forKey: "slot")?.objectID == expected)
    }
  }

  @Test("Constraints the store's indexes enforce are left to them; without an index they are checked")
  func constraintsToCheck() throws {
    let store = try Self.store()
    let context = store.container.newContext()
    try context.insert(entityNamed: "Item").setValue(.string("x"), forKey: "code")
    try context.save()
    let connection = StoreConnection(description: store.container.storeDescription)
    #expect(try !connection.hasConstraintsToCheck(skippingStoreEnforced: true))
    #expect(try connection.hasConstraintsToCheck(skippingStoreEnforced: false))

    let raw = try SQLiteConnection(.file(store.url.path), mode: .readWrite)
    try raw.execute("DROP INDEX \(identifier: "Z_Item_UNIQUE_code")")
    let fresh = StoreConnection(description: store.container.storeDescription)
    #expect(try fresh.hasConstraintsToCheck(skippingStoreEnforced: true))
  }
}
