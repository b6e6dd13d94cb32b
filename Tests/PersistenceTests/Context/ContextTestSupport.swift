import Foundation
import Persistence
import TestSupport

/// Containers over the Tasks model and purpose-built models, for runtime tests.
enum ContextFixtures {
  /// The Tasks model with `Tasks 3` as its current version, whatever the model's current version
  /// is: the runtime tests are written against that version's entities.
  static let tasksBundle: ModelBundle = {
    do {
      var bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
      guard let index = bundle.index(ofVersionNamed: "Tasks 3") else {
        fatalError("the Tasks model has no version 'Tasks 3'")
      }
      bundle.currentVersionIndex = index
      return bundle
    } catch {
      fatalError("the Tasks model does not load: \(error)")
    }
  }()

  /// An in-memory container at `Tasks 3`.
  static func tasksContainer() throws -> PersistentContainer {
    try PersistentContainer(bundle: tasksBundle, options: .inMemory)
  }

  /// A model version from XML entities (wrapped in `<model>`).
  static func model(_ entities: String, name: String = "Test") -> ModelVersion {
    let xml = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
      \(entities)
      </model>
      """
    let (version, diagnostics) = ModelReader.readVersion(xml: xml, name: name)
    guard let version, !diagnostics.containsErrors else {
      fatalError("test model does not load: \(diagnostics)")
    }
    return version
  }

  /// A new task with the required values.
  @discardableResult
  static func insertTask(
    _ context: ObjectContext, title: String, priority: Int64 = 2, due: Date? = nil, notes: String? = nil
  ) throws -> ManagedObject {
    let task = try context.insert(entityNamed: "Task")
    try task.setValue(.uuid(UUID()), forKey: "id")
    try task.setValue(.string(title), forKey: "title")
    try task.setValue(.integer(priority), forKey: "priority")
    try task.setValue(due.map { .date($0) }, forKey: "dueDate")
    try task.setValue(notes.map { .string($0) }, forKey: "notes")
    return task
  }
}
