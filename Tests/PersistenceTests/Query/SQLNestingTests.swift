import Foundation
import TestSupport
import Testing

@testable import Persistence

/// Predicates nested deeper than SQLite's parser takes are answered in memory, the same as
/// SQL would, instead of failing with SQLite's "parser stack overflow" (found by the
/// `Predicate` fuzz target: 123 `!` before a comparison, answered by the in-memory evaluator
/// and refused by SQL).
@Suite("SQL nesting")
struct SQLNestingTests {
  /// Tasks A (priority 1, tagged home), B (2, tagged home and work), C (3), saved in one
  /// container and inserted unsaved in another, whose fetches evaluate in memory.
  static func contexts() throws -> (saved: ObjectContext, unsaved: ObjectContext) {
    func fill(_ context: ObjectContext) throws {
      let home = try context.insert(entityNamed: "Tag")
      try home.setValue(.string("home"), forKey: "name")
      let work = try context.insert(entityNamed: "Tag")
      try work.setValue(.string("work"), forKey: "name")
      for (title, priority) in [("A", 1), ("B", 2), ("C", 3)] {
        let task = try ContextFixtures.insertTask(context, title: title, priority: Int64(priority))
        if title != "C" { try task.addObject(home, forKey: "tags") }
        if title == "B" { try task.addObject(work, forKey: "tags") }
      }
    }
    let saved = try ContextFixtures.tasksContainer().newContext()
    try fill(saved)
    try saved.save()
    let unsaved = try ContextFixtures.tasksContainer().newContext()
    try fill(unsaved)
    return (saved, unsaved)
  }

  static func request(_ format: String) throws -> FetchRequest<ManagedObject> {
    FetchRequest<ManagedObject>(
      entityName: "Task", predicate: try FetchPredicate(format: format), sortDescriptors: [FetchSortDescriptor("title")]
    )
  }

  static func titles(_ context: ObjectContext, _ format: String) throws -> [String] {
    try context.fetch(request(format)).map { try $0.value(forKey: "title")?.description ?? "" }
  }

  @Test("The fuzz input (123 '!' before a to-many comparison) is answered in memory, as its one-NOT equivalent")
  func fuzzInput() throws {
    let input = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("fuzz/predicate-deep-not.txt"))
    let format = String(decoding: input, as: UTF8.self)
    let (saved, unsaved) = try Self.contexts()
    #expect(try saved.explainQueryPlan(for: Self.request(format)) == nil)
    #expect(try Self.titles(saved, format) == ["A", "B", "C"])
    #expect(try Self.titles(unsaved, format) == ["A", "B", "C"])

    let deep = String(repeating: "!", count: 123) + "tags.name == 'home'"
    #expect(try Self.titles(saved, deep) == ["C"])
    #expect(try Self.titles(saved, deep) == Self.titles(saved, "NOT tags.name == 'home'"))
    #expect(try Self.titles(unsaved, deep) == ["C"])
  }

  @Test(
    "Nesting up to the parser's limit is answered, by SQL or in memory, the same as in memory",
    arguments: [
      String(repeating: "NOT ", count: 199) + "priority == 2",
      String(repeating: "NOT (", count: 99) + "tags.name == 'work'" + String(repeating: ")", count: 99),
      (0..<66).map { $0 % 2 == 0 ? "(priority == 1 OR " : "(tags.name == 'home' AND " }.joined() + "priority == 2"
        + String(repeating: ")", count: 66),
      (0..<8).map { "SUBQUERY(\($0 == 0 ? "tags" : "$v\($0 - 1).tasks.tags"), $v\($0), " }.joined()
        + "$v7.name == 'work'" + String(repeating: ").@count > 0", count: 8),
    ])
  func deepButAllowed(_ format: String) throws {
    let (saved, unsaved) = try Self.contexts()
    #expect(try Self.titles(saved, format) == Self.titles(unsaved, format))
  }

  @Test("Ordinary predicates still compile to SQL")
  func ordinaryCompiles() throws {
    let (saved, _) = try Self.contexts()
    for format in [
      String(repeating: "NOT ", count: 8) + "tags.name == 'home'",
      "SUBQUERY(tags, $t, $t.name == 'home' AND NOT ($t.tasks.@count > 2)).@count > 0",
      "(priority == 1 OR (priority == 2 AND (title != 'x' OR (NOT (tags.name == 'work')))))",
    ] {
      #expect(try saved.explainQueryPlan(for: Self.request(format)) != nil, "\(format)")
    }
  }

  @Test("The cost counts subqueries as dearer than other parentheses and skips quoted text")
  func cost() {
    #expect(SQLNesting.cost(of: "a = 1") == 0)
    #expect(SQLNesting.cost(of: "((a = 1))") == 2 * SQLNesting.parenthesisCost)
    #expect(
      SQLNesting.cost(of: "EXISTS (SELECT 1 FROM t WHERE (a))") == SQLNesting.subqueryCost + SQLNesting.parenthesisCost)
    #expect(SQLNesting.cost(of: "(a) AND (b) AND (c)") == SQLNesting.parenthesisCost)
    #expect(SQLNesting.cost(of: "\"((\" = '(((' AND ( select 1)") == SQLNesting.subqueryCost)
  }
}
