import Foundation
import Persistence
import Testing

@Suite("Batch requests")
struct BatchRequestTests {
  /// A saved Tasks store: tasks A (p1), B (p2), C (p3); A and B in project P; tags home (A, B)
  /// and work (B).
  static func store() throws -> (PersistentContainer, ObjectContext) {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("P"), forKey: "name")
    let home = try context.insert(entityNamed: "Tag")
    try home.setValue(.string("home"), forKey: "name")
    let work = try context.insert(entityNamed: "Tag")
    try work.setValue(.string("work"), forKey: "name")
    for (title, priority) in [("A", 1), ("B", 2), ("C", 3)] {
      let task = try ContextFixtures.insertTask(context, title: title, priority: Int64(priority))
      if title != "C" {
        try task.setObject(project, forKey: "project")
        try task.addObject(home, forKey: "tags")
      }
      if title == "B" { try task.addObject(work, forKey: "tags") }
    }
    try context.save()
    return (container, context)
  }

  static func titles(_ context: ObjectContext, _ format: String = "TRUEPREDICATE") throws -> [String] {
    try context.fetch(
      FetchRequest<ManagedObject>(
        entityName: "Task", predicate: try FetchPredicate(format: format),
        sortDescriptors: [FetchSortDescriptor("title")])
    ).map { try $0.value(forKey: "title")?.description ?? "" }
  }

  @Test("Update: values in SQL, versions bumped, this context refreshed, others notified")
  func update() throws {
    let (container, context) = try Self.store()
    let other = container.newContext()
    let stale = try #require(
      try other.fetch(
        FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "title == 'A'"))
      ).first)
    let received = BatchNotificationBox()
    let observation = container.addSaveObserver { received.append($0) }
    defer { observation.cancel() }
    let loaded = try context.fetch(
      FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "title == 'A'")))[0]
    let result = try context.execute(
      BatchUpdateRequest(
        entityName: "Task", predicate: try FetchPredicate(format: "priority <= 2"),
        propertiesToUpdate: ["isCompleted": .attribute(.boolean(true)), "notes": .attribute(.string("done"))]))
    #expect(result.count == 2)
    #expect(try loaded.value(forKey: "isCompleted") == .boolean(true))
    #expect(try Self.titles(context, "isCompleted == YES AND notes == 'done'") == ["A", "B"])
    #expect(received.notifications.count == 1)
    #expect(received.notifications.first?.updatedObjects == Set(result.objectIDs))
    // A context that did not merge holds an old version: its save conflicts.
    try stale.setValue(.string("stale"), forKey: "notes")
    #expect(throws: SaveError.self) { try other.save() }
    other.rollback()
    other.mergeChanges(from: received.notifications[0])
    #expect(try Self.titles(other, "isCompleted == YES") == ["A", "B"])
  }

  @Test("Update: values are validated and unique constraints hold; the store is unchanged on failure")
  func updateValidation() throws {
    let (_, context) = try Self.store()
    #expect {
      try context.execute(
        BatchUpdateRequest(entityName: "Task", propertiesToUpdate: ["priority": .attribute(.integer(5))]))
    } throws: { error in
      (error as? BatchRequestError).map { "\($0)".contains("above the maximum") } ?? false
    }
    #expect {
      try context.execute(BatchUpdateRequest(entityName: "Task", propertiesToUpdate: ["title": .attribute(nil)]))
    } throws: { error in
      (error as? BatchRequestError).map { "\($0)".contains("a value is required") } ?? false
    }
    #expect {
      try context.execute(BatchUpdateRequest(entityName: "Task", propertiesToUpdate: ["titl": .attribute(nil)]))
    } throws: { error in
      "\(error)" == "entity 'Task' has no property 'titl'; did you mean 'title'?"
    }
    #expect {
      try context.execute(BatchUpdateRequest(entityName: "Tag", propertiesToUpdate: ["name": .attribute(.string("x"))]))
    } throws: { error in
      (error as? BatchRequestError).map { "\($0)".contains("must be unique") } ?? false
    }
    #expect(
      try context.count(
        for: FetchRequest<ManagedObject>(entityName: "Tag", predicate: try FetchPredicate(format: "name == 'x'"))) == 0)
    #expect(try Self.titles(context, "priority == 3") == ["C"])
  }

  @Test(
    "Update: the result names the objects selected before it, in primary-key order, through relationships, subqueries and the evaluator",
    arguments: [
      "priority <= 2", "project.name == 'P'", "ANY tags.name == 'work'", "title MATCHES '[AC]'",
      "SUBQUERY(tags, $t, $t.name == 'home').@count > 0 AND priority >= 2", "priority == 9",
    ])
  func updateSelection(_ format: String) throws {
    let (_, context) = try Self.store()
    let request = FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: format))
    let selected = try context.fetchObjectIDs(request)
    // The update changes what the predicates read (the priority and, for the tagged tasks, the
    // title): the rows it updates are still those selected before it.
    let result = try context.execute(
      BatchUpdateRequest(
        entityName: "Task", predicate: try FetchPredicate(format: format),
        propertiesToUpdate: ["priority": .attribute(.integer(1)), "notes": .attribute(.string("changed"))]))
    #expect(result.objectIDs == selected.sorted { $0.primaryKey ?? 0 < $1.primaryKey ?? 0 })
    let changed = try context.fetchObjectIDs(
      FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "notes == 'changed'")))
    #expect(Set(changed) == Set(selected))
  }

  @Test("Update: a condition that reads the updated rows through a relationship sees them as they were")
  func updateReadsRowsAsTheyWere() throws {
    let model = ContextFixtures.model(
      """
      <entity name="Employee" representedClassName="Employee">
        <attribute name="name" attributeType="String"/>
        <attribute name="salary" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
        <relationship name="manager" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Employee" inverseName="reports" inverseEntity="Employee"/>
        <relationship name="reports" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Employee" inverseName="manager" inverseEntity="Employee"/>
      </entity>
      """)
    let container = try PersistentContainer(model: model, options: .inMemory)
    let context = container.newContext()
    // A chain: a (20) manages b (5), b manages c (5), c manages d (5).
    var previous: ManagedObject?
    for (name, salary) in [("a", 20), ("b", 5), ("c", 5), ("d", 5)] {
      let employee = try context.insert(entityNamed: "Employee")
      try employee.setValue(.string(name), forKey: "name")
      try employee.setValue(.integer(Int64(salary)), forKey: "salary")
      try employee.setObject(previous, forKey: "manager")
      previous = employee
    }
    try context.save()
    // Only b's manager earns more than 10 before the update; raising b must not make c match.
    let result = try context.execute(
      BatchUpdateRequest(
        entityName: "Employee", predicate: try FetchPredicate(format: "manager.salary > 10"),
        propertiesToUpdate: ["salary": .attribute(.integer(50))]))
    #expect(result.count == 1)
    let raised = try context.fetch(
      FetchRequest<ManagedObject>(entityName: "Employee", predicate: try FetchPredicate(format: "salary == 50")))
    #expect(try raised.map { try $0.value(forKey: "name") } == [.string("b")])
  }

  @Test("Update: a failure names the first object the request selects")
  func updateFailureNamesAnObject() throws {
    let (_, context) = try Self.store()
    let first = try #require(
      try context.fetchObjectIDs(
        FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "priority >= 2"))
      ).min { $0.primaryKey ?? 0 < $1.primaryKey ?? 0 })
    do {
      try context.execute(
        BatchUpdateRequest(
          entityName: "Task", predicate: try FetchPredicate(format: "priority >= 2"),
          propertiesToUpdate: ["priority": .attribute(.integer(5))]))
      Issue.record("a priority above the maximum was accepted")
    } catch BatchRequestError.validation(let failures) {
      #expect(failures.map(\.objectID) == [first])
    }
    let tag = try #require(
      try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Tag")).min {
        $0.primaryKey ?? 0 < $1.primaryKey ?? 0
      })
    do {
      try context.execute(BatchUpdateRequest(entityName: "Tag", propertiesToUpdate: ["name": .attribute(.string("x"))]))
      Issue.record("two tags named alike were accepted")
    } catch BatchRequestError.validation(let failures) {
      #expect(failures.map(\.rule) == [.uniqueness])
      #expect(failures.map(\.objectID) == [tag])
    }
  }

  @Test("Update: to-one relationships take object IDs; nil empties them")
  func updateRelationship() throws {
    let (_, context) = try Self.store()
    let project = try context.fetch(FetchRequest<ManagedObject>(entityName: "Project"))[0]
    try context.execute(
      BatchUpdateRequest(
        entityName: "Task", predicate: try FetchPredicate(format: "title == 'C'"),
        propertiesToUpdate: ["project": .object(project.objectID)]))
    #expect(try Self.titles(context, "project.name == 'P'") == ["A", "B", "C"])
    #expect(try project.objects(forKey: "tasks").count == 3)
    try context.execute(BatchUpdateRequest(entityName: "Task", propertiesToUpdate: ["project": .object(nil)]))
    #expect(try Self.titles(context, "project == nil") == ["A", "B", "C"])
  }

  @Test("Delete: Cascade deletes destinations, Nullify clears links, the context forgets deleted objects")
  func deleteRules() throws {
    let (container, context) = try Self.store()
    let other = container.newContext()
    let otherTasks = try other.fetch(
      FetchRequest<ManagedObject>(entityName: "Task", sortDescriptors: [FetchSortDescriptor("title")]))
    let received = BatchNotificationBox()
    let observation = container.addSaveObserver { received.append($0) }
    defer { observation.cancel() }
    let home = try context.fetch(
      FetchRequest<ManagedObject>(entityName: "Tag", predicate: try FetchPredicate(format: "name == 'home'")))[0]
    // Project.tasks is Cascade: deleting the project deletes A and B; their tags stay (Nullify).
    let result = try context.execute(BatchDeleteRequest(entityName: "Project"))
    #expect(result.count == 3)
    #expect(try Self.titles(context) == ["C"])
    #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Tag")) == 2)
    #expect(try home.objects(forKey: "tasks").isEmpty)
    #expect(try Self.titles(context, "ANY tags.name == 'work'") == [])
    other.mergeChanges(from: try #require(received.notifications.first))
    #expect(otherTasks[0].isDeleted && otherTasks[1].isDeleted && !otherTasks[2].isDeleted)

    // Tag.tasks is Nullify: deleting tags leaves tasks.
    try context.execute(BatchDeleteRequest(entityName: "Tag"))
    #expect(try Self.titles(context) == ["C"])
  }

  @Test("Delete: Deny refuses while destinations remain, and nothing is deleted")
  func deleteDeny() throws {
    let container = try QueryTestModel.container()
    let context = container.newContext()
    try QueryTestData.populate(context, seed: 3, items: 10)
    try context.save()
    let groups = try context.count(for: FetchRequest<ManagedObject>(entityName: "Group"))
    #expect {
      try context.execute(BatchDeleteRequest(entityName: "Group"))
    } throws: { error in
      if case .deleteDenied(let entity, let relationship, let count) = error as? BatchRequestError {
        return entity == "Group" && relationship == "items" && count > 0
      }
      return false
    }
    #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Group")) == groups)
    let empty = try context.execute(
      BatchDeleteRequest(entityName: "Group", predicate: try FetchPredicate(format: "items.@count == 0")))
    #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Group")) == groups - empty.count)
    // Deleting the items first (children cascade) lets the groups go.
    let items = try context.execute(BatchDeleteRequest(entityName: "Item"))
    #expect(items.count == 10)
    try context.execute(BatchDeleteRequest(entityName: "Group"))
    #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Group")) == 0)
  }

  @Test("Insert: defaults, validation of every object, keys shared with saves, uniqueness")
  func insert() throws {
    let (container, context) = try Self.store()
    let result = try context.execute(
      BatchInsertRequest(
        entityName: "Task",
        objects: [
          ["id": .attribute(.uuid(UUID())), "title": .attribute(.string("D")), "priority": .attribute(.integer(3))],
          ["id": .attribute(.uuid(UUID())), "title": .attribute(.string("E"))],
        ]))
    #expect(result.count == 2)
    #expect(try Self.titles(context) == ["A", "B", "C", "D", "E"])
    #expect(try Self.titles(context, "priority == 2 AND isCompleted == NO") == ["B", "E"])
    // A save after the batch gets fresh keys.
    let other = container.newContext()
    let task = try ContextFixtures.insertTask(other, title: "F")
    try other.save()
    #expect(!result.objectIDs.contains(task.objectID))
    #expect(try Self.titles(context).count == 6)

    #expect {
      try context.execute(
        BatchInsertRequest(
          entityName: "Task",
          objects: [
            ["title": .attribute(.string(""))], ["title": .attribute(.integer(1)), "id": .attribute(.uuid(UUID()))],
          ]))
    } throws: { error in
      guard case .validation(let failures) = error as? BatchRequestError else { return false }
      return Set(failures.map(\.rule)) == [.required, .minimumLength, .typeMismatch]
    }
    let duplicate = UUID()
    #expect(throws: BatchRequestError.self) {
      try context.execute(
        BatchInsertRequest(
          entityName: "Task",
          objects: [
            ["id": .attribute(.uuid(duplicate)), "title": .attribute(.string("G"))],
            ["id": .attribute(.uuid(duplicate)), "title": .attribute(.string("H"))],
          ]))
    }
    #expect(try Self.titles(context).count == 6)
  }
}

/// Save notifications collected by an observer.
final class BatchNotificationBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [SaveNotification] = []

  func append(_ notification: SaveNotification) {
    lock.lock()
    stored.append(notification)
    lock.unlock()
  }

  var notifications: [SaveNotification] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }
}
