import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

@Suite("Validation rules")
struct ValidationRuleTests {
  static let model = ContextFixtures.model(
    """
    <entity name="Owner" representedClassName="Owner">
      <attribute name="name" attributeType="String" minValueString="2" maxValueString="10" regularExpressionString="[A-Z][a-z]+"/>
      <attribute name="age" optional="YES" attributeType="Integer 16" minValueString="0" maxValueString="150"/>
      <attribute name="score" optional="YES" attributeType="Double" minValueString="0.5" maxValueString="9.5"/>
      <attribute name="born" optional="YES" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="800000000"/>
      <attribute name="photo" optional="YES" attributeType="Binary" minValueString="2" maxValueString="4"/>
      <attribute name="code" optional="YES" attributeType="String"/>
      <attribute name="region" optional="YES" attributeType="String"/>
      <attribute name="number" optional="YES" attributeType="Integer 32"/>
      <relationship name="home" maxCount="1" deletionRule="Nullify" destinationEntity="Home" inverseName="owners" inverseEntity="Home"/>
      <relationship name="pets" toMany="YES" minCount="1" maxCount="2" deletionRule="Cascade" destinationEntity="Pet" inverseName="owner" inverseEntity="Pet"/>
      <uniquenessConstraints>
        <uniquenessConstraint><constraint value="code"/></uniquenessConstraint>
        <uniquenessConstraint><constraint value="region"/><constraint value="number"/></uniquenessConstraint>
      </uniquenessConstraints>
    </entity>
    <entity name="Home" representedClassName="Home">
      <attribute name="street" attributeType="String"/>
      <relationship name="owners" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Owner" inverseName="home" inverseEntity="Owner"/>
    </entity>
    <entity name="Pet" representedClassName="Pet">
      <attribute name="name" attributeType="String"/>
      <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
    </entity>
    """)

  typealias Store = TemporaryStore

  static func store() throws -> Store {
    try TemporaryStore(model: model, fileName: "rules.sqlite")
  }

  /// A valid owner with a home and one pet.
  @discardableResult
  static func owner(_ context: ObjectContext, name: String = "Ada", code: String? = nil) throws -> ManagedObject {
    let owner = try context.insert(entityNamed: "Owner")
    try owner.setValue(.string(name), forKey: "name")
    try owner.setValue(code.map { .string($0) }, forKey: "code")
    let home = try context.insert(entityNamed: "Home")
    try home.setValue(.string("Main St"), forKey: "street")
    try owner.setObject(home, forKey: "home")
    try owner.addObject(pet(context), forKey: "pets")
    return owner
  }

  static func pet(_ context: ObjectContext) throws -> ManagedObject {
    let pet = try context.insert(entityNamed: "Pet")
    try pet.setValue(.string("Rex"), forKey: "name")
    return pet
  }

  /// Saves and returns the validation failures (none when the save succeeds); any other error
  /// is an issue.
  static func failures(_ context: ObjectContext) -> [ValidationFailure] {
    do {
      try context.save()
      return []
    } catch {
      if error.validationFailures.isEmpty { Issue.record("the save failed without validation failures: \(error)") }
      return error.validationFailures
    }
  }

  @Test("Every broken rule is reported together, with entity, property, object and value")
  func everyRule() throws {
    let store = try Self.store()
    let context = store.container.newContext()
    try Self.owner(context, name: "Valid")
    try context.save()
    let before = try StoreRows.dump(store.url)

    let bad = try context.insert(entityNamed: "Owner")
    try bad.setValue(.string("x"), forKey: "name")  // too short, and not [A-Z][a-z]+
    try bad.setValue(.integer(200), forKey: "age")
    try bad.setValue(.double(0.1), forKey: "score")
    try bad.setValue(.date(Date(timeIntervalSinceReferenceDate: 900_000_000)), forKey: "born")
    try bad.setValue(.binary(Data([1])), forKey: "photo")
    for _ in 0..<3 { try bad.addObject(Self.pet(context), forKey: "pets") }
    let empty = try context.insert(entityNamed: "Owner")  // no name, no home, no pets
    try empty.setValue(.integer(-1), forKey: "age")
    try empty.setValue(.binary(Data([1, 2, 3, 4, 5])), forKey: "photo")
    try empty.setValue(.string("Abcdefghijk"), forKey: "name")  // too long

    let failures = Self.failures(context)
    let found = Set(
      failures.map { "\($0.objectID == bad.objectID ? "bad" : "empty").\($0.property).\($0.rule.rawValue)" })
    #expect(
      found == [
        "bad.name.minimumLength", "bad.name.regularExpression", "bad.age.maximumValue", "bad.score.minimumValue",
        "bad.born.maximumValue", "bad.photo.minimumLength", "bad.home.required", "bad.pets.maximumCount",
        "empty.name.maximumLength", "empty.age.minimumValue", "empty.photo.maximumLength", "empty.home.required",
        "empty.pets.required", "empty.pets.minimumCount",
      ], "\(failures.map(\.description).joined(separator: "\n"))")
    #expect(failures.allSatisfy { $0.entity == "Owner" })
    let age = try #require(failures.first { $0.property == "age" && $0.objectID == bad.objectID })
    #expect(age.value == "200")
    #expect(age.description.hasPrefix("Owner.age of "))
    #expect(failures.first { $0.rule == .regularExpression }?.value == "x")
    #expect(failures.first { $0.rule == .maximumCount }?.value == "3")

    // Nothing reached the store; the context keeps the changes to fix.
    #expect(try StoreRows.dump(store.url) == before)
    #expect(context.insertedObjects.contains(bad) && context.insertedObjects.contains(empty))
    #expect(try bad.value(forKey: "age") == .integer(200))
    context.delete(empty)
    try bad.setValue(.string("Bea"), forKey: "name")
    for attribute in ["age", "score", "born", "photo"] { try bad.setValue(nil, forKey: attribute) }
    let pets = try bad.objects(forKey: "pets")
    try bad.setObjects(Array(pets.prefix(2)), forKey: "pets")
    let home = try context.insert(entityNamed: "Home")
    try home.setValue(.string("Elm St"), forKey: "street")
    try bad.setObject(home, forKey: "home")
    #expect(Self.failures(context).isEmpty)
    #expect(try store.container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Owner")) == 2)
  }

  @Test("Saved objects are checked as stored: loaded in one go, to-many relationships read when they have a count rule")
  func savedObjects() throws {
    let store = try Self.store()
    let writer = store.container.newContext()
    let owner = try Self.owner(writer, name: "Cyd")
    for _ in 0..<2 { try owner.addObject(Self.pet(writer), forKey: "pets") }  // three: at most two
    let home = try #require(try owner.object(forKey: "home"))
    try writer.save(validating: false)
    let ids = [owner.objectID, home.objectID]

    let context = store.container.newContext()
    let objects = try context.loadedObjects(with: ids)
    #expect(objects.map(\.objectID) == ids)
    #expect(objects.allSatisfy { !$0.isFault }, "the rows are read with the objects")
    let failures = try context.validationFailures(of: objects)
    // Owner.pets (a count rule) is read from the store; Home.owners (no rule) need not be.
    #expect(failures.map { "\($0.entity).\($0.property).\($0.rule.rawValue)" } == ["Owner.pets.maximumCount"])
    #expect(failures.first?.value == "3")
  }

  @Test("Uniqueness among pending objects and against the store; nil never conflicts")
  func uniqueness() throws {
    let store = try Self.store()
    let context = store.container.newContext()
    try Self.owner(context, name: "Stored", code: "A")
    try Self.owner(context, name: "Nocode")
    try context.save()
    let before = try StoreRows.dump(store.url)

    let first = try Self.owner(context, name: "First", code: "B")
    let second = try Self.owner(context, name: "Second", code: "B")
    let third = try Self.owner(context, name: "Third", code: "A")
    try Self.owner(context, name: "Nil")
    let failures = Self.failures(context)
    #expect(failures.count == 2, "\(failures)")
    #expect(failures.allSatisfy { $0.rule == .uniqueness && $0.property == "code" && $0.entity == "Owner" })
    let pending = failures.first { $0.message.contains("another pending object") }
    #expect(pending.map { [first.objectID, second.objectID].contains($0.objectID) } == true)
    #expect(pending?.value == "B")
    let stored = failures.first { $0.message.contains("the store already has") }
    #expect(stored?.objectID == third.objectID)
    #expect(stored?.value == "A")
    #expect(try StoreRows.dump(store.url) == before)

    // Updating a saved object onto a taken value fails too; swapping two values passes.
    context.rollback()
    let saved = try context.fetch(FetchRequest<ManagedObject>(entityName: "Owner"))
    let stored1 = try #require(saved.first { (try? $0.value(forKey: "code")) == .string("A") })
    let other = try #require(saved.first { (try? $0.value(forKey: "code")) == nil })
    try other.setValue(.string("A"), forKey: "code")
    #expect(Self.failures(context).map(\.rule) == [.uniqueness])
    try stored1.setValue(.string("Z"), forKey: "code")
    #expect(Self.failures(context).isEmpty)
    try stored1.setValue(.string("A"), forKey: "code")
    try other.setValue(.string("Z"), forKey: "code")
    #expect(Self.failures(context).isEmpty, "swapping values between two saved objects")

    // A new object may take the value of one deleted in the same save.
    context.delete(stored1)
    try Self.owner(context, name: "Heir", code: "A")
    #expect(Self.failures(context).isEmpty, "reusing a deleted object's value")
    #expect(try StoreRows.count("ZOWNER", in: store.url, where: "ZCODE = 'A'") == 1)
  }

  /// A store holding one saved owner with code "A", and a context on it.
  static func storeWithOwnerA() throws -> (Store, ObjectContext) {
    let store = try Self.store()
    let context = store.container.newContext()
    try Self.owner(context, name: "Stored", code: "A")
    try context.save()
    return (store, context)
  }

  @Test("A save that breaks another rule reports the uniqueness failures with it")
  func uniquenessWithOtherRules() throws {
    let (_, context) = try Self.storeWithOwnerA()
    let clash = try Self.owner(context, name: "Clash", code: "A")
    try Self.owner(context, name: "x", code: "C")
    let failures = Self.failures(context)
    #expect(
      Set(failures.map { "\($0.objectID == clash.objectID ? "clash" : "short").\($0.property).\($0.rule.rawValue)" })
        == ["clash.code.uniqueness", "short.name.minimumLength", "short.name.regularExpression"], "\(failures)")
    #expect(try context.validatePendingChanges().count == failures.count)
  }

  @Test("Without the store's UNIQUE index, constraints are still checked before anything is written")
  func uniquenessWithoutIndex() throws {
    let (store, _) = try Self.storeWithOwnerA()
    // A store written elsewhere may lack the index: the check must not rely on it.
    let connection = try SQLiteConnection(.file(store.url.path), mode: .readWrite)
    try connection.execute("DROP INDEX \(identifier: "Z_Owner_UNIQUE_code")")
    let before = try StoreRows.dump(store.url)

    let fresh = try PersistentContainer(model: Self.model, options: .file(store.url)).newContext()
    let third = try Self.owner(fresh, name: "Third", code: "A")
    try Self.owner(fresh, name: "Fourth", code: "B")
    try Self.owner(fresh, name: "Fifth", code: "B")
    let failures = Self.failures(fresh)
    #expect(failures.count == 2, "\(failures)")
    #expect(failures.contains { $0.objectID == third.objectID && $0.message.contains("the store already has") })
    #expect(failures.contains { $0.message.contains("another pending object") })
    #expect(try StoreRows.dump(store.url) == before)
  }

  @Test(
    "A new object may not take the value of a saved object changed in the same save but not in that value",
    arguments: [true, false])
  func uniquenessAgainstUpdatedRow(withIndex: Bool) throws {
    let (store, _) = try Self.storeWithOwnerA()
    if !withIndex {
      let connection = try SQLiteConnection(.file(store.url.path), mode: .readWrite)
      try connection.execute("DROP INDEX \(identifier: "Z_Owner_UNIQUE_code")")
    }
    let before = try StoreRows.dump(store.url)
    let context = try PersistentContainer(model: Self.model, options: .file(store.url)).newContext()
    let stored = try #require(
      try context.fetch(
        FetchRequest<ManagedObject>(entityName: "Owner", predicate: try FetchPredicate(format: "code == 'A'"))
      )
      .first)
    // The saved owner keeps its code and changes its name: its row still holds "A".
    try stored.setValue(.string("Renamed"), forKey: "name")
    let clash = try Self.owner(context, name: "Clash", code: "A")
    let failures = Self.failures(context)
    #expect(failures.map(\.objectID) == [clash.objectID], "\(failures)")
    #expect(failures.first?.message.contains("the store already has") == true)
    #expect(try StoreRows.dump(store.url) == before)
  }

  @Test("Compound uniqueness: only the whole combination must be distinct")
  func compoundUniqueness() throws {
    let store = try Self.store()
    let context = store.container.newContext()
    @discardableResult
    func owner(_ region: String, _ number: Int64) throws -> ManagedObject {
      let owner = try Self.owner(context, name: "Ann")
      try owner.setValue(.string(region), forKey: "region")
      try owner.setValue(.integer(number), forKey: "number")
      return owner
    }
    try owner("north", 1)
    try context.save()
    try owner("north", 2)
    try owner("south", 1)
    #expect(Self.failures(context).isEmpty)
    let clash = try owner("north", 1)
    let failures = Self.failures(context)
    #expect(failures.count == 1)
    #expect(failures.first?.property == "region, number")
    #expect(failures.first?.value == "north, 1")
    #expect(failures.first?.objectID == clash.objectID)
  }

  @Test("Swapping one part of a compound constraint between saved objects leaves the other part as it was")
  func compoundUniquenessSwap() throws {
    let store = try Self.store()
    let context = store.container.newContext()
    func owner(_ region: String, _ number: Int64) throws -> ManagedObject {
      let owner = try Self.owner(context, name: "Ann")
      try owner.setValue(.string(region), forKey: "region")
      try owner.setValue(.integer(number), forKey: "number")
      return owner
    }
    let north = try owner("north", 1)
    let south = try owner("south", 1)
    try context.save()
    // The store's UNIQUE index sees each UPDATE on its own: the values the rows leave are
    // released first, and only the changed part of the key is.
    try north.setValue(.string("south"), forKey: "region")
    try south.setValue(.string("north"), forKey: "region")
    #expect(Self.failures(context).isEmpty)

    let check = store.container.newContext()
    let owners = try check.fetch(FetchRequest<ManagedObject>(entityName: "Owner"))
    let pairs = try owners.map { [try $0.value(forKey: "region"), try $0.value(forKey: "number")] }
    #expect(pairs.count == 2)
    #expect(pairs.contains([.string("north"), .integer(1)]), "\(pairs)")
    #expect(pairs.contains([.string("south"), .integer(1)]), "\(pairs)")
  }
}
