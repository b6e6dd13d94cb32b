import Foundation
import Persistence

/// The predicate parser and both evaluators: any text parses or is a syntax error; a predicate
/// that parses selects the same objects of a small store through SQL (a context with nothing
/// unsaved, whose fetch runs as SQL) and in memory (a context holding the same objects unsaved,
/// whose fetch evaluates them in memory), or both refuse it. Both go through the fetch's key-path
/// check against the model, as every fetch does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let format = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let predicate = try? FetchPredicate(format: format) else { return 0 }
  _ = predicate.description
  let store = FuzzStore.shared
  var request = FetchRequest<ManagedObject>(entityName: "Task")
  request.predicate = predicate
  let viaSQL = Result { try FuzzStore.titles(store.saved.fetch(request)) }
  let inMemory = Result { try FuzzStore.titles(store.unsaved.fetch(request)) }
  switch (viaSQL, inMemory) {
  case (.success(let sql), .success(let memory)):
    if sql != memory {
      fatalError(
        "SQL and in-memory evaluation disagree on \(format.debugDescription): SQL \(sql.sorted()), in memory \(memory.sorted())"
      )
    }
  case (.failure, .failure):
    break
  case (.success, .failure(let error)):
    fatalError("SQL answers \(format.debugDescription) but the in-memory evaluator refuses it: \(error)")
  case (.failure(let error), .success):
    fatalError("the in-memory evaluator answers \(format.debugDescription) but SQL refuses it: \(error)")
  }
  return 0
}

/// Two in-memory Tasks stores with the same few objects of varied values, made once per
/// process: saved in one, inserted and never saved in the other. They are at version 'Tasks 3',
/// whose attributes the objects and the seed predicates are written for.
final class FuzzStore: @unchecked Sendable {
  static let shared = FuzzStore()
  let saved: ObjectContext
  let unsaved: ObjectContext

  init() {
    let modelPath = ProcessInfo.processInfo.environment["MODELC_FUZZ_MODEL"] ?? "Models/Tasks.xcdatamodeld"
    do {
      let bundle = try ModelBundle(contentsOf: modelPath)
      let writer = try PersistentContainer(bundle: bundle, versionName: "Tasks 3", options: .inMemory).newContext()
      try Self.fill(writer)
      try writer.save()
      saved = writer
      unsaved = try PersistentContainer(bundle: bundle, versionName: "Tasks 3", options: .inMemory).newContext()
      try Self.fill(unsaved)
    } catch {
      fatalError("the fuzz store cannot be made (run from the package root, or set MODELC_FUZZ_MODEL): \(error)")
    }
  }

  /// Tasks with distinct titles and varied values, a project and tags.
  static func fill(_ context: ObjectContext) throws {
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("Home"), forKey: "name")
    var tags: [ManagedObject] = []
    for name in ["x", "urgent", "Café"] {
      let tag = try context.insert(entityNamed: "Tag")
      try tag.setValue(.string(name), forKey: "name")
      tags.append(tag)
    }
    let titles = ["Buy milk", "café ✓", "x", "ÉCOLE", "a%b_c", "line\nbreak", "Zürich", "42"]
    for (index, title) in titles.enumerated() {
      let task = try context.insert(entityNamed: "Task")
      try task.setValue(.uuid(UUID()), forKey: "id")
      try task.setValue(.string(title), forKey: "title")
      try task.setValue(.integer(Int64(index % 3 + 1)), forKey: "priority")
      try task.setValue(.boolean(index % 2 == 0), forKey: "isCompleted")
      try task.setValue(
        index % 3 == 0 ? nil : .date(Date(timeIntervalSince1970: Double(index) * 86_400)), forKey: "dueDate")
      try task.setValue(index % 4 == 0 ? nil : .string("note \(index) \(title)"), forKey: "notes")
      if index % 2 == 1 { try task.setObject(project, forKey: "project") }
      for (number, tag) in tags.enumerated() where (index + number) % 3 == 0 {
        try task.addObject(tag, forKey: "tags")
      }
    }
  }

  /// The titles of fetched tasks (unique in the fuzz store), to compare two stores' answers.
  static func titles(_ objects: [ManagedObject]) throws -> Set<String> {
    Set(try objects.map { "\(try $0.value(forKey: "title").map { "\($0)" } ?? "nil")" })
  }
}
