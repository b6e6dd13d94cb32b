import Foundation
import Migration
import Persistence

/// The task list's store migrator: migrates an older store through the mapping models embedded
/// at build time (Migrations/, with ``TaskMigrationPolicy``) for the steps they cover and
/// inference for the others, keeping a backup.
///
/// The embedded mapping models are read only when a store needs migrating: reading them (base64
/// text decoded, the mapping XML and the models' snapshots in it parsed) was about 30% of a
/// `task list` run's time, paid on every open of a store already at the current version.
struct TaskStoreMigrator: StoreMigrator {
  /// The mapping models, read when a migration runs.
  var mappingModels: @Sendable (ModelBundle) throws -> [MappingModel] = { bundle in
    try MappingModel.embedded(TasksModel.mappingModelFiles, model: bundle)
  }
  /// Called after a migration with one line saying from which version to which.
  var onMigration: (@Sendable (String) -> Void)?

  func migrateStore(at url: URL, from source: ModelVersion, to destination: ModelVersion, in bundle: ModelBundle)
    throws
  {
    let onMigration = onMigration
    let migrator = LightweightStoreMigrator(
      keepsBackup: true, mappingModels: try mappingModels(bundle), policies: TaskMigrationPolicy.policies
    ) { report in
      onMigration?(
        "task: migrated the store from model version '\(report.plan.source.name)' to '\(report.plan.destination.name)'"
      )
    }
    try migrator.migrateStore(at: url, from: source, to: destination, in: bundle)
  }
}
