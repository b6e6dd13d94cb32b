/// What `modelc check` was asked to check.
public struct SchemaCheckRequest: Sendable {
  /// Model bundles, or folders to search for them; empty means the current directory.
  public var paths: [String]
  /// The git ref whose versions count as released (`--against`).
  public var against: String?
  /// Stores whose data is checked (`--store`).
  public var stores: [String]
  /// Where mapping models come from (`--mappings`).
  public var mappings: any MappingModelProvider
  /// Severities and ignores (`.modelc.json`).
  public var configuration: CheckConfiguration

  public init(
    paths: [String] = [], against: String? = nil, stores: [String] = [],
    mappings: any MappingModelProvider = CatalogMappingModels(),
    configuration: CheckConfiguration = CheckConfiguration()
  ) {
    self.paths = paths
    self.against = against
    self.stores = stores
    self.mappings = mappings
    self.configuration = configuration
  }
}
