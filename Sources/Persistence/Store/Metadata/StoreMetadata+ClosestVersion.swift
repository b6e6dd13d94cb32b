import Foundation

/// The model version nearest to a store that matches none, for telling the user how far apart
/// they are.
extension StoreMetadata {
  /// How the store's entity hashes differ from one model version's.
  public struct VersionDistance: Sendable, Hashable {
    /// The version compared with.
    public var versionName: String
    /// Entities of both whose version hashes differ, sorted.
    public var changedEntities: [String]
    /// Entities the store has and the version lacks, sorted.
    public var entitiesOnlyInStore: [String]
    /// Entities the version has and the store lacks, sorted.
    public var entitiesOnlyInVersion: [String]

    /// The number of entities that differ.
    public var count: Int { changedEntities.count + entitiesOnlyInStore.count + entitiesOnlyInVersion.count }

    /// One phrase per kind of difference, e.g. `entities whose hashes differ: Task, Tag`.
    public var summary: [String] {
      var lines: [String] = []
      if !changedEntities.isEmpty {
        lines.append("entities whose version hashes differ: \(changedEntities.joined(separator: ", "))")
      }
      if !entitiesOnlyInStore.isEmpty {
        lines.append(
          "entities in the store but not in '\(versionName)': \(entitiesOnlyInStore.joined(separator: ", "))")
      }
      if !entitiesOnlyInVersion.isEmpty {
        lines.append(
          "entities in '\(versionName)' but not in the store: \(entitiesOnlyInVersion.joined(separator: ", "))")
      }
      return lines
    }
  }

  /// How the store's hashes differ from `version`'s.
  public func distance(to version: ModelVersion) -> VersionDistance {
    let stored = entityHashes
    let expected = version.versionHashes.entityHashes
    return VersionDistance(
      versionName: version.name,
      changedEntities: stored.keys.filter { expected[$0] != nil && expected[$0] != stored[$0] }.sorted(),
      entitiesOnlyInStore: stored.keys.filter { expected[$0] == nil }.sorted(),
      entitiesOnlyInVersion: expected.keys.filter { stored[$0] == nil }.sorted())
  }

  /// The version of the bundle with the fewest differing entities (the latest of equally close
  /// ones), and how it differs; nil for a bundle without versions.
  public func closestVersion(in bundle: ModelBundle) -> VersionDistance? {
    var best: VersionDistance?
    for version in bundle.versions {
      let distance = distance(to: version)
      if best == nil || distance.count <= best!.count { best = distance }
    }
    return best
  }
}
