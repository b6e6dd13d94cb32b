import Foundation
import Migration
import Persistence

/// The migration policy of the task list's Tasks 3 → Tasks 4 step
/// (`Migrations/Tasks3ToTasks4.xcmappingmodel`, entity mapping `TaskToTask`), for what the
/// mapping's expressions cannot say:
///
/// - `completedAt` is `FUNCTION($entityPolicy, "completionDateForCompleted:", $source.isCompleted)`
///   in the mapping: a task done before the migration gets the time of the migration (Tasks 3
///   did not record when), one not done gets none.
/// - The old `notes` text becomes `Note` objects: each paragraph (text separated by blank
///   lines), trimmed, in order, dated at the migration, in the task's ordered `notes`.
public final class TaskMigrationPolicy: EntityMigrationPolicy {
  /// The policies the task list's mapping models name, for a `StoreMigration` or a migrating
  /// store's options.
  public static var policies: MigrationPolicies {
    var policies = MigrationPolicies()
    policies.register(TaskMigrationPolicy.self)
    return policies
  }

  override public func evaluateFunction(named name: String, arguments: [MigrationValue], manager: MigrationManager)
    throws -> MigrationValue
  {
    guard name == "completionDateForCompleted:" else {
      return try super.evaluateFunction(named: name, arguments: arguments, manager: manager)
    }
    return arguments.first?.bool == true ? .attribute(.date(manager.migrationDate)) : .null
  }

  override public func createRelationships(
    forDestination destination: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
  ) throws {
    try super.createRelationships(forDestination: destination, in: mapping, manager: manager)
    let sources = try manager.sourceInstances(forEntityMappingName: mapping.name, destinationInstances: [destination])
    guard case .string(let text)? = try sources.first?.value(forKey: "notes") else { return }
    for paragraph in Self.paragraphs(of: text) {
      let note = try manager.destinationContext.insert(entityNamed: "Note")
      try note.setValue(.string(paragraph), forKey: "text")
      try note.setValue(.date(manager.migrationDate), forKey: "createdAt")
      try destination.addObject(note, forKey: "notes")
    }
  }

  /// The paragraphs of a text: the parts between blank lines (lines of only spaces count as
  /// blank), trimmed, empty ones dropped.
  static func paragraphs(of text: String) -> [String] {
    var paragraphs: [String] = []
    var current: [Substring] = []
    func flush() {
      let paragraph = current.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
      if !paragraph.isEmpty { paragraphs.append(paragraph) }
      current.removeAll()
    }
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      if line.allSatisfy(\.isWhitespace) {
        flush()
      } else {
        current.append(line)
      }
    }
    flush()
    return paragraphs
  }
}
