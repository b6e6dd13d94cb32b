import DataModel
import Foundation
import Migration
import TaskKit

/// A mapped step of the Tasks model that a heavyweight scenario runs: the two versions, the
/// mapping model (made in code as `modelc mapping new` starts one, then edited as a developer
/// edits it), the policy classes it names, and the store it starts from.
///
/// The scenarios take one of these, so that another step (the real `Tasks 3` → `Tasks 4`
/// with its policy from `TaskKit`, once it exists) is a new value here, not a new scenario.
struct HeavyweightStepSetup {
  /// The version the store starts at, and the one it is migrated to.
  var from: String
  var to: String
  /// The mapping model of the step.
  var mapping: MappingModel
  /// The policy classes the mapping names.
  var policies = MigrationPolicies()

  /// The migration of the store at `url` through this step's mapping.
  func migration(of url: URL, bundle: ModelBundle) -> StoreMigration {
    StoreMigration(storeURL: url, bundle: bundle, mappingModels: [mapping], policies: policies)
  }

  /// Runs the step on the store at `url` as a user's program runs it (default options: the
  /// original kept as a backup, by hard link).
  func run(on url: URL, bundle: ModelBundle) throws {
    guard let target = bundle.version(named: to) else { throw BenchmarkError("the model has no version '\(to)'") }
    try migration(of: url, bundle: bundle).run(to: target)
  }

  /// How each entity mapping runs on a store at `from` (which must exist at `url`), after
  /// checking that the plan is this one mapped step.
  func routes(on url: URL, bundle: ModelBundle) throws -> [EntityMappingRoute] {
    let migration = migration(of: url, bundle: bundle)
    let plan = try migration.plan(to: bundle.version(named: to))
    guard plan.steps.count == 1, !plan.steps[0].mapping.isInferred else {
      throw BenchmarkError(
        "the plan from '\(from)' to '\(to)' is not the one mapped step: \(plan.steps.map { "\($0.source.name) → \($0.destination.name)" })"
      )
    }
    return try migration.entityMappingRoutes(of: plan.steps[0])
  }

  /// The mapping `modelc mapping new` starts for the step, read back as the engine reads it
  /// (Xcode's defaults filled in: attributes of the same name read `$source.<name>`), then
  /// edited by `edit`.
  static func mapping(
    _ bundle: ModelBundle, from: String, to: String, edit: (inout [MappingModel.EntityMapping]) throws -> Void
  ) throws -> MappingModel {
    guard let source = bundle.version(named: from), let destination = bundle.version(named: to) else {
      throw BenchmarkError("the model has no version '\(from)' or '\(to)'")
    }
    let template = MappingTemplate.make(
      name: "\(from)To\(to)".replacingOccurrences(of: " ", with: ""), source: source, destination: destination,
      sourcePath: "\(from).xcdatamodel", destinationPath: "\(to).xcdatamodel")
    var mapping = MappingModelLoader.load(template, bundle: bundle).mapping
    try edit(&mapping.entityMappings)
    return mapping
  }
}

extension [MappingModel.EntityMapping] {
  /// Sets the value of a destination property of the entity mapping whose destination is
  /// `entity` (nil leaves it at its default).
  mutating func set(_ entity: String, _ property: String, _ format: String?) throws {
    guard let index = firstIndex(where: { $0.destinationEntity == entity }) else {
      throw BenchmarkError("the mapping has no entity mapping to \(entity)")
    }
    let value = try format.map { try MappingExpression(format: $0) }
    if let at = self[index].attributeMappings.firstIndex(where: { $0.destinationProperty == property }) {
      self[index].attributeMappings[at].value = value
    } else if let at = self[index].relationshipMappings.firstIndex(where: { $0.destinationProperty == property }) {
      self[index].relationshipMappings[at].value = value
    } else {
      throw BenchmarkError("the entity mapping to \(entity) has no property '\(property)'")
    }
  }
}

extension HeavyweightStepSetup {
  /// `Tasks 2` → `Tasks 3` by a copy/transform mapping that compiles to SQL: every Task
  /// attribute read from `$source` (the title trimmed of surrounding spaces, the one
  /// conversion), `Project` and `Tag` added empty. `Tasks 2` has no relationships, so no link
  /// or join table moves in this step.
  static func tasksSQL(_ bundle: ModelBundle) throws -> HeavyweightStepSetup {
    let mapping = try mapping(bundle, from: "Tasks 2", to: "Tasks 3") { mappings in
      try mappings.set("Task", "title", #"FUNCTION($source.title, "stringByTrimmingWhitespace")"#)
    }
    return HeavyweightStepSetup(from: "Tasks 2", to: "Tasks 3", mapping: mapping)
  }

  /// `Tasks 2` → `Tasks 3` with the Task mapping run object by object through
  /// ``NotesToTagsPolicy``: a date derived from a Boolean through a `$entityPolicy` function,
  /// and each paragraph of a task's notes made into a `Tag` linked to it (notes cleared).
  static func tasksPolicy(_ bundle: ModelBundle) throws -> HeavyweightStepSetup {
    let mapping = try mapping(bundle, from: "Tasks 2", to: "Tasks 3") { mappings in
      guard let index = mappings.firstIndex(where: { $0.destinationEntity == "Task" }) else {
        throw BenchmarkError("the mapping has no entity mapping to Task")
      }
      mappings[index].kind = .custom
      mappings[index].policyClassName = "ModelcBench.\(NotesToTagsPolicy.self)"
      try mappings.set(
        "Task", "dueDate", #"FUNCTION($entityPolicy, "dueDateFor:completed:", $source.dueDate, $source.isCompleted)"#)
      try mappings.set("Task", "notes", nil)
    }
    var policies = MigrationPolicies()
    policies.register(NotesToTagsPolicy.self)
    return HeavyweightStepSetup(from: "Tasks 2", to: "Tasks 3", mapping: mapping, policies: policies)
  }
}

/// A scenario that migrates a Tasks store through one ``HeavyweightStepSetup``: the store it
/// starts from and the migration the child process runs follow from the step.
protocol HeavyweightScenario: ChildMigrationScenario {
  /// The step the scenario runs.
  func step(_ stores: TaskStores) throws -> HeavyweightStepSetup
}

extension HeavyweightScenario {
  func sourceStore(rows: Int, _ configuration: BenchmarkConfiguration) throws -> URL {
    let stores = try TaskStores(configuration)
    return try stores.filledStoreWithNotes(rows, version: try step(stores).from)
  }

  func migrate(_ url: URL, _ configuration: BenchmarkConfiguration) throws {
    let stores = try TaskStores(configuration)
    try step(stores).run(on: url, bundle: stores.bundle)
  }
}

extension HeavyweightStepSetup {
  /// The task list's own `Tasks 3` → `Tasks 4` step: the mapping model of `Migrations/` as the
  /// build plugin embedded it in TaskKit, run with TaskKit's ``TaskMigrationPolicy`` (done
  /// tasks get the migration's time, each paragraph of the notes becomes an ordered `Note`).
  static func tasks3To4(_ bundle: ModelBundle) throws -> HeavyweightStepSetup {
    let embedded = try MappingModel.embedded(TasksModel.mappingModelFiles, model: bundle)
    guard let mapping = embedded.first(where: { $0.sourceVersion == "Tasks 3" && $0.destinationVersion == "Tasks 4" })
    else { throw BenchmarkError("TaskKit embeds no mapping model from 'Tasks 3' to 'Tasks 4'") }
    return HeavyweightStepSetup(
      from: "Tasks 3", to: "Tasks 4", mapping: mapping, policies: TaskMigrationPolicy.policies)
  }
}

extension TaskStores {
  /// A store at `version` with `count` tasks of ``TaskRow/make(_:)``, every other one with
  /// notes of two paragraphs that name it (so no two tasks share a paragraph), written with
  /// plain SQL and flushed to disk.
  func filledStoreWithNotes(_ count: Int, version: String) throws -> URL {
    let url = try filledStore(TaskRow.make(count), version: version)
    let raw = try RawSQLite(path: url.path)
    try raw.execute(
      "UPDATE ZTASK SET ZNOTES = 'Call about task ' || Z_PK || '.' || char(10) || char(10) || 'Write up task ' || Z_PK || '.' WHERE Z_PK % 2 = 0"
    )
    try raw.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    try Self.flush(url)
    return url
  }

  /// A copy of a store's files (main file, `-wal`, `-shm`) in the scratch folder, flushed to
  /// disk so that no timed `fsync` writes back the copy.
  func copy(of url: URL) throws -> URL {
    let destination = configuration.directory.appendingPathComponent("copy-\(UUID().uuidString).sqlite")
    for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: url.path + suffix) {
      try FileManager.default.copyItem(atPath: url.path + suffix, toPath: destination.path + suffix)
    }
    try Self.flush(destination)
    return destination
  }
}
