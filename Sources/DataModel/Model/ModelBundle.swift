import Foundation

/// A versioned data model: an `.xcdatamodeld` bundle (or a lone `.xcdatamodel`), with its
/// versions in migration order and the current one.
public struct ModelBundle: Sendable, Hashable, Codable {
  /// How the migration order of the versions was decided.
  public enum VersionOrderSource: String, Sendable, Hashable, Codable {
    /// Natural order of the names (runs of digits compared as numbers), the version named like
    /// the bundle first.
    case natural
    /// The order listed in the bundle's `.modelc-versions` file.
    case orderFile
  }

  /// The bundle's name, without extension (`Tasks` for `Tasks.xcdatamodeld`).
  public var name: String
  /// The path the bundle was read from, when read from disk.
  public var path: String?
  /// The versions, oldest first: the order migrations step through.
  public var versions: [ModelVersion]
  /// The index into ``versions`` of the current version.
  public var currentVersionIndex: Int
  /// How ``versions`` was ordered.
  public var versionOrderSource: VersionOrderSource

  public init(
    name: String, versions: [ModelVersion], currentVersionIndex: Int? = nil, path: String? = nil,
    versionOrderSource: VersionOrderSource = .natural
  ) {
    precondition(!versions.isEmpty, "a model bundle has at least one version")
    self.name = name
    self.path = path
    self.versions = versions
    self.currentVersionIndex = currentVersionIndex ?? (versions.count - 1)
    self.versionOrderSource = versionOrderSource
  }

  /// The current version: the one `.xccurrentversion` names.
  public var currentVersion: ModelVersion { versions[currentVersionIndex] }

  /// The version with this name (with or without the `.xcdatamodel` extension).
  public func version(named name: String) -> ModelVersion? {
    index(ofVersionNamed: name).map { versions[$0] }
  }

  /// The position in ``versions`` of the version with this name.
  public func index(ofVersionNamed name: String) -> Int? {
    let bare = name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    return versions.firstIndex { $0.name == bare }
  }
}
