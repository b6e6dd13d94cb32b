import DataModel
import Foundation
import Migration

/// The mapping models `modelc check` reads: every `.xcmappingmodel` and `.cdm` under the
/// `--mappings` folders (by default `Migrations/` and the model's folder), matched to each model's
/// versions by version hashes (``MappingCatalog``) and checked (``MappingChecker``).
///
/// A step is covered by the mapping whose two sides match its versions. Problems: a mapping
/// that does not read, or whose checker reports errors, is `mapping-invalid`; one whose sides
/// match no version of the model is `mapping-orphaned` — when it belongs to the model: one side
/// matches a version, or the closest version has an entity the mapping maps (a folder may hold
/// the mapping models of several models).
public final class CatalogMappingModels: MappingModelProvider, @unchecked Sendable {
  /// The `--mappings` folders; empty for the defaults.
  public let directories: [String]
  private let lock = NSLock()
  private var catalogs: [String: MappingCatalog] = [:]

  public init(directories: [String] = []) {
    self.directories = directories
  }

  /// The catalog of a model, read once.
  private func catalog(for bundle: ModelBundle, modelPath: String) -> MappingCatalog {
    lock.lock()
    if let known = catalogs[modelPath] {
      lock.unlock()
      return known
    }
    lock.unlock()
    let folders =
      directories.isEmpty
      ? MappingCatalog.defaultDirectories(forModelAt: modelPath) : directories.map { URL(fileURLWithPath: $0) }
    let catalog = MappingCatalog.discover(in: folders, bundle: bundle)
    lock.lock()
    catalogs[modelPath] = catalog
    lock.unlock()
    return catalog
  }

  public func mapping(
    from source: ModelVersion, to destination: ModelVersion, in bundle: ModelBundle, modelPath: String
  ) -> MappingModelReference? {
    guard let found = catalog(for: bundle, modelPath: modelPath).mapping(from: source.name, to: destination.name)
    else { return nil }
    return MappingModelReference(
      name: found.file.name,
      location: found.file.location ?? SourceLocation(file: found.file.path, line: 1, column: 1))
  }

  public func problems(in bundle: ModelBundle, modelPath: String) -> [MappingModelProblem] {
    let catalog = catalog(for: bundle, modelPath: modelPath)
    var problems: [MappingModelProblem] = []
    for error in catalog.problems {
      problems.append(
        MappingModelProblem(
          kind: .invalid, mappingName: URL(fileURLWithPath: error.diagnostic.location?.file ?? "?").lastPathComponent,
          message: error.diagnostic.message, help: error.diagnostic.notes.joined(separator: "; "),
          location: error.diagnostic.location))
    }
    for loaded in catalog.mappings {
      guard belongs(loaded, to: bundle) else { continue }
      for diagnostic in MappingChecker.check(loaded, bundle: bundle) where diagnostic.severity == .error {
        problems.append(
          MappingModelProblem(
            kind: diagnostic.code == "mapping-orphaned" ? .orphaned : .invalid, mappingName: loaded.file.name,
            message: diagnostic.message, help: diagnostic.notes.joined(separator: "; "), location: diagnostic.location,
            fromVersion: loaded.source.version ?? loaded.source.closestVersion,
            toVersion: loaded.destination.version ?? loaded.destination.closestVersion))
      }
    }
    return problems
  }

  /// Whether a mapping model was made for this model rather than for another one in the folder.
  private func belongs(_ loaded: LoadedMappingModel, to bundle: ModelBundle) -> Bool {
    if loaded.source.version != nil || loaded.destination.version != nil { return true }
    let closest = [loaded.source.closestVersion, loaded.destination.closestVersion].compactMap { $0 }
      .compactMap { bundle.version(named: $0) }
    let mapped = loaded.mapping.entityMappings.flatMap { [$0.sourceEntity, $0.destinationEntity] }.compactMap { $0 }
    return closest.contains { version in mapped.contains { version.entity(named: $0) != nil } }
  }
}
