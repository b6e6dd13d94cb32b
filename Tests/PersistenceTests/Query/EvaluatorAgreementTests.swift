import Foundation
import Testing

@testable import Persistence

/// The compiled SQL and the in-memory evaluator must select the same objects in the same
/// order, for hundreds of random predicates and sorts over random data.
@Suite("SQL and in-memory evaluation agree")
struct EvaluatorAgreementTests {
  /// The outcome of one way of answering a request: IDs in order, or that it failed.
  enum Outcome: Equatable, CustomStringConvertible {
    case ids([ObjectID])
    case failure

    var description: String {
      switch self {
      case .ids(let ids): "\(ids.map { "\($0.key)" }.joined(separator: ","))"
      case .failure: "failure"
      }
    }
  }

  /// How many of the 700 random requests may fail in both evaluators: the generator writes a few
  /// comparisons that are errors on purpose.
  static let tolerableFailures = 35

  static func outcome(_ body: () throws -> [ObjectID]) -> Outcome {
    do { return .ids(try body()) } catch { return .failure }
  }

  /// The in-memory answer: the evaluator over every candidate, Core Data's sort, the slice.
  static func inMemory(_ request: FetchRequest<ManagedObject>, over objects: [ManagedObject]) -> Outcome {
    outcome {
      var candidates = objects
      if let predicate = request.predicate {
        candidates = try candidates.filter { try predicate.evaluate(with: $0) }
      }
      let sorted = try FetchSortDescriptor.sorted(candidates, using: request.sortDescriptors) {
        ObjectContext.primaryKeyOrder($0, $1)
      }
      return ObjectContext.slice(sorted, offset: request.fetchOffset, limit: request.fetchLimit).map(\.objectID)
    }
  }

  static func ids(_ context: ObjectContext, _ entity: String) throws -> [ObjectID] {
    try context.fetchObjectIDs(FetchRequest<ManagedObject>(entityName: entity))
  }

  static func randomRequest(_ generator: inout RandomPredicates, entity: String = "Item") -> FetchRequest<ManagedObject>
  {
    var request = FetchRequest<ManagedObject>(
      entityName: entity, predicate: generator.predicate(), sortDescriptors: generator.sortDescriptors())
    if generator.random.chance(0.3) { request.fetchLimit = Int.random(in: 0...8, using: &generator.random) }
    if generator.random.chance(0.2) { request.fetchOffset = Int.random(in: 0...5, using: &generator.random) }
    return request
  }

  @Test("Random predicates and sorts over saved data: compiled SQL == evaluator")
  func savedData() async throws {
    let container = try QueryTestModel.container()
    let writer = container.newContext()
    try QueryTestData.populate(writer, seed: 2024)
    try writer.save()

    let context = container.newContext()
    let everything = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
    let urgent = everything.filter { $0.entityName == "Urgent" }
    var generator = RandomPredicates(
      seed: 99,
      objectIDs: [
        "Item": try Self.ids(context, "Item"), "Group": try Self.ids(context, "Group"),
        "Label": try Self.ids(context, "Label"),
      ])
    var fallbacks: [String] = []
    var nonEmpty = 0
    var failed: [String] = []
    for index in 0..<700 {
      // Long loops leave the test runner's few threads to other tests now and then.
      if index % 50 == 0 { await Task.yield() }
      var request = Self.randomRequest(&generator)
      request.includesPendingChanges = false
      var candidates = everything
      if index % 7 == 0 {
        // Only the sub-entity, or the parent entity without its sub-entity.
        if generator.random.chance(0.5) {
          request.entityName = "Urgent"
          candidates = urgent
        } else {
          request.includesSubentities = false
          candidates = everything.filter { $0.entityName == "Item" }
        }
      }
      let plan = try QueryPlan(request: request, context: context)
      if !plan.isFullyCompiled { fallbacks.append(request.predicate?.description ?? "") }
      let expected = Self.inMemory(request, over: candidates)
      let fetched = Self.outcome { try context.fetch(request).map(\.objectID) }
      let identifiers = Self.outcome { try context.fetchObjectIDs(request) }
      #expect(
        fetched == expected,
        "\(index): \(request.predicate?.description ?? "-") sorted by \(request.sortDescriptors) [\(request.fetchOffset), \(request.fetchLimit.map(String.init) ?? "-")]\nSQL: \(plan.whereClause?.description ?? "nil") ORDER BY \(plan.orderBy?.description ?? "-")"
      )
      #expect(identifiers == expected, "\(index): fetchObjectIDs of \(request.predicate?.description ?? "-")")
      if case .ids(let ids) = expected {
        if !ids.isEmpty { nonEmpty += 1 }
        let count = try? context.count(for: request)
        #expect(count == ids.count, "\(index): count of \(request.predicate?.description ?? "-")")
      } else {
        failed.append(request.predicate?.description ?? "-")
      }
    }
    // Everything the generator writes compiles; a meaningful share of requests match something.
    #expect(fallbacks.isEmpty, "not compiled: \(fallbacks.prefix(10).joined(separator: "\n"))")
    #expect(nonEmpty > 150)
    // Both evaluators failing alike is agreement only for the few requests that are meant to
    // fail (a comparison of unlike types); evaluators that fail on everything must not pass.
    #expect(failed.count <= Self.tolerableFailures, "\(failed.count) requests failed in both: \(failed.prefix(5))")
  }

  @Test("Random predicates with pending inserts, updates and deletes: fetch == evaluator")
  func pendingChanges() async throws {
    let container = try QueryTestModel.container()
    let writer = container.newContext()
    try QueryTestData.populate(writer, seed: 77)
    try writer.save()

    let context = container.newContext()
    var saved = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
    let groups = try context.fetch(FetchRequest<ManagedObject>(entityName: "Group"))
    let labels = try context.fetch(FetchRequest<ManagedObject>(entityName: "Label"))
    // Pending changes: a new graph of items, edits of stored items, groups and labels (so
    // key paths through relationships see changes the store does not know), deletions.
    let other = container.newContext()
    _ = other
    var random = SeedRandom(seed: 5)
    try QueryTestData.populate(context, seed: 78, items: 8)
    for object in saved.prefix(12) {
      try object.setValue(.string(random.pick(QueryTestModel.strings)), forKey: "title")
      try object.setValue(
        random.chance(0.3) ? nil : .integer(Int64.random(in: 1...5, using: &random)), forKey: "priority")
      if random.chance(0.5) { try object.setObject(random.maybe(groups), forKey: "group") }
      if random.chance(0.5), let label = labels.randomElement(using: &random) {
        try object.addObject(label, forKey: "labels")
      }
    }
    try groups[0].setValue(.string("Changed"), forKey: "name")
    try labels[1].setValue(.string("RED"), forKey: "name")
    for object in saved.suffix(4) { context.delete(object) }
    saved.removeAll { $0.isDeleted }
    let current = try context.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
    #expect(
      Set(current.map(ObjectIdentifier.init)).isSuperset(of: saved.filter { !$0.isDeleted }.map(ObjectIdentifier.init)))

    var generator = RandomPredicates(
      seed: 123,
      objectIDs: ["Item": saved.map(\.objectID), "Group": groups.map(\.objectID), "Label": labels.map(\.objectID)])
    for index in 0..<250 {
      if index % 50 == 0 { await Task.yield() }
      let request = Self.randomRequest(&generator)
      let expected = Self.inMemory(request, over: current)
      let fetched = Self.outcome { try context.fetch(request).map(\.objectID) }
      #expect(
        fetched == expected, "\(index): \(request.predicate?.description ?? "-") sorted by \(request.sortDescriptors)")
      if case .ids(let ids) = expected {
        #expect((try? context.count(for: request)) == ids.count, "\(index): count")
        #expect(Self.outcome { try context.fetchObjectIDs(request) } == expected, "\(index): IDs")
      }
    }
  }
}
