import DataModel
import Foundation

/// Which version of a model bundle one side of a mapping model maps, and how that was found.
public struct VersionMatch: Sendable, Hashable, Codable {
  /// How a side was matched to a version.
  public enum Method: String, Sendable, Hashable, Codable {
    /// The entity version hashes of the mapping's snapshot (or, for a compiled mapping, the
    /// hashes it records) equal the version's: what Core Data itself compares.
    case hashes
    /// The snapshot could not be read, and the last component of the model path recorded in
    /// the mapping names the version: weaker, and said so.
    case path
  }

  /// An entity whose hash differs between the mapping and the closest version.
  public struct Difference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// How the entity differs.
    public enum Kind: String, Sendable, Hashable, Codable {
      /// The entity is in both, with different hashes: edited after the mapping was made.
      case changed
      /// The mapping knows the entity; the version does not have it.
      case missingFromVersion
      /// The version has the entity; the mapping does not know it.
      case missingFromMapping
    }

    public var entity: String
    public var kind: Kind

    public init(entity: String, kind: Kind) {
      self.entity = entity
      self.kind = kind
    }

    public var description: String {
      switch kind {
      case .changed: "\(entity) (changed since the mapping was made)"
      case .missingFromVersion: "\(entity) (in the mapping, not in the version)"
      case .missingFromMapping: "\(entity) (in the version, not in the mapping)"
      }
    }
  }

  /// The matched version's name; nil when no version matches (the side is orphaned).
  public var version: String?
  /// How it was matched; nil when it was not.
  public var method: Method?
  /// When nothing matched, the version sharing the most entity hashes with the mapping.
  public var closestVersion: String?
  /// When nothing matched, how the mapping differs from ``closestVersion``.
  public var differences: [Difference]
  /// Why the stronger method could not be used, when it could not.
  public var note: String?

  public init(
    version: String?, method: Method?, closestVersion: String? = nil, differences: [Difference] = [],
    note: String? = nil
  ) {
    self.version = version
    self.method = method
    self.closestVersion = closestVersion
    self.differences = differences
    self.note = note
  }

  /// Matches entity hashes against a bundle's versions.
  ///
  /// - Parameters:
  ///   - hashes: the hashes the mapping knows, by entity name.
  ///   - complete: whether `hashes` covers every entity of its version (a snapshot's do; a
  ///     compiled mapping records only the entities it maps).
  ///   - versions: the bundle's versions with their hashes, in migration order.
  ///   - preferredName: the version the mapping's recorded path names, preferred among equals.
  static func byHashes(
    _ hashes: [String: Data], complete: Bool, versions: [(name: String, hashes: [String: Data])],
    preferredName: String?
  ) -> VersionMatch {
    func matches(_ candidate: [String: Data]) -> Bool {
      if complete { return candidate == hashes }
      return !hashes.isEmpty && hashes.allSatisfy { candidate[$0.key] == $0.value }
    }
    let found = versions.filter { matches($0.hashes) }
    if !found.isEmpty {
      let exact = found.filter { Set($0.hashes.keys) == Set(hashes.keys) }
      let pool = exact.isEmpty ? found : exact
      let chosen = pool.first { $0.name == preferredName } ?? pool[0]
      return VersionMatch(version: chosen.name, method: .hashes)
    }
    // The closest version: most equal hashes, then fewest differences, then the named one.
    func score(_ candidate: [String: Data]) -> (Int, Int) {
      let equal = hashes.filter { candidate[$0.key] == $0.value }.count
      let differing = Set(hashes.keys).symmetricDifference(candidate.keys).count
      return (equal, -differing)
    }
    guard
      let closest = versions.max(by: { lhs, rhs in
        let (left, right) = (score(lhs.hashes), score(rhs.hashes))
        if left != right { return left < right }
        return lhs.name != preferredName && rhs.name == preferredName
      })
    else { return VersionMatch(version: nil, method: nil) }
    var differences: [Difference] = []
    for name in Set(hashes.keys).union(complete ? Set(closest.hashes.keys) : []).sorted() {
      switch (hashes[name], closest.hashes[name]) {
      case (let mine?, let theirs?) where mine != theirs: differences.append(Difference(entity: name, kind: .changed))
      case (_?, nil): differences.append(Difference(entity: name, kind: .missingFromVersion))
      case (nil, _?): differences.append(Difference(entity: name, kind: .missingFromMapping))
      default: break
      }
    }
    return VersionMatch(version: nil, method: nil, closestVersion: closest.name, differences: differences)
  }
}
