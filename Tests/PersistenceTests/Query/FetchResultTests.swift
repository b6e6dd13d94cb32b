import Foundation
import Persistence
import Testing

@Suite("Fetch result types")
struct FetchResultTests {
  static func store(tasks count: Int = 6) throws -> (PersistentContainer, ObjectContext, ManagedObject) {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("P"), forKey: "name")
    for index in 0..<count {
      let task = try ContextFixtures.insertTask(
        context, title: "T\(index)", priority: Int64(index % 3 + 1),
        notes: index % 2 == 0 ? "even" : nil)
      if index < 3 { try task.setObject(project, forKey: "project") }
    }
    try context.save()
    return (container, context, project)
  }

  @Test("count, IDs, limit and offset agree with fetch, with and without pending changes")
  func countsAndSlices() throws {
    let (_, context, _) = try Self.store()
    var request = FetchRequest<ManagedObject>(
      entityName: "Task", predicate: try FetchPredicate(format: "priority >= 2"),
      sortDescriptors: [FetchSortDescriptor("priority", ascending: false), FetchSortDescriptor("title")])
    func check() throws {
      let objects = try context.fetch(request)
      #expect(try context.count(for: request) == objects.count)
      #expect(try context.fetchObjectIDs(request) == objects.map(\.objectID))
    }
    for (offset, limit) in [(0, nil), (1, 2), (3, 10), (10, 1), (0, 0)] as [(Int, Int?)] {
      request.fetchOffset = offset
      request.fetchLimit = limit
      try check()
    }
    // Pending: a new match, a changed object that no longer matches, a deleted one.
    request.fetchOffset = 0
    request.fetchLimit = nil
    let before = try context.fetch(request).map { try $0.value(forKey: "title")?.description ?? "" }
    #expect(before == ["T2", "T5", "T1", "T4"])
    try ContextFixtures.insertTask(context, title: "New", priority: 3)
    func task(_ title: String) throws -> ManagedObject {
      try context.fetch(
        FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "title == %@", title)))[0]
    }
    try task("T5").setValue(.integer(1), forKey: "priority")
    context.delete(try task("T1"))
    let after = try context.fetch(request).map { try $0.value(forKey: "title")?.description ?? "" }
    #expect(after == ["New", "T2", "T4"])
    try check()
    request.fetchOffset = 1
    request.fetchLimit = 1
    try check()
    #expect(try context.count(for: request) == 1)
    // Without pending changes, the store's answer.
    request.includesPendingChanges = false
    request.fetchOffset = 0
    request.fetchLimit = nil
    #expect(try context.fetch(request).count == 4)
    #expect(try context.count(for: request) == 4)
  }

  @Test("IDs without a sort come in key order, also when an index serves the predicate in its own order")
  func idsInKeyOrder() throws {
    let container = try QueryTestModel.container()
    let context = container.newContext()
    // Keys ascend while (priority, due) descend: the index lists the rows backwards.
    // 200 rows, so that the keys of one priority span several 64-bit words.
    for index in 0..<200 {
      let item = try context.insert(entityNamed: index % 5 == 0 ? "Urgent" : "Item")
      try item.setValue(.integer(Int64(3 - index / 67)), forKey: "priority")
      try item.setValue(.date(Date(timeIntervalSinceReferenceDate: Double(1_000 - index))), forKey: "due")
    }
    try context.save()
    let first = Date(timeIntervalSinceReferenceDate: 999)
    let last = Date(timeIntervalSinceReferenceDate: 801)
    // Dense keys of one entity, of several entities, and two keys far apart (sorted).
    let cases: [(String, [Date], Bool, Bool)] = [
      ("priority == 3", [], false, true), ("priority == 2", [], true, true),
      ("priority == 1 OR priority == 3", [], true, true),
      ("(priority == 3 AND due >= %@) OR (priority == 1 AND due <= %@)", [first, last], false, false),
    ]
    for (format, arguments, subentities, usesIndex) in cases {
      let predicate = try FetchPredicate(format: format, argumentArray: arguments)
      var request = FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate)
      request.includesSubentities = subentities
      request.includesPendingChanges = false
      let plan = try #require(try context.explainQueryPlan(for: request)).joined(separator: " ")
      #expect(!usesIndex || plan.contains("byPriorityAndDue"), "\(format): \(plan)")
      let ids = try context.fetchObjectIDs(request)
      #expect(!ids.isEmpty)
      #expect(ids.map { $0.primaryKey ?? 0 } == ids.map { $0.primaryKey ?? 0 }.sorted(), "\(format)")
      #expect(ids == (try context.fetch(request)).map(\.objectID), "\(format)")
      // In a batch update's result too: the same selection.
      let result = try context.execute(
        BatchUpdateRequest(
          entityName: "Item", predicate: predicate, propertiesToUpdate: ["done": .attribute(.boolean(true))]))
      #expect(
        result.objectIDs
          == (subentities
            ? ids : try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: "Item", predicate: predicate))),
        "\(format)")
    }
  }

  @Test("Dictionaries of chosen properties, to-one as IDs, nil values left out, distinct results")
  func dictionaries() throws {
    let (_, context, project) = try Self.store()
    var request = FetchRequest<ManagedObject>(
      entityName: "Task", sortDescriptors: [FetchSortDescriptor("title")])
    request.propertiesToFetch = ["title", "notes", "project"]
    let rows = try context.fetchDictionaries(request)
    #expect(rows.count == 6)
    #expect(
      rows[0] == [
        "title": .attribute(.string("T0")), "notes": .attribute(.string("even")), "project": .object(project.objectID),
      ])
    #expect(rows[5] == ["title": .attribute(.string("T5"))])

    request.propertiesToFetch = ["priority"]
    request.returnsDistinctResults = true
    request.sortDescriptors = [FetchSortDescriptor("priority", ascending: false)]
    #expect(
      try context.fetchDictionaries(request).map { $0["priority"] } == [
        .attribute(.integer(3)), .attribute(.integer(2)), .attribute(.integer(1)),
      ])
    request.fetchLimit = 2
    request.fetchOffset = 1
    #expect(
      try context.fetchDictionaries(request).map { $0["priority"] } == [
        .attribute(.integer(2)), .attribute(.integer(1)),
      ])

    // Pending changes count too.
    try ContextFixtures.insertTask(context, title: "Z", priority: 1)
    request.fetchLimit = nil
    request.fetchOffset = 0
    request.returnsDistinctResults = false
    #expect(try context.fetchDictionaries(request).count == 7)

    request.propertiesToFetch = ["tags"]
    #expect(throws: PersistenceError.self) { try context.fetchDictionaries(request) }
    request.propertiesToFetch = ["titel"]
    #expect(throws: PersistenceError.self) { try context.fetchDictionaries(request) }
  }

  @Test("Sub-entities are included unless excluded")
  func subentities() throws {
    let container = try QueryTestModel.container()
    let context = container.newContext()
    try QueryTestData.populate(context, seed: 11, items: 20)
    try context.save()
    var request = FetchRequest<ManagedObject>(entityName: "Item")
    let all = try context.fetch(request)
    let urgent = all.filter { $0.entityName == "Urgent" }
    #expect(!urgent.isEmpty && urgent.count < all.count)
    request.includesSubentities = false
    #expect(try context.fetch(request).count == all.count - urgent.count)
    #expect(try context.count(for: request) == all.count - urgent.count)
    #expect(try context.fetch(FetchRequest<ManagedObject>(entityName: "Urgent")).count == urgent.count)
  }

  @Test("Prefetching loads relationships in bulk; unknown key paths are errors")
  func prefetching() throws {
    let (container, _, _) = try Self.store()
    let context = container.newContext()
    var request = FetchRequest<ManagedObject>(entityName: "Project")
    request.relationshipKeyPathsForPrefetching = ["tasks.tags"]
    let projects = try context.fetch(request)
    let tasks = try projects[0].objects(forKey: "tasks")
    #expect(tasks.count == 3)
    #expect(tasks.allSatisfy { !$0.isFault })
    request.relationshipKeyPathsForPrefetching = ["taks"]
    #expect {
      try context.fetch(request)
    } throws: { error in
      "\(error)" == "entity 'Project' has no property 'taks'; did you mean 'tasks'?"
    }
  }

  @Test(
    "Prefetched to-many relationships are each object's own, for keys that fill their range, that leave gaps, and that are sparse"
  )
  func prefetchingSubsets() throws {
    let container = try ContextFixtures.tasksContainer()
    let writer = container.newContext()
    let tags = try ["a", "b", "c"].map { name in
      let tag = try writer.insert(entityNamed: "Tag")
      try tag.setValue(.string(name), forKey: "name")
      return tag
    }
    let projects = try ["P", "Q"].map { name in
      let project = try writer.insert(entityNamed: "Project")
      try project.setValue(.string(name), forKey: "name")
      return project
    }
    // Task i has the tags of the bits of i % 8, the project P or Q when i % 3 is 1 or 2, and
    // the priority 1 when i is even (every other key: gaps inside the range).
    for index in 0..<40 {
      let task = try ContextFixtures.insertTask(writer, title: "T\(index)", priority: Int64(index % 2 + 1))
      try task.setObjects(tags.indices.filter { (index % 8) >> $0 & 1 == 1 }.map { tags[$0] }, forKey: "tags")
      if index % 3 != 0 { try task.setObject(projects[index % 3 - 1], forKey: "project") }
    }
    try writer.save()

    func expectedTags(_ title: String) -> Set<String> {
      let index = Int(title.dropFirst())!
      return Set(tags.indices.filter { (index % 8) >> $0 & 1 == 1 }.map { ["a", "b", "c"][$0] })
    }
    func name(_ object: ManagedObject) throws -> String {
      guard case .string(let name)? = try object.value(forKey: "name") else { return "" }
      return name
    }
    for format in ["TRUEPREDICATE", "priority == 1", "title IN {'T3', 'T17', 'T38'}", "title == 'T5'"] {
      let context = container.newContext()
      var request = FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: format))
      request.relationshipKeyPathsForPrefetching = ["tags"]
      let tasks = try context.fetch(request)
      #expect(!tasks.isEmpty)
      for task in tasks {
        guard case .string(let title)? = try task.value(forKey: "title") else {
          Issue.record("a task without a title")
          continue
        }
        let loaded = try task.objects(forKey: "tags")
        #expect(loaded.allSatisfy { !$0.isFault }, "\(format): \(title)")
        #expect(Set(try loaded.map(name)) == expectedTags(title), "\(format): \(title)")
      }
    }
    // The inverse side's foreign key: a project's tasks.
    let context = container.newContext()
    var request = FetchRequest<ManagedObject>(
      entityName: "Project", predicate: try FetchPredicate(format: "name == 'Q'"))
    request.relationshipKeyPathsForPrefetching = ["tasks"]
    let project = try #require(try context.fetch(request).first)
    let titles = try project.objects(forKey: "tasks").map { try $0.value(forKey: "title") }
    #expect(Set(titles) == Set((0..<40).filter { $0 % 3 == 2 }.map { AttributeValue.string("T\($0)") }))
  }

  @Test("Batches: every object once, in order, one batch held at a time")
  func batches() throws {
    let (_, context, _) = try Self.store(tasks: 23)
    var request = FetchRequest<ManagedObject>(entityName: "Task", sortDescriptors: [FetchSortDescriptor("title")])
    request.fetchBatchSize = 5
    let batches = try context.fetchBatches(request)
    #expect(batches.count == 23)
    var titles: [String] = []
    for task in batches { titles.append(try task.value(forKey: "title")?.description ?? "") }
    #expect(titles == (0..<23).map { "T\($0)" }.sorted())
  }
}
