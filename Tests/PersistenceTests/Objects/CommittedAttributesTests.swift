import DataModel
import Foundation
import TestSupport
import Testing

@testable import Persistence

/// Committed attribute values kept as what differs from the current ones: nothing for an
/// unchanged object, one slot's old value for the first change, values of their own from the
/// second changed slot on — and every path that reads or restores them (changes, rollback,
/// refresh, conflicts, faults, a failed save).
@Suite("Committed attribute values")
struct CommittedAttributesTests {
  struct Store {
    let directory: TemporaryDirectory
    let container: PersistentContainer

    init() throws {
      directory = try TemporaryDirectory()
      container = try PersistentContainer(
        bundle: ContextFixtures.tasksBundle, options: .file(directory.url.appendingPathComponent("committed.sqlite")))
      let setup = container.newContext()
      try ContextFixtures.insertTask(setup, title: "A", priority: 1, notes: "first")
      try ContextFixtures.insertTask(setup, title: "B", priority: 2)
      try setup.save()
    }

    func task(_ title: String, in context: ObjectContext) throws -> ManagedObject {
      try #require(
        try context.fetch(
          FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "title == %@", title))
        ).first)
    }
  }

  private static func kind(_ object: ManagedObject) -> String {
    switch object.committedAttributes {
    case .unchanged: "unchanged"
    case .slot(let record): "slot \(record.slot)"
    case .values: "values"
    }
  }

  @Test("A fetched object keeps nothing; its first change keeps one old value; a second makes values")
  func kinds() throws {
    let store = try Store()
    let context = store.container.newContext()
    let task = try store.task("A", in: context)
    let title = try #require(task.layout.attributeSlots["title"])
    let priority = try #require(task.layout.attributeSlots["priority"])
    #expect(Self.kind(task) == "unchanged")
    #expect(!task.isUpdated && task.changedValues.isEmpty)

    try task.setValue(.string("A2"), forKey: "title")
    #expect(Self.kind(task) == "slot \(title)")
    #expect(task.committedAttributeValue(at: title) == .string("A"))
    #expect(task.attributeDiffers(at: title) && !task.attributeDiffers(at: priority))
    #expect(task.isUpdated && task.changedValues == ["title": "A2"])
    // The same slot again keeps the first committed value.
    try task.setValue(.string("A3"), forKey: "title")
    #expect(Self.kind(task) == "slot \(title)")
    #expect(task.committedAttributeValue(at: title) == .string("A"))

    try task.setValue(.integer(3), forKey: "priority")
    #expect(Self.kind(task) == "values")
    #expect(task.committedAttributeValue(at: title) == .string("A"))
    #expect(task.committedAttributeValue(at: priority) == .integer(1))
    #expect(task.committedAttributeValues[title] == .string("A"))
    #expect(task.changedValues == ["title": "A3", "priority": "3"])
  }

  @Test("A value set back to the committed one is no change, and the save writes nothing")
  func setBack() throws {
    let store = try Store()
    let context = store.container.newContext()
    let task = try store.task("A", in: context)
    try task.setValue(.string("A2"), forKey: "title")
    try task.setValue(.string("A"), forKey: "title")
    #expect(!task.isUpdated && !task.hasChanges)
    let version = task.storedVersion
    try context.save()
    #expect(task.storedVersion == version)
  }

  @Test("Whether the one changed slot differs follows every value set, and the save writes only then")
  func changedSlotFollowsEverySet() throws {
    let store = try Store()
    let context = store.container.newContext()
    let task = try store.task("A", in: context)
    let slot = try #require(task.layout.attributeSlots["title"])
    let other = try #require(task.layout.attributeSlots["priority"])
    for (value, differs) in [("A2", true), ("A", false), ("A3", true), ("A3", true), ("A", false), ("A4", true)] {
      try task.setValue(.string(value), forKey: "title")
      #expect(Self.kind(task) == "slot \(slot)")
      #expect(task.attributeDiffers(at: slot) == differs, "after \(value)")
      #expect(task.attributesDiffer == differs && task.isUpdated == differs, "after \(value)")
      #expect(!task.attributeDiffers(at: other))
      #expect(task.committedAttributeValue(at: slot) == .string("A"))
    }
    try task.setValue(.string("A"), forKey: "title")
    let version = task.storedVersion
    try context.save()
    #expect(task.storedVersion == version)
    try task.setValue(.string("A5"), forKey: "title")
    try context.save()
    #expect(task.storedVersion == version + 1)
    #expect(!task.isUpdated && Self.kind(task) == "unchanged")
    let reader = store.container.newContext()
    #expect(try store.task("A5", in: reader).value(forKey: "title") == .string("A5"))
  }

  @Test("Rollback restores one changed slot and several, in place")
  func rollback() throws {
    let store = try Store()
    let context = store.container.newContext()
    let a = try store.task("A", in: context)
    let b = try store.task("B", in: context)
    try a.setValue(.string("A2"), forKey: "title")
    try b.setValue(.string("B2"), forKey: "title")
    try b.setValue(.integer(3), forKey: "priority")
    try b.setValue(.string("note"), forKey: "notes")
    context.rollback()
    #expect(try a.value(forKey: "title") == .string("A"))
    #expect(try b.value(forKey: "title") == .string("B"))
    #expect(try b.value(forKey: "priority") == .integer(2))
    #expect(try b.value(forKey: "notes") == nil)
    #expect(Self.kind(a) == "unchanged" && Self.kind(b) == "unchanged")
    #expect(!a.hasChanges && !b.hasChanges)
    // Changing after a rollback records the restored value as committed.
    try a.setValue(.string("A4"), forKey: "title")
    #expect(a.changedValues == ["title": "A4"])
  }

  @Test("A save commits the values; a later read in another context sees them")
  func save() throws {
    let store = try Store()
    let context = store.container.newContext()
    let task = try store.task("A", in: context)
    try task.setValue(.string("A2"), forKey: "title")
    try task.setValue(.integer(3), forKey: "priority")
    try context.save()
    #expect(Self.kind(task) == "unchanged" && !task.hasChanges)
    let other = store.container.newContext()
    let again = try store.task("A2", in: other)
    #expect(try again.value(forKey: "priority") == .integer(3))
    #expect(try again.value(forKey: "notes") == .string("first"))
  }

  @Test("Refresh merging changes keeps them on top of the store's new values")
  func refreshMerging() throws {
    let store = try Store()
    let context = store.container.newContext()
    let task = try store.task("A", in: context)
    try task.setValue(.string("mine"), forKey: "title")
    let elsewhere = store.container.newContext()
    try store.task("A", in: elsewhere).setValue(.integer(3), forKey: "priority")
    try elsewhere.save()

    try context.refresh(task, mergeChanges: true)
    #expect(try task.value(forKey: "title") == .string("mine"))
    #expect(try task.value(forKey: "priority") == .integer(3))
    #expect(task.changedValues == ["title": "mine"])
    try context.save()
    let check = store.container.newContext()
    #expect(try store.task("mine", in: check).value(forKey: "priority") == .integer(3))

    // Without merging, the change is dropped and the object is as stored.
    try task.setValue(.string("dropped"), forKey: "title")
    try context.refresh(task, mergeChanges: false)
    #expect(try task.value(forKey: "title") == .string("mine"))
    #expect(Self.kind(task) == "unchanged" && !task.hasChanges)
  }

  @Test("A save refused for a conflict or a rule leaves the changes and committed values as they were")
  func failedSave() throws {
    let store = try Store()
    let context = store.container.newContext()
    context.mergePolicy = .error
    let task = try store.task("A", in: context)
    try task.setValue(.string("mine"), forKey: "title")
    let elsewhere = store.container.newContext()
    try store.task("A", in: elsewhere).setValue(.integer(3), forKey: "priority")
    try elsewhere.save()

    #expect(throws: SaveError.self) { try context.save() }
    #expect(task.changedValues == ["title": "mine"])
    #expect(task.committedAttributeValue(at: try #require(task.layout.attributeSlots["title"])) == .string("A"))

    let b = try store.task("B", in: context)
    try b.setValue(.string(""), forKey: "title")  // shorter than the minimum length of 1
    #expect(throws: SaveError.self) { try context.save() }
    #expect(b.changedValues == ["title": ""])
    context.rollback()
    #expect(try task.value(forKey: "title") == .string("A"))
    #expect(try b.value(forKey: "title") == .string("B"))
  }

  @Test("Setting a value of a fault loads it first, and keeps the loaded value as committed")
  func fault() throws {
    let store = try Store()
    let loader = store.container.newContext()
    let id = try store.task("A", in: loader).objectID
    let context = store.container.newContext()
    let fault = try #require(context.object(with: id))
    #expect(fault.isFault)
    let title = try #require(fault.layout.attributeSlots["title"])
    fault.setAttributeValue(.string("A2"), at: title)
    #expect(!fault.isFault)
    #expect(fault.committedAttributeValue(at: title) == .string("A"))
    #expect(fault.changedValues == ["title": "A2"])
    try context.save()
    #expect(try store.task("A2", in: store.container.newContext()).value(forKey: "priority") == .integer(1))
  }

  @Test("An inserted object's committed values are empty until it is saved")
  func inserted() throws {
    let store = try Store()
    let context = store.container.newContext()
    let task = try ContextFixtures.insertTask(context, title: "C")
    #expect(Self.kind(task) == "values")
    #expect(task.committedAttributeValue(at: try #require(task.layout.attributeSlots["title"])) == nil)
    try context.save()
    #expect(Self.kind(task) == "unchanged" && !task.hasChanges)
  }
}
