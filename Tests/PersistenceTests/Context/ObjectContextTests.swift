import Foundation
import Persistence
import Testing

@Suite("Object context")
struct ObjectContextTests {
  @Test("Insert, save and fetch back with every value")
  func insertSaveFetch() throws {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    let due = Date(timeIntervalSinceReferenceDate: 800_000_000.125)
    let task = try ContextFixtures.insertTask(context, title: "Write tests", priority: 1, due: due, notes: "café")
    #expect(context.hasChanges)
    #expect(task.objectID.isTemporary)
    try context.save()
    #expect(!context.hasChanges)
    #expect(!task.objectID.isTemporary)

    let other = container.newContext()
    let fetched = try other.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    #expect(fetched.count == 1)
    let copy = try #require(fetched.first)
    #expect(try copy.value(forKey: "title") == .string("Write tests"))
    #expect(try copy.value(forKey: "priority") == .integer(1))
    #expect(try copy.value(forKey: "dueDate") == .date(due))
    #expect(try copy.value(forKey: "notes") == .string("café"))
    #expect(try copy.value(forKey: "isCompleted") == .boolean(false))
    #expect(copy.objectID == task.objectID)
  }

  @Test("One object per row per context")
  func uniquing() throws {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    try ContextFixtures.insertTask(context, title: "A")
    try context.save()
    let first = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    let second = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    #expect(first[0] === second[0])
    // The first fetch into a context holding no task skips the lookups; one holding some of
    // the fetched rows must find them.
    try ContextFixtures.insertTask(context, title: "B")
    try context.save()
    let other = container.newContext()
    let one = try #require(other.object(with: first[0].objectID))
    let both = try other.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    #expect(both.count == 2)
    #expect(both.contains { $0 === one })
    #expect(Set(both.map(ObjectIdentifier.init)).count == 2)
  }

  @Test("Objects a fetch registers are found by ID afterwards, whatever order their keys came in")
  func registeredAfterFetch() throws {
    let container = try ContextFixtures.tasksContainer()
    let writer = container.newContext()
    for index in 0..<300 {
      // Titles sort in an order unrelated to the primary keys.
      try ContextFixtures.insertTask(writer, title: "Task \((index * 7_919) % 1_000)", priority: Int64(1 + index % 3))
    }
    try writer.save()

    let context = container.newContext()
    let byTitle = try context.fetch(
      FetchRequest<ManagedObject>(entityName: "Task", sortDescriptors: [FetchSortDescriptor("title")]))
    #expect(byTitle.count == 300)
    #expect(context.registeredObjects.count == 300)
    for object in byTitle { #expect(context.object(with: object.objectID) === object) }
    let again = try context.fetch(
      FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "priority == 1")))
    #expect(again.count == 100)
    #expect(again.allSatisfy { fetched in byTitle.contains { $0 === fetched } })

    // Deleting one after the fetch forgets it; the rest stay found.
    let gone = byTitle[150]
    context.delete(gone)
    try context.save()
    #expect(context.registeredObjects.count == 299)
    #expect(context.registeredObjects.allSatisfy { $0 !== gone })
    #expect(context.object(with: byTitle[149].objectID) === byTitle[149])
    #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Task")).count == 299)
  }

  @Test("Relationships keep inverses in step, and save and load")
  func relationships() throws {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    let task = try ContextFixtures.insertTask(context, title: "Tagged")
    let tag = try context.insert(entityNamed: "Tag")
    try tag.setValue(.string("home"), forKey: "name")
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("House"), forKey: "name")
    try task.addObject(tag, forKey: "tags")
    try task.setObject(project, forKey: "project")
    #expect(try tag.objects(forKey: "tasks") == [task])
    #expect(try project.objects(forKey: "tasks") == [task])
    try context.save()

    let other = container.newContext()
    let loaded = try other.fetch(FetchRequest<ManagedObject>(entityName: "Task"))[0]
    let loadedTags = try loaded.objects(forKey: "tags")
    #expect(loadedTags.count == 1)
    #expect(try loadedTags.first?.value(forKey: "name") == .string("home"))
    let loadedProject = try #require(try loaded.object(forKey: "project"))
    #expect(try loadedProject.value(forKey: "name") == .string("House"))
    #expect(try loadedProject.objects(forKey: "tasks") == [loaded])

    // Moving the task to another project updates both projects.
    let second = try other.insert(entityNamed: "Project")
    try second.setValue(.string("Garden"), forKey: "name")
    try loaded.setObject(second, forKey: "project")
    #expect(try loadedProject.objects(forKey: "tasks").isEmpty)
    #expect(try second.objects(forKey: "tasks") == [loaded])
    try other.save()
  }

  @Test("Cascade and nullify deletion rules")
  func deletionRules() throws {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("Doomed"), forKey: "name")
    let tag = try context.insert(entityNamed: "Tag")
    try tag.setValue(.string("keep"), forKey: "name")
    for index in 0..<3 {
      let task = try ContextFixtures.insertTask(context, title: "Task \(index)")
      try task.setObject(project, forKey: "project")
      try task.addObject(tag, forKey: "tags")
    }
    try context.save()
    context.delete(project)  // Cascade deletes the tasks; Nullify removes them from the tag.
    #expect(try tag.objects(forKey: "tasks").isEmpty)
    try context.save()
    let other = container.newContext()
    #expect(try other.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 0)
    #expect(try other.count(for: FetchRequest<ManagedObject>(entityName: "Tag")) == 1)
  }

  @Test("A failed save changes nothing and keeps the changes")
  func failedSave() throws {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    try ContextFixtures.insertTask(context, title: "Valid")
    try context.save()
    let bad = try ContextFixtures.insertTask(context, title: "", priority: 7)
    do {
      try context.save()
      Issue.record("the save should fail")
    } catch {
      let rules = Set(error.validationFailures.map(\.rule))
      #expect(rules == [.minimumLength, .maximumValue])
    }
    #expect(context.hasChanges)
    #expect(bad.isInserted)
    let other = container.newContext()
    #expect(try other.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 1)
    try bad.setValue(.string("Fixed"), forKey: "title")
    try bad.setValue(.integer(3), forKey: "priority")
    try context.save()
    #expect(try other.count(for: FetchRequest<ManagedObject>(entityName: "Task")) == 2)
  }

  @Test("Conflicts between two contexts, and merge policies")
  func conflicts() throws {
    let container = try ContextFixtures.tasksContainer()
    let first = container.newContext()
    try ContextFixtures.insertTask(first, title: "Shared")
    try first.save()
    let second = container.newContext()
    let a = try first.fetch(FetchRequest<ManagedObject>(entityName: "Task"))[0]
    let b = try second.fetch(FetchRequest<ManagedObject>(entityName: "Task"))[0]
    try a.setValue(.string("First"), forKey: "title")
    try first.save()
    try b.setValue(.string("Second"), forKey: "title")
    #expect(throws: SaveError.self) { try second.save() }
    second.mergePolicy = .contextWins
    try second.save()
    try first.refresh(a, mergeChanges: false)
    #expect(try a.value(forKey: "title") == .string("Second"))
    try a.setValue(.string("Again"), forKey: "title")
    try first.save()
    try b.setValue(.string("Loser"), forKey: "title")
    second.mergePolicy = .storeWins
    try second.save()
    #expect(try b.value(forKey: "title") == .string("Again"))
  }
}
