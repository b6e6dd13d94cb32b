import Foundation
import Persistence
import Testing

@Suite("Compiled queries")
struct QuerySQLTests {
  static func tasks(_ count: Int = 0) throws -> (PersistentContainer, ObjectContext) {
    let container = try ContextFixtures.tasksContainer()
    let context = container.newContext()
    for index in 0..<count {
      try ContextFixtures.insertTask(
        context, title: "Task \(index)", priority: Int64(index % 3 + 1),
        due: index % 4 == 0 ? nil : Date(timeIntervalSinceReferenceDate: Double(index) * 3600))
    }
    try context.save()
    return (container, context)
  }

  @Test("A predicate and sort on the (priority, dueDate) fetch index use the index, without a sort step")
  func indexUse() throws {
    let (_, context) = try Self.tasks()
    let request = FetchRequest<ManagedObject>(
      entityName: "Task",
      predicate: try FetchPredicate(
        format: "priority == 2 AND dueDate < %@", Date(timeIntervalSinceReferenceDate: 1e6)),
      sortDescriptors: [FetchSortDescriptor("priority"), FetchSortDescriptor("dueDate")])
    let plan = try #require(try context.explainQueryPlan(for: request))
    #expect(plan.contains { $0.contains("USING INDEX Z_Task_byPriorityAndDueDate") }, "\(plan)")
    #expect(!plan.contains { $0.contains("TEMP B-TREE") }, "\(plan)")

    let range = FetchRequest<ManagedObject>(
      entityName: "Task", predicate: try FetchPredicate(format: "priority BETWEEN {2, 3}"),
      sortDescriptors: [FetchSortDescriptor("priority")])
    let rangePlan = try #require(try context.explainQueryPlan(for: range))
    #expect(rangePlan.contains { $0.contains("USING INDEX Z_Task_byPriorityAndDueDate") }, "\(rangePlan)")
  }

  @Test("Everything compiles: no request falls back to evaluating in memory")
  func compiles() throws {
    let (_, context) = try Self.tasks()
    let formats = [
      "title CONTAINS[cd] 'é' AND NOT (notes == nil)", "ANY tags.name BEGINSWITH[c] 'h'", "ALL tags.name != 'x'",
      "NONE tags.name LIKE 'a*'", "tags.@count > 1", "project.name MATCHES '[A-Z].*'", "project.tasks.@count >= 2",
      "SUBQUERY(tags, $t, $t.name IN {'a', 'b'} AND $t.tasks.@count > 1).@count > 0", "'home' IN tags.name",
      "title IN project.tasks.title", "dueDate BETWEEN %@", "id == %@", "isCompleted == YES", "project == nil",
      "tags.@max.name > 'm'", "project.tasks.@avg.priority < 2.5", "priority IN {1, 3}", "notes ENDSWITH[d] 'e'",
    ]
    let arguments: [[any PredicateArgumentConvertible]] = [
      [], [], [], [], [], [], [], [], [], [], [[Date(timeIntervalSinceReferenceDate: 0), Date()]], [UUID()], [], [],
      [], [], [], [],
    ]
    for (format, arguments) in zip(formats, arguments) {
      let request = FetchRequest<ManagedObject>(
        entityName: "Task", predicate: try FetchPredicate(format: format, argumentArray: arguments),
        sortDescriptors: [.caseInsensitive("title"), FetchSortDescriptor("project.name", ascending: false)])
      #expect(try context.explainQueryPlan(for: request) != nil, "\(format)")
      _ = try context.fetch(request)
    }
  }

  @Test("nil: != matches nil, NOT of a comparison with nil is true, ordering and string operators never match nil")
  func nilSemantics() throws {
    let (_, context) = try Self.tasks()
    try ContextFixtures.insertTask(context, title: "with notes", notes: "x")
    try ContextFixtures.insertTask(context, title: "without notes")
    try context.save()
    func titles(_ format: String) throws -> [String] {
      var request = FetchRequest<ManagedObject>(
        entityName: "Task", predicate: try FetchPredicate(format: format),
        sortDescriptors: [FetchSortDescriptor("title")])
      request.includesPendingChanges = false
      return try context.fetch(request).map { try $0.value(forKey: "title")?.description ?? "" }
    }
    #expect(try titles("notes != 'x'") == ["without notes"])
    #expect(try titles("NOT notes == 'x'") == ["without notes"])
    #expect(try titles("notes == nil") == ["without notes"])
    #expect(try titles("NOT notes < 'z'") == ["without notes"])
    #expect(try titles("NOT notes CONTAINS 'x'") == ["without notes"])
    #expect(try titles("notes CONTAINS ''") == [])
    #expect(try titles("NOT notes BEGINSWITH 'y'") == ["with notes", "without notes"])
  }

  @Test("Case- and diacritic-insensitive comparisons and sorting use the evaluator's folding")
  func folding() throws {
    let (_, context) = try Self.tasks()
    for title in ["Straße", "STRASSE", "Café", "cafe\u{301}", "CAFE", "İstanbul", "istanbul", "b", "A"] {
      try ContextFixtures.insertTask(context, title: title)
    }
    try context.save()
    func titles(_ format: String, _ sort: [FetchSortDescriptor] = [FetchSortDescriptor("title")]) throws -> [String] {
      var request = FetchRequest<ManagedObject>(
        entityName: "Task", predicate: try FetchPredicate(format: format), sortDescriptors: sort)
      request.includesPendingChanges = false
      return try context.fetch(request).map { try $0.value(forKey: "title")?.description ?? "" }
    }
    #expect(try titles("title ==[c] 'strasse'") == ["STRASSE", "Straße"])
    #expect(try titles("title ==[cd] 'cafe'") == ["CAFE", "Café", "cafe\u{301}"])
    #expect(try titles("title ==[c] 'café'") == ["Café", "cafe\u{301}"])
    #expect(try titles("title BEGINSWITH[cd] 'ISTAN'") == ["istanbul", "İstanbul"])
    #expect(try titles("title BEGINSWITH[c] 'ISTAN'") == ["istanbul"])
    // `?` takes a whole character, `é` precomposed or not; `[c]` alone still tells `e` from `é`.
    #expect(try titles("title LIKE[c] 'caf?'") == ["CAFE", "Café", "cafe\u{301}"])
    #expect(try titles("title LIKE[c] 'cafe'") == ["CAFE"])
    #expect(try titles("title LIKE[cd] 'caf?'") == ["CAFE", "Café", "cafe\u{301}"])
    #expect(try titles("title MATCHES[c] 'str.*'") == ["STRASSE", "Straße"])
    #expect(
      try titles("title IN {'b', 'A'}", [.caseInsensitive("title"), FetchSortDescriptor("title", ascending: false)])
        == ["A", "b"])
  }

  @Test("Objects and object IDs compare by primary key, through to-one and to-many relationships")
  func objects() throws {
    let (_, context) = try Self.tasks()
    let first = try ContextFixtures.insertTask(context, title: "first")
    let second = try ContextFixtures.insertTask(context, title: "second")
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("P"), forKey: "name")
    let tag = try context.insert(entityNamed: "Tag")
    try tag.setValue(.string("T"), forKey: "name")
    try first.setObject(project, forKey: "project")
    try second.addObject(tag, forKey: "tags")
    try context.save()
    func titles(_ format: String, _ arguments: any PredicateArgumentConvertible...) throws -> [String] {
      var request = FetchRequest<ManagedObject>(
        entityName: "Task", predicate: try FetchPredicate(format: format, argumentArray: arguments),
        sortDescriptors: [FetchSortDescriptor("title")])
      request.includesPendingChanges = false
      return try context.fetch(request).map { try $0.value(forKey: "title")?.description ?? "" }
    }
    #expect(try titles("project == %@", project) == ["first"])
    #expect(try titles("project == %@", project.objectID) == ["first"])
    #expect(try titles("project != %@", project) == ["second"])
    #expect(try titles("tags CONTAINS %@", tag) == ["second"])
    #expect(try titles("%@ IN tags", tag.objectID) == ["second"])
    #expect(try titles("SELF == %@", second) == ["second"])
    #expect(try titles("SELF IN %@", [first.objectID, second.objectID]) == ["first", "second"])
    #expect(try titles("project == %@", tag) == [])
    #expect(try titles("project.tasks CONTAINS SELF") == ["first"])
  }

  @Test("An invalid MATCHES pattern is the evaluator's error, whether or not the query compiles")
  func invalidRegex() throws {
    let (_, context) = try Self.tasks(2)
    let request = FetchRequest<ManagedObject>(
      entityName: "Task", predicate: try FetchPredicate(format: "title MATCHES '('"))
    #expect(throws: PredicateEvaluationError.invalidRegularExpression("(")) { try context.fetch(request) }
  }

  @Test("Unknown key paths name the entity and suggest a property")
  func unknownKeys() throws {
    let (_, context) = try Self.tasks()
    let request = FetchRequest<ManagedObject>(entityName: "Task", predicate: try FetchPredicate(format: "titl == 'a'"))
    #expect {
      try context.fetch(request)
    } throws: { error in
      "\(error)" == "entity 'Task' has no property 'titl'; did you mean 'title'?"
    }
    let sorted = FetchRequest<ManagedObject>(
      entityName: "Task", sortDescriptors: [FetchSortDescriptor("project.nam")])
    #expect {
      try context.fetch(sorted)
    } throws: { error in
      "\(error)" == "entity 'Project' has no property 'nam'; did you mean 'name'?"
    }
    let entity = FetchRequest<ManagedObject>(entityName: "Tasks")
    #expect {
      try context.count(for: entity)
    } throws: { error in
      "\(error)" == "the model has no entity 'Tasks'; did you mean 'Task'?"
    }
  }
}
