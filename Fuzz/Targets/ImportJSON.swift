import Foundation
import Persistence

/// `store import` JSON: any text is imported in full or refused with its problems, never a
/// crash; a refused import leaves the store as it was.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzImportJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let container = ImportContainer.shared.container
  let context = container.newContext()
  let before = (try? context.count(for: FetchRequest<ManagedObject>(entityName: "Task"))) ?? -1
  do {
    _ = try StoreImport.importJSON(text, into: context)
    // Keep the store small: remove what was imported.
    let cleanup = container.newContext()
    for entity in ["Task", "Tag", "Project"] {
      for object in (try? cleanup.fetch(FetchRequest<ManagedObject>(entityName: entity))) ?? [] {
        cleanup.delete(object)
      }
    }
    try? cleanup.save()
  } catch {
    let after = (try? container.newContext().count(for: FetchRequest<ManagedObject>(entityName: "Task"))) ?? -2
    if after != before { fatalError("a refused import changed the store: \(before) → \(after) tasks") }
  }
  return 0
}

/// An in-memory Tasks container, made once per process.
final class ImportContainer: @unchecked Sendable {
  static let shared = ImportContainer()
  let container: PersistentContainer

  init() {
    let modelPath = ProcessInfo.processInfo.environment["MODELC_FUZZ_MODEL"] ?? "Models/Tasks.xcdatamodeld"
    do {
      container = try PersistentContainer(bundle: try ModelBundle(contentsOf: modelPath), options: .inMemory)
    } catch {
      fatalError("the fuzz container cannot be made (run from the package root, or set MODELC_FUZZ_MODEL): \(error)")
    }
  }
}
