import Foundation
import Persistence

/// The predicate parser and both evaluators: any text parses or is a syntax error; a predicate
/// that parses selects the same objects of a small store through SQL and in memory, or both
/// refuse it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPredicate(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let format = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let predicate = try? FetchPredicate(format: format) else { return 0 }
  _ = predicate.description
  let store = FuzzStore.shared
  var request = FetchRequest<ManagedObject>(entityName: "Task")
  request.predicate = predicate
  let viaSQL = Result { Set(try store.context.fetchObjectIDs(request)) }
  let inMemory = Result { Set(try store.objects.filter { try predicate.evaluate(with: $0) }.map(\.objectID)) }
  switch (viaSQL, inMemory) {
  case (.success(let sql), .success(let memory)):
    if sql != memory {
      fatalError(
        "SQL and in-memory evaluation disagree on \(format.debugDescription): SQL \(sql.count) objects, in memory \(memory.count)"
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

/// An in-memory Tasks store with a few objects of varied values, made once per process.
final class FuzzStore: @unchecked Sendable {
  static let shared = FuzzStore()
  let context: ObjectContext
  let objects: [ManagedObject]

  init() {
    let modelPath = ProcessInfo.processInfo.environment["MODELC_FUZZ_MODEL"] ?? "Models/Tasks.xcdatamodeld"
    do {
      let bundle = try ModelBundle(contentsOf: modelPath)
      let container = try PersistentContainer(bundle: bundle, options: .inMemory)
      let writer = container.newContext()
      let titles = ["Buy milk", "café ✓", "", "ÉCOLE", "a%b_c", "line\nbreak", "Zürich", "42"]
      for (index, title) in titles.enumerated() {
        let task = try writer.insert(entityNamed: "Task")
        try task.setValue(.uuid(UUID()), forKey: "id")
        try task.setValue(.string(title.isEmpty ? "x" : title), forKey: "title")
        try task.setValue(.integer(Int64(index % 3 + 1)), forKey: "priority")
        try task.setValue(.boolean(index % 2 == 0), forKey: "isCompleted")
        try task.setValue(
          index % 3 == 0 ? nil : .date(Date(timeIntervalSince1970: Double(index) * 86_400)), forKey: "dueDate")
        try task.setValue(index % 4 == 0 ? nil : .string("note \(index) \(title)"), forKey: "notes")
      }
      try writer.save()
      context = container.newContext()
      objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Task"))
    } catch {
      fatalError("the fuzz store cannot be made (run from the package root, or set MODELC_FUZZ_MODEL): \(error)")
    }
  }
}
