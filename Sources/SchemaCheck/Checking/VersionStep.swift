import DataModel

/// Two consecutive versions of a model in migration order: what a store crosses when it migrates.
public struct VersionStep: Sendable, Hashable {
  /// The model bundle's path, as found or given.
  public var modelPath: String
  /// The older version.
  public var source: ModelVersion
  /// The newer version.
  public var destination: ModelVersion

  public init(modelPath: String, source: ModelVersion, destination: ModelVersion) {
    self.modelPath = modelPath
    self.source = source
    self.destination = destination
  }

  /// `'Tasks 2' → 'Tasks 3'`.
  public var title: String { "'\(source.name)' → '\(destination.name)'" }
}
