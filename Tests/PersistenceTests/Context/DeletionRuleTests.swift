import Foundation
import Persistence
import TestSupport
import Testing

@Suite("Deletion rules")
struct DeletionRuleTests {
  static let model = ContextFixtures.model(
    """
    <entity name="Parent" representedClassName="Parent">
      <attribute name="name" attributeType="String"/>
      <relationship name="nullified" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Child" inverseName="nullParent" inverseEntity="Child"/>
      <relationship name="cascaded" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Child" inverseName="cascadeParent" inverseEntity="Child"/>
      <relationship name="denied" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Child" inverseName="denyParent" inverseEntity="Child"/>
      <relationship name="ignored" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Child" inverseName="noActionParent" inverseEntity="Child"/>
    </entity>
    <entity name="Child" representedClassName="Child">
      <attribute name="name" attributeType="String"/>
      <relationship name="nullParent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Parent" inverseName="nullified" inverseEntity="Parent"/>
      <relationship name="cascadeParent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Parent" inverseName="cascaded" inverseEntity="Parent"/>
      <relationship name="denyParent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Parent" inverseName="denied" inverseEntity="Parent"/>
      <relationship name="noActionParent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Parent" inverseName="ignored" inverseEntity="Parent"/>
    </entity>
    """)

  /// A saved parent with two children in `relationship`.
  static func family(_ relationship: String, in directory: TemporaryDirectory) throws -> (
    PersistentContainer, ObjectContext, ManagedObject, [ManagedObject], URL
  ) {
    let url = directory.url.appendingPathComponent("family.sqlite")
    let container = try PersistentContainer(model: model, options: .file(url))
    let context = container.newContext()
    let parent = try context.insert(entityNamed: "Parent")
    try parent.setValue(.string("parent"), forKey: "name")
    var children: [ManagedObject] = []
    for index in 0..<2 {
      let child = try context.insert(entityNamed: "Child")
      try child.setValue(.string("child \(index)"), forKey: "name")
      try parent.addObject(child, forKey: relationship)
      children.append(child)
    }
    try context.save()
    return (container, context, parent, children, url)
  }

  @Test("Nullify: the destinations stay and lose their link")
  func nullify() throws {
    let directory = try TemporaryDirectory()
    let (container, context, parent, children, url) = try Self.family("nullified", in: directory)
    context.delete(parent)
    #expect(try children[0].object(forKey: "nullParent") == nil)
    try context.save()
    #expect(try StoreRows.count("ZCHILD", in: url) == 2)
    #expect(try StoreRows.count("ZCHILD", in: url, where: "ZNULLPARENT IS NOT NULL") == 0)
    #expect(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Parent")) == 0)
  }

  @Test("Cascade: the destinations are deleted too")
  func cascade() throws {
    let directory = try TemporaryDirectory()
    let (_, context, parent, children, url) = try Self.family("cascaded", in: directory)
    context.delete(parent)
    #expect(children.allSatisfy { $0.isDeleted })
    try context.save()
    #expect(try StoreRows.count("ZCHILD", in: url) == 0)
    #expect(try StoreRows.count("ZPARENT", in: url) == 0)
  }

  @Test("Deny: the save fails while destinations remain, and succeeds once they are gone")
  func deny() throws {
    let directory = try TemporaryDirectory()
    let (container, context, parent, children, url) = try Self.family("denied", in: directory)
    let before = try StoreRows.dump(url)
    context.delete(parent)
    do {
      try context.save()
      Issue.record("the save should be denied")
    } catch {
      let failure = try #require(error.validationFailures.first)
      #expect(error.validationFailures.count == 1)
      #expect(failure.rule == .deleteDenied)
      #expect(failure.entity == "Parent")
      #expect(failure.property == "denied")
      #expect(failure.objectID == parent.objectID)
      #expect(failure.value == "2")
    }
    #expect(try StoreRows.dump(url) == before)
    #expect(parent.isDeleted && context.hasChanges)
    for child in children { context.delete(child) }
    try context.save()
    #expect(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Child")) == 0)
    #expect(try StoreRows.count("ZPARENT", in: url) == 0)
  }

  @Test("No Action: the destinations keep pointing at the deleted row, as Core Data leaves them")
  func noAction() throws {
    let directory = try TemporaryDirectory()
    let (_, context, parent, children, url) = try Self.family("ignored", in: directory)
    let key = try #require(parent.objectID.primaryKey)
    context.delete(parent)
    #expect(try children[0].object(forKey: "noActionParent")?.objectID == parent.objectID)
    try context.save()
    #expect(try StoreRows.count("ZCHILD", in: url, where: "ZNOACTIONPARENT = \(key)") == 2)
    #expect(try StoreRows.count("ZPARENT", in: url) == 0)
  }
}
