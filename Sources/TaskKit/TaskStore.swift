import Foundation
import Migration
import Persistence

/// Opening the task list's store: created on first use, migrated on open when an older version
/// of the model wrote it.
public enum TaskStore {
  /// A container for the store at `url`, creating folders and the store as needed. When the
  /// store is at an older model version it is migrated first (a backup is kept next to it),
  /// through the mapping models embedded at build time (Migrations/, with
  /// ``TaskMigrationPolicy``) for the steps they cover and inference for the others, and
  /// `onMigration` gets one line saying from which version to which. The mapping models are
  /// read only when the store needs migrating (``TaskStoreMigrator``).
  public static func open(at url: URL, onMigration: (@Sendable (String) -> Void)? = nil) throws -> PersistentContainer {
    do {
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      let migrator = TaskStoreMigrator(onMigration: onMigration)
      return try TasksModel.makeContainer(options: StoreOptions(location: .file(url), migrator: migrator))
    } catch {
      throw TaskError.store("cannot open the task store at \(url.path): \(error)")
    }
  }

  /// A container over a fresh in-memory store, for tests and previews.
  public static func inMemory() throws -> PersistentContainer {
    try TasksModel.makeContainer(options: .inMemory)
  }
}
