import Foundation
import Persistence
import Testing

/// Classes shaped like the code generator's output for the Tasks model.
enum Generated {
  final class Task: ManagedObject, GeneratedEntity {
    static let entityName = "Task"

    enum Keys {
      static let title = PropertyKey<Task, String>("title")
      static let notes = PropertyKey<Task, String?>("notes")
      static let priority = PropertyKey<Task, Int16>("priority")
      static let dueDate = PropertyKey<Task, Date?>("dueDate")
      static let isCompleted = PropertyKey<Task, Bool>("isCompleted")
      static let project = PropertyKey<Task, Project?>("project")
      static let tags = PropertyKey<Task, Set<Tag>>("tags")
    }
  }

  final class Tag: ManagedObject, GeneratedEntity {
    static let entityName = "Tag"

    enum Keys {
      static let name = PropertyKey<Tag, String>("name")
      static let tasks = PropertyKey<Tag, Set<Task>>("tasks")
    }
  }

  final class Project: ManagedObject, GeneratedEntity {
    static let entityName = "Project"

    enum Keys {
      static let name = PropertyKey<Project, String>("name")
      static let tasks = PropertyKey<Project, Set<Task>>("tasks")
    }
  }
}

@Suite("Typed requests and keys")
struct TypedQueryTests {
  typealias Task = Generated.Task
  typealias Tag = Generated.Tag
  typealias Project = Generated.Project

  static func context() throws -> ObjectContext {
    let container = try PersistentContainer(
      bundle: ContextFixtures.tasksBundle, options: .inMemory, classes: [Task.self, Tag.self, Project.self])
    let context = container.newContext()
    let home = try context.insert(entityNamed: "Tag")
    try home.setValue(.string("home"), forKey: "name")
    let work = try context.insert(entityNamed: "Tag")
    try work.setValue(.string("Work"), forKey: "name")
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("House"), forKey: "name")
    let specs: [(String, Int64, Double?, String?, [ManagedObject], Bool)] = [
      ("Paint", 1, 100, "Blue", [home], true), ("Report", 3, nil, nil, [work], false),
      ("Garden", 2, 50, "roses", [home, work], false), ("Call", 2, 10, nil, [], false),
    ]
    for (title, priority, due, notes, tags, inProject) in specs {
      let task = try ContextFixtures.insertTask(
        context, title: title, priority: priority, due: due.map { Date(timeIntervalSinceReferenceDate: $0) },
        notes: notes)
      for tag in tags { try task.addObject(tag, forKey: "tags") }
      if inProject { try task.setObject(project, forKey: "project") }
    }
    try context.save()
    return context
  }

  static func titles(_ context: ObjectContext, _ predicate: FetchPredicate) throws -> [String] {
    let tasks = try context.fetch(Task.self, where: predicate, sortedBy: [Task.Keys.title.ascending])
    return try tasks.map { try $0.value(forKey: "title")?.description ?? "" }
  }

  @Test("Typed requests return the generated class and match their string forms")
  func typedRequests() throws {
    let context = try Self.context()
    let tasks = try context.fetch(FetchRequest(Task.self, sortDescriptors: [Task.Keys.priority.descending]))
    #expect(tasks.count == 4)
    #expect(try context.count(Task.self, where: Task.Keys.priority >= 2) == 3)
    let cases: [(FetchPredicate, String)] = [
      (Task.Keys.priority > 1 && !(Task.Keys.title == "Call"), "priority > 1 AND NOT title == 'Call'"),
      (Task.Keys.dueDate < Date(timeIntervalSinceReferenceDate: 60), "dueDate < CAST(60, 'NSDate')"),
      (Task.Keys.dueDate.isNil, "dueDate == nil"),
      (Task.Keys.notes.contains("o", options: .caseInsensitive), "notes CONTAINS[c] 'o'"),
      (Task.Keys.notes.isNotNil || Task.Keys.isCompleted == true, "notes != nil OR isCompleted == YES"),
      (Task.Keys.project.appending(Project.Keys.name) == "House", "project.name == 'House'"),
      (Task.Keys.tags.any(Tag.Keys.name.equals("WORK", options: .caseInsensitive)), "ANY tags.name ==[c] 'work'"),
      (Task.Keys.tags.all(Tag.Keys.name == "home"), "ALL tags.name == 'home'"),
      (Task.Keys.tags.none(Tag.Keys.name.beginsWith("h")), "NONE tags.name BEGINSWITH 'h'"),
      (Task.Keys.tags.count >= 1, "tags.@count >= 1"),
      (Task.Keys.tags.count(where: Tag.Keys.name == "home") == 1, "SUBQUERY(tags, $t, $t.name == 'home').@count == 1"),
      (Task.Keys.title.isIn(["Paint", "Call"]), "title IN {'Paint', 'Call'}"),
      (Task.Keys.priority.isBetween(2, and: 3), "priority BETWEEN {2, 3}"),
    ]
    for (typed, format) in cases {
      let expected = try Self.titles(context, try FetchPredicate(format: format))
      #expect(try Self.titles(context, typed) == expected, "\(typed) vs \(format)")
      #expect(!expected.isEmpty, "\(format)")
    }
  }

  @Test("Aggregates and containment over to-many keys")
  func toManyKeys() throws {
    let context = try Self.context()
    let home = try #require(
      try context.fetch(Tag.self, where: Tag.Keys.name == "home").first)
    #expect(try Self.titles(context, Task.Keys.tags.contains(home)) == ["Garden", "Paint"])
    let projects = try context.fetch(
      Project.self, where: Project.Keys.tasks.sum(Task.Keys.priority) == 1 && Project.Keys.tasks.count == 1)
    #expect(projects.count == 1)
    #expect(try context.count(Project.self, where: Project.Keys.tasks.maximum(Task.Keys.title) == "Paint") == 1)
    #expect(try context.count(Project.self, where: Project.Keys.tasks.average(Task.Keys.priority) > 1.5) == 0)
    #expect(try context.count(Tag.self, where: Tag.Keys.tasks.minimum(Task.Keys.dueDate).isNil) == 0)
  }
}
