import DataModel
import Foundation
import Persistence

/// The steps that bring a store from its version to the target version.
public struct MigrationPlan: Sendable {
  /// One step: a mapping model between two versions.
  public struct Step: Sendable {
    /// The version the step starts from.
    public var source: ModelVersion
    /// The version the step ends at.
    public var destination: ModelVersion
    /// What the step does.
    public var mapping: MappingModel
  }

  /// The store's version.
  public var source: ModelVersion
  /// The target version.
  public var destination: ModelVersion
  /// The steps, in order; empty when the store is already at the target.
  public var steps: [Step]

  /// Whether there is nothing to do.
  public var isEmpty: Bool { steps.isEmpty }
}

/// A migration that cannot be planned: no step sequence exists, or the target is older.
public struct MigrationPlanningError: Error, Sendable, CustomStringConvertible {
  /// What prevents the migration.
  public var message: String
  /// Refusals of lightweight inference, when that is why.
  public var refusals: [InferenceError]

  public init(message: String, refusals: [InferenceError] = []) {
    self.message = message
    self.refusals = refusals
  }

  public var description: String {
    ([message] + refusals.map(\.description)).joined(separator: "\n")
  }
}

/// Chooses the steps of a migration, as Core Data would plus what it leaves to apps:
/// straight from the store's version to the target when lightweight migration can infer that,
/// as Core Data does; otherwise through every intermediate version of the bundle, each step
/// inferred on its own.
///
/// With mapping models, a step a mapping model covers runs through it (Core Data also prefers
/// a mapping model it finds over inference): the plan walks the versions from the store's to
/// the target, taking at each version the mapping model that starts there and goes furthest
/// (not past the target), and inferring the step to the next version where none starts.
public enum MigrationPlanner {
  /// The steps from `source` to `destination`, through `mappingModels` where they start and
  /// inference elsewhere; a mapping model made for exactly this pair runs alone (also back to
  /// an older version).
  ///
  /// ```swift
  /// let plan = try MigrationPlanner.plan(
  ///   bundle: bundle, from: bundle.version(named: "Tasks 3")!, to: bundle.currentVersion,
  ///   mappingModels: [try MappingModelLoader.load(contentsOf: mappingURL, bundle: bundle).mapping])
  /// ```
  ///
  /// - Throws: ``MigrationPlanningError`` (typed) when a step neither a mapping model nor
  ///   inference covers remains (with inference's ``MigrationPlanningError/refusals``, and the
  ///   versions the mapping models given do map), or `source` comes after `destination`.
  public static func plan(
    bundle: ModelBundle, from source: ModelVersion, to destination: ModelVersion, mappingModels: [MappingModel]
  ) throws(MigrationPlanningError) -> MigrationPlan {
    if source.versionHashes.entityHashes == destination.versionHashes.entityHashes || mappingModels.isEmpty {
      return try plan(bundle: bundle, from: source, to: destination)
    }
    // A mapping model made for exactly this pair runs alone, whatever the versions' order: a
    // mapping back to an older version is how an app downgrades a store on purpose.
    if let direct = mappingModels.first(where: {
      !$0.sourceEntityHashes.isEmpty && $0.sourceEntityHashes == source.versionHashes.entityHashes
        && $0.destinationEntityHashes == destination.versionHashes.entityHashes
    }) {
      return MigrationPlan(
        source: source, destination: destination,
        steps: [MigrationPlan.Step(source: source, destination: destination, mapping: direct)])
    }
    guard let start = bundle.index(ofVersionNamed: source.name),
      let end = bundle.index(ofVersionNamed: destination.name)
    else {
      return try plan(bundle: bundle, from: source, to: destination)
    }
    func matches(_ hashes: [String: Data], _ version: ModelVersion) -> Bool {
      !hashes.isEmpty && hashes == version.versionHashes.entityHashes
    }
    // The mapping models that start at each version of the range, with where they end.
    var mapped: [Int: (end: Int, mapping: MappingModel)] = [:]
    for mapping in mappingModels {
      for from in start..<max(start, end) where matches(mapping.sourceEntityHashes, bundle.versions[from]) {
        for to in (from + 1)...end where matches(mapping.destinationEntityHashes, bundle.versions[to]) {
          if (mapped[from]?.end ?? -1) < to { mapped[from] = (to, mapping) }
        }
      }
    }
    guard !mapped.isEmpty else {
      do {
        return try plan(bundle: bundle, from: source, to: destination)
      } catch {
        // Say why the mapping models given did not help: they map other versions.
        let given = mappingModels.map { mapping in
          let from = bundle.versions.first { $0.versionHashes.entityHashes == mapping.sourceEntityHashes }?.name
          let to = bundle.versions.first { $0.versionHashes.entityHashes == mapping.destinationEntityHashes }?.name
          return "'\(from ?? "a version not in the bundle")' → '\(to ?? "a version not in the bundle")'"
        }
        throw MigrationPlanningError(
          message: error.message
            + "; the mapping models given map \(given.joined(separator: ", ")), no step of this migration",
          refusals: error.refusals)
      }
    }
    var steps: [MigrationPlan.Step] = []
    var refusals: [InferenceError] = []
    var index = start
    while index < end {
      if let (to, mapping) = mapped[index] {
        steps.append(
          MigrationPlan.Step(source: bundle.versions[index], destination: bundle.versions[to], mapping: mapping))
        index = to
        continue
      }
      // Inferred steps up to the next mapped one: directly when inference can, else one by one.
      var next = index + 1
      while next < end && mapped[next] == nil { next += 1 }
      do {
        let part = try plan(bundle: bundle, from: bundle.versions[index], to: bundle.versions[next])
        steps += part.steps
      } catch {
        refusals += error.refusals
      }
      index = next
    }
    guard refusals.isEmpty else {
      throw MigrationPlanningError(
        message:
          "no migration leads from '\(source.name)' to '\(destination.name)': the mapping models given do not cover the steps inference refuses",
        refusals: refusals)
    }
    return MigrationPlan(source: source, destination: destination, steps: steps)
  }

  /// The inferred steps from `source` to `destination`: one step when lightweight inference
  /// can go straight there, else one per version in between.
  ///
  /// ```swift
  /// let plan = try MigrationPlanner.plan(bundle: bundle, from: bundle.versions[0], to: bundle.currentVersion)
  /// ```
  ///
  /// - Throws: ``MigrationPlanningError`` (typed) when `source` comes after `destination` in the
  ///   bundle's order, or inference refuses a step (its ``MigrationPlanningError/refusals`` name
  ///   each change it cannot infer, with the entity and property).
  public static func plan(bundle: ModelBundle, from source: ModelVersion, to destination: ModelVersion)
    throws(MigrationPlanningError) -> MigrationPlan
  {
    if source.versionHashes.entityHashes == destination.versionHashes.entityHashes {
      return MigrationPlan(source: source, destination: destination, steps: [])
    }
    if let start = bundle.index(ofVersionNamed: source.name), let end = bundle.index(ofVersionNamed: destination.name),
      start > end
    {
      throw MigrationPlanningError(
        message:
          "the store is at '\(source.name)', which comes after '\(destination.name)' in the bundle's version order; modelc does not migrate stores backwards (a newer app wrote it)"
      )
    }
    let direct: InferenceError
    do {
      let mapping = try LightweightInference.mappingModel(from: source, to: destination)
      return MigrationPlan(
        source: source, destination: destination,
        steps: [MigrationPlan.Step(source: source, destination: destination, mapping: mapping)])
    } catch {
      direct = error
    }
    guard let start = bundle.index(ofVersionNamed: source.name),
      let end = bundle.index(ofVersionNamed: destination.name)
    else {
      throw MigrationPlanningError(message: "the versions are not both in the bundle", refusals: [direct])
    }
    guard start < end else {
      throw MigrationPlanningError(
        message:
          "the store is at '\(source.name)', which comes after '\(destination.name)' in the bundle's version order; modelc does not migrate stores backwards",
        refusals: [direct])
    }
    var steps: [MigrationPlan.Step] = []
    var stepRefusals: [InferenceError] = []
    for index in start..<end {
      let from = bundle.versions[index]
      let to = bundle.versions[index + 1]
      do {
        steps.append(
          MigrationPlan.Step(
            source: from, destination: to, mapping: try LightweightInference.mappingModel(from: from, to: to))
        )
      } catch {
        stepRefusals.append(error)
      }
    }
    guard stepRefusals.isEmpty else {
      throw MigrationPlanningError(
        message:
          "no lightweight migration leads from '\(source.name)' to '\(destination.name)': neither directly nor through the intermediate versions",
        refusals: stepRefusals)
    }
    return MigrationPlan(source: source, destination: destination, steps: steps)
  }
}
