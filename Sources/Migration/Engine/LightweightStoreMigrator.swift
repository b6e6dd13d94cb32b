import DataModel
import Foundation
import Persistence

/// The store migrator a `PersistentContainer` uses to migrate an older store when it opens
/// it: pass it in `StoreOptions.migrator`. It plans and runs a ``StoreMigration`` (keeping a
/// backup) and reports each migration through `onMigration`.
public struct LightweightStoreMigrator: StoreMigrator {
  /// Whether a backup is written before migrating.
  public var keepsBackup: Bool
  /// Mapping models for the steps inference cannot do (or that the app maps itself).
  public var mappingModels: [MappingModel]
  /// The migration policy classes the mapping models name.
  public var policies: MigrationPolicies
  /// Called after a migration, with its report (e.g. to tell the user one line).
  public var onMigration: (@Sendable (MigrationReport) -> Void)?

  public init(
    keepsBackup: Bool = true, mappingModels: [MappingModel] = [], policies: MigrationPolicies = MigrationPolicies(),
    onMigration: (@Sendable (MigrationReport) -> Void)? = nil
  ) {
    self.keepsBackup = keepsBackup
    self.mappingModels = mappingModels
    self.policies = policies
    self.onMigration = onMigration
  }

  /// Migrates the store at `url` from `source` to `destination` with a ``StoreMigration``,
  /// then calls ``onMigration`` with the report.
  ///
  /// - Throws: What ``StoreMigration/run(to:options:)`` throws; the store is left as it was.
  public func migrateStore(at url: URL, from source: ModelVersion, to destination: ModelVersion, in bundle: ModelBundle)
    throws
  {
    let report = try StoreMigration(storeURL: url, bundle: bundle, mappingModels: mappingModels, policies: policies)
      .run(
        to: destination, options: StoreMigration.Options(keepsBackup: keepsBackup))
    onMigration?(report)
  }
}

extension StoreOptions {
  /// A file store that is migrated to the container's model version when it is older.
  ///
  /// ```swift
  /// let container = try PersistentContainer(bundle: bundle, options: .migratingFile(storeURL))
  /// ```
  ///
  /// Opening the container then throws what ``StoreMigration/run(to:options:)`` throws when the
  /// migration fails (the store is left as it was), besides what opening throws.
  public static func migratingFile(_ url: URL, keepsBackup: Bool = true) -> StoreOptions {
    StoreOptions(location: .file(url), migrator: LightweightStoreMigrator(keepsBackup: keepsBackup))
  }

  /// A file store that is migrated to the container's model version when it is older, through
  /// `mappingModels` for the steps they cover (running the policies they name) and inference
  /// for the others.
  ///
  /// ```swift
  /// var policies = MigrationPolicies()
  /// policies.register(TaskMigrationPolicy.self, as: "TaskMigrationPolicy")
  /// let options = StoreOptions.migratingFile(
  ///   storeURL, mappingModels: try MappingModel.embedded(TasksModel.mappingModelFiles, model: TasksModel.bundle()),
  ///   policies: policies)
  /// ```
  public static func migratingFile(
    _ url: URL, mappingModels: [MappingModel], policies: MigrationPolicies = MigrationPolicies(),
    keepsBackup: Bool = true
  ) -> StoreOptions {
    StoreOptions(
      location: .file(url),
      migrator: LightweightStoreMigrator(keepsBackup: keepsBackup, mappingModels: mappingModels, policies: policies))
  }
}
