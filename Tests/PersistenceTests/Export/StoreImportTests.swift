import Foundation
import Persistence
import TestSupport
import Testing

@Suite("Importing JSON into a store")
struct StoreImportTests {
  static func tasksStore(_ directory: TemporaryDirectory) throws -> (PersistentContainer, URL) {
    let url = directory.url.appendingPathComponent("tasks.sqlite")
    return (try PersistentContainer(bundle: ContextFixtures.tasksBundle, options: .file(url)), url)
  }

  @Test("Objects, values, defaults and relationships both ways; labels link within the file")
  func importsEverything() throws {
    let directory = try TemporaryDirectory()
    let (container, _) = try Self.tasksStore(directory)
    let summary = try StoreImport.importJSON(
      """
      {
        "Project": [{"_id": "home", "name": "Home", "tasks": ["t1", "t2"]}],
        "Tag": [{"_id": "urgent", "name": "urgent"}],
        "Task": [
          {"_id": "t1", "id": "8D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "Sweep", "project": "home",
           "tags": ["urgent"], "dueDate": "2026-01-31T12:00:00.500Z", "priority": 3},
          {"_id": "t2", "id": "9D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "Mop", "notes": null}
        ]
      }
      """, into: container.newContext())
    #expect(summary.insertedObjects == ["Project": 1, "Tag": 1, "Task": 2])
    let context = container.newContext()
    var request = FetchRequest<ManagedObject>(entityName: "Task")
    request.sortDescriptors = [FetchSortDescriptor("title")]
    let tasks = try context.fetch(request)
    #expect(try tasks.map { try $0.value(forKey: "title") } == [.string("Mop"), .string("Sweep")])
    // Missing keys keep the model's defaults.
    #expect(try tasks[0].value(forKey: "priority") == .integer(2))
    #expect(try tasks[0].value(forKey: "isCompleted") == .boolean(false))
    #expect(try tasks[1].value(forKey: "dueDate") == .date(ISO8601Milliseconds.date(from: "2026-01-31T12:00:00.500Z")!))
    let project = try #require(try tasks[0].object(forKey: "project"))
    #expect(Set(try project.objects(forKey: "tasks")) == Set(tasks))
    #expect(try tasks[1].objects(forKey: "tags").count == 1)
  }

  @Test("Every problem is listed with entity, _id and property, and nothing is written")
  func listsEveryProblem() throws {
    let directory = try TemporaryDirectory()
    let (container, url) = try Self.tasksStore(directory)
    let context = container.newContext()
    try ContextFixtures.insertTask(context, title: "Existing")
    try context.save()
    let before = try StoreRows.dump(url)
    let file = """
      {
        "Projct": [],
        "Project": [{"_id": "p", "name": 12}],
        "Tag": [{"name": "no id"}, {"_id": "p", "name": "dup"}],
        "Task": [
          {"_id": "a", "id": "8D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "A", "priority": 70000},
          {"_id": "b", "id": "not-a-uuid", "titl": "B", "project": "nowhere"},
          {"_id": "c", "id": "7D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "C", "tags": ["a"]}
        ]
      }
      """
    do {
      try StoreImport.importJSON(file, into: container.newContext())
      Issue.record("the import should be refused")
    } catch {
      let lines = error.problems.map(\.description)
      #expect(
        lines == [
          "Projct: the model has no entity 'Projct'; did you mean 'Project'?",
          "Project _id \"p\", property 'name': expected a string for this String attribute, found a number",
          "Tag _id \"p\", property '_id': another object of the file has the same _id",
          "Task _id \"a\", property 'priority': 70000 overflows Integer 16 (-32768…32767)",
          "Task _id \"b\", property 'id': 'not-a-uuid' is not a UUID like 123E4567-E89B-12D3-A456-426614174000",
          "Task _id \"b\", property 'titl': entity 'Task' has no attribute or relationship 'titl'; did you mean 'title'?",
          "Task _id \"b\", property 'project': refers to _id \"nowhere\", which is no object of the file or the store",
          "Task _id \"c\", property 'tags': refers to _id \"a\", a Task; the relationship holds Tag objects",
          // The model's rules, for the objects as they stand.
          "Task _id \"b\", property 'title': a value is required",
        ], "\(lines.joined(separator: "\n"))")
    }
    #expect(try StoreRows.dump(url) == before)
  }

  @Test("The model's rules run in the one save; failures are placed by _id and nothing is written")
  func validationFailures() throws {
    let directory = try TemporaryDirectory()
    let (container, url) = try Self.tasksStore(directory)
    let context = container.newContext()
    let tag = try context.insert(entityNamed: "Tag")
    try tag.setValue(.string("taken"), forKey: "name")
    try context.save()
    let before = try StoreRows.dump(url)
    do {
      try StoreImport.importJSON(
        """
        {"Task": [{"_id": "x", "id": "8D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "", "priority": 9}],
         "Tag": [{"_id": "t", "name": "taken"}]}
        """, into: container.newContext())
      Issue.record("the import should be refused")
    } catch {
      let lines = Set(error.problems.map(\.description))
      #expect(lines.contains("Task _id \"x\", property 'title': is 0 long; the minimum length is 1 (value: )"))
      #expect(lines.contains("Task _id \"x\", property 'priority': is above the maximum 3 (value: 9)"))
      #expect(
        lines.contains {
          $0.hasPrefix(
            "Tag _id \"t\", property 'name': must be unique; the store already has an object with this value")
        }, "\(lines)")
    }
    #expect(try StoreRows.dump(url) == before)
  }

  @Test("Objects nothing refers to need no _id; a reference to a label no object has is still refused")
  func optionalLabels() throws {
    // A user writes a file of tags by hand (or with jq from another tool's output): nothing refers
    // to them, so labelling each is busywork. A task that names its project keeps the label.
    let container = try ContextFixtures.tasksContainer()
    let summary = try StoreImport.importJSON(
      """
      {"Tag": [{"name": "home"}, {"name": "work"}],
       "Project": [{"_id": "p", "name": "House"}],
       "Task": [{"id": "8D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "Sweep", "project": "p", "tags": []}]}
      """, into: container.newContext())
    #expect(summary.insertedObjects == ["Tag": 2, "Project": 1, "Task": 1])
    let context = container.newContext()
    let task = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")).first)
    #expect(try task.object(forKey: "project")?.value(forKey: "name") == .string("House"))
    do {
      try StoreImport.importJSON(
        """
        {"Tag": [{"name": "errands"}, {"name": 7}],
         "Task": [{"id": "9D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "Mop", "project": "nowhere"}]}
        """, into: container.newContext())
      Issue.record("the import should be refused")
    } catch {
      #expect(
        error.problems.map(\.description) == [
          "Tag _id \"#2\", property 'name': expected a string for this String attribute, found a number",
          "Task _id \"#1\", property 'project': refers to _id \"nowhere\", which is no object of the file or the store",
        ])
    }
    #expect(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Tag")) == 2)
  }

  @Test("Both sides of a relationship must agree")
  func inverseDisagreement() throws {
    let container = try ContextFixtures.tasksContainer()
    do {
      try StoreImport.importJSON(
        """
        {"Project": [{"_id": "p1", "name": "One", "tasks": ["t"]}, {"_id": "p2", "name": "Two", "tasks": []}],
         "Task": [{"_id": "t", "id": "8D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "T", "project": "p2"}]}
        """, into: container.newContext())
      Issue.record("the import should be refused")
    } catch {
      #expect(error.problems.map(\.entity).contains("Project"))
      #expect(error.problems.contains { $0.objectID == "p2" && $0.property == "tasks" }, "\(error)")
    }
    #expect(try container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 0)
  }

  @Test("A reference may name an object of the store by its URI; ordered relationships keep the file's order")
  func storeReferencesAndOrder() throws {
    let model = ContextFixtures.model(
      """
      <entity name="List" representedClassName="List">
        <attribute name="name" attributeType="String"/>
        <relationship name="items" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="list" inverseEntity="Item"/>
      </entity>
      <entity name="Item" representedClassName="Item">
        <attribute name="name" attributeType="String"/>
        <relationship name="list" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="List" inverseName="items" inverseEntity="List"/>
      </entity>
      """)
    let container = try PersistentContainer(model: model, options: .inMemory)
    let context = container.newContext()
    let list = try context.insert(entityNamed: "List")
    try list.setValue(.string("Groceries"), forKey: "name")
    try context.save()
    let uri = ObjectJSON.identifier(of: list.objectID, entityName: "List", storeUUID: container.storeUUID)
    try StoreImport.importJSON(
      """
      {"Item": [{"_id": "c", "name": "cheese", "list": "\(uri)"}, {"_id": "a", "name": "apples", "list": "\(uri)"},
                {"_id": "b", "name": "bread", "list": "\(uri)"}],
       "List": [{"_id": "new", "name": "Ordered", "items": []}]}
      """, into: container.newContext())
    let fresh = container.newContext()
    let groceries = try fresh.existingObject(with: list.objectID)
    let groceryNames = try groceries.objects(forKey: "items").map { try $0.value(forKey: "name") }
    #expect(groceryNames == [.string("cheese"), .string("apples"), .string("bread")])

    // An ordered to-many given in the file sets the order.
    let other = try PersistentContainer(model: model, options: .inMemory)
    try StoreImport.importJSON(
      """
      {"List": [{"_id": "l", "name": "L", "items": ["z", "x", "y"]}],
       "Item": [{"_id": "x", "name": "x", "list": "l"}, {"_id": "y", "name": "y", "list": "l"}, {"_id": "z", "name": "z"}]}
      """, into: other.newContext())
    let reader = other.newContext()
    let loaded = try reader.fetch(FetchRequest<ManagedObject>(entityName: "List"))[0]
    let names = try loaded.objects(forKey: "items").map { try $0.value(forKey: "name") }
    #expect(names == [.string("z"), .string("x"), .string("y")])
  }

  @Test("Not JSON, or not an object of arrays: one clear problem")
  func malformed() throws {
    let container = try ContextFixtures.tasksContainer()
    for (text, expected) in [
      ("{\"Task\": [", "the file is not valid JSON: 1:11: unexpected end of input; expected a value"),
      ("[1]", "the file must hold a JSON object keyed by entity name, not an array"),
      ("{\"Task\": {}}", "Task: expected an array of objects, found an object"),
      ("{\"Task\": [3]}", "Task _id \"#1\": expected an object, found a number"),
    ] {
      do {
        try StoreImport.importJSON(text, into: container.newContext())
        Issue.record("'\(text)' should be refused")
      } catch {
        #expect(error.problems.map(\.description) == [expected])
      }
    }
  }
}
