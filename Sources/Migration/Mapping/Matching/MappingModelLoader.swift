import DataModel
import Foundation

/// A mapping model read from its file and matched to the versions of a model bundle.
public struct LoadedMappingModel: Sendable {
  /// The file as read.
  public var file: MappingModelSource
  /// Which version the mapping maps from.
  public var source: VersionMatch
  /// Which version the mapping maps to.
  public var destination: VersionMatch
  /// The mapping, with the mapping compiler's defaults applied.
  public var mapping: MappingModel

  /// Whether a side matches no version of the bundle: the mapping was made for versions that
  /// have since been edited, or for another model.
  public var isOrphaned: Bool { source.version == nil || destination.version == nil }
}

/// The entity version hashes of every version of a bundle, computed once for matching many
/// mapping models against it.
public struct BundleVersionHashes: Sendable {
  /// Each version's name and entity hashes, in the bundle's migration order.
  public let versions: [(name: String, hashes: [String: Data])]

  public init(_ bundle: ModelBundle) {
    versions = bundle.versions.map { (name: $0.name, hashes: $0.versionHashes.entityHashes) }
  }
}

/// Reads mapping models and matches them to a bundle's versions (see `docs/mappings.md`).
public enum MappingModelLoader {
  /// Reads a mapping model (an `.xcmappingmodel` bundle, its `xcmapping.xml`, or a `.cdm`) and
  /// matches both sides to versions of `bundle`.
  ///
  /// ```swift
  /// let loaded = try MappingModelLoader.load(
  ///   contentsOf: URL(fileURLWithPath: "Migrations/Tasks3ToTasks4.xcmappingmodel"), bundle: bundle)
  /// guard !loaded.isOrphaned else { fatalError("made for versions this bundle no longer has") }
  /// let report = try StoreMigration(storeURL: storeURL, bundle: bundle, mappingModels: [loaded.mapping]).run()
  /// ```
  ///
  /// - Throws: ``MappingReadError`` (typed) naming the file, and the line and column where it
  ///   can: no file at the path, a folder without `xcmapping.xml`, an unreadable file, malformed
  ///   XML or a damaged compiled mapping. An orphaned mapping is not an error here: see
  ///   ``LoadedMappingModel/isOrphaned``.
  public static func load(
    contentsOf url: URL, bundle: ModelBundle, hashes: BundleVersionHashes? = nil
  ) throws(MappingReadError) -> LoadedMappingModel {
    try load(MappingModelSource.read(contentsOf: url), bundle: bundle, hashes: hashes)
  }

  /// Matches a mapping model already read to the versions of `bundle`.
  public static func load(
    _ file: MappingModelSource, bundle: ModelBundle, hashes: BundleVersionHashes? = nil
  ) -> LoadedMappingModel {
    let versions = (hashes ?? BundleVersionHashes(bundle)).versions
    let sourceSnapshotHashes = file.source.snapshot?.versionHashes.entityHashes
    let destinationSnapshotHashes = file.destination.snapshot?.versionHashes.entityHashes
    let source = match(file.source, snapshotHashes: sourceSnapshotHashes, versions: versions)
    let destination = match(file.destination, snapshotHashes: destinationSnapshotHashes, versions: versions)
    let sourceModel = file.source.snapshot ?? source.version.flatMap { bundle.version(named: $0) }
    let destinationModel = file.destination.snapshot ?? destination.version.flatMap { bundle.version(named: $0) }
    /// The hashes a side is known by: recorded (compiled), the snapshot's, or the matched version's.
    func knownHashes(_ side: MappingModelSource.Side, _ snapshot: [String: Data]?, _ match: VersionMatch) -> [String:
      Data]
    {
      if !side.recordedEntityHashes.isEmpty { return side.recordedEntityHashes }
      if let snapshot { return snapshot }
      return versions.first { $0.name == match.version }?.hashes ?? [:]
    }
    let sourceHashes = knownHashes(file.source, sourceSnapshotHashes, source)
    let destinationHashes = knownHashes(file.destination, destinationSnapshotHashes, destination)
    let mappings = MappingDefaults.entityMappings(
      of: file, sourceModel: sourceModel, destinationModel: destinationModel, sourceHashes: sourceHashes,
      destinationHashes: destinationHashes)
    let mapping = MappingModel(
      sourceVersion: source.version ?? "", destinationVersion: destination.version ?? "",
      sourceEntityHashes: sourceHashes, destinationEntityHashes: destinationHashes, entityMappings: mappings,
      isInferred: false)
    return LoadedMappingModel(file: file, source: source, destination: destination, mapping: mapping)
  }

  static func match(
    _ side: MappingModelSource.Side, snapshotHashes: [String: Data]?, versions: [(name: String, hashes: [String: Data])]
  ) -> VersionMatch {
    let pathName = side.modelPath.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent }
    if !side.recordedEntityHashes.isEmpty {
      return VersionMatch.byHashes(side.recordedEntityHashes, complete: false, versions: versions, preferredName: nil)
    }
    if let snapshotHashes {
      return VersionMatch.byHashes(snapshotHashes, complete: true, versions: versions, preferredName: pathName)
    }
    let problem = side.snapshotProblem ?? "the mapping has no model snapshot"
    if let pathName, versions.contains(where: { $0.name == pathName }) {
      return VersionMatch(version: pathName, method: .path, note: problem)
    }
    return VersionMatch(version: nil, method: nil, note: problem)
  }
}

extension MappingModel {
  /// Reads a mapping model (an `.xcmappingmodel` bundle or a compiled `.cdm` file) and matches
  /// it to the versions of `model`.
  ///
  /// - Throws: ``MappingReadError`` when the file cannot be read, or when either side matches
  ///   no version of the bundle (the mapping is orphaned: its message names the closest version
  ///   and the entities that differ).
  public init(contentsOf url: URL, model: ModelBundle) throws {
    let loaded = try MappingModelLoader.load(contentsOf: url, bundle: model)
    if let problem = MappingOrphan.diagnostic(for: loaded, bundle: model) {
      throw MappingReadError(problem)
    }
    self = loaded.mapping
  }
}

/// The diagnostic of an orphaned mapping model.
enum MappingOrphan {
  static func diagnostic(for loaded: LoadedMappingModel, bundle: ModelBundle) -> Diagnostic? {
    for (label, side) in [("source", loaded.source), ("destination", loaded.destination)] where side.version == nil {
      var message = "mapping model '\(loaded.file.name)' is orphaned: its \(label) matches no version of \(bundle.name)"
      var notes: [String] = []
      if let closest = side.closestVersion {
        message +=
          "; the closest is '\(closest)', which differs in \(side.differences.map(\.description).joined(separator: ", "))"
        notes.append(
          "the model was edited after the mapping was made: recreate the mapping with `modelc mapping new`, or undo the edit (add a new model version for it instead)"
        )
      } else if let note = side.note {
        message += " (\(note))"
      }
      if notes.isEmpty {
        notes.append("check that the mapping belongs to this model, or pass the right one with --model")
      }
      return Diagnostic(
        .error, code: "mapping-orphaned", message: message,
        location: loaded.file.location ?? SourceLocation(file: loaded.file.path, line: 1, column: 1), notes: notes)
    }
    return nil
  }
}
