import Foundation
import Migration
import Persistence

/// The policy of `heavyweight-policy`: per-object work of the kind an app's
/// `NSEntityMigrationPolicy` does, on the Task mapping of `Tasks 2` → `Tasks 3`.
///
/// * Stage 1 (the base class, through the mapping's expressions): the Task's attributes, its
///   `dueDate` from `FUNCTION($entityPolicy, "dueDateFor:completed:", $source.dueDate, $source.isCompleted)`:
///   a completed task without a due date gets the time of the migration, as `Tasks 4`'s
///   `completedAt` will.
/// * Stage 2: each paragraph of the source task's notes (text separated by a blank line)
///   becomes a `Tag` named by it, linked to the task, in order; the notes are not carried over
///   (the mapping leaves them unmapped).
final class NotesToTagsPolicy: EntityMigrationPolicy {
  override func createRelationships(
    forDestination destination: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
  ) throws {
    try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    let sources = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [destination])
    guard case .string(let notes)? = try sources.first?.value(forKey: "notes") else { return }
    for paragraph in notes.components(separatedBy: "\n\n") {
      let text = paragraph.trimmingCharacters(in: .whitespacesAndNewlines)
      guard !text.isEmpty else { continue }
      let tag = try manager.destinationContext.insert(entityNamed: "Tag")
      try tag.setValue(.string(text), forKey: "name")
      try destination.addObject(tag, forKey: "tags")
    }
  }

  override func evaluateFunction(named name: String, arguments: [MigrationValue], manager: MigrationManager) throws
    -> MigrationValue
  {
    guard name == "dueDateFor:completed:", arguments.count == 2 else {
      return try super.evaluateFunction(named: name, arguments: arguments, manager: manager)
    }
    if !arguments[0].isNull { return arguments[0] }
    return arguments[1].bool == true ? .attribute(.date(manager.migrationDate)) : .null
  }
}
