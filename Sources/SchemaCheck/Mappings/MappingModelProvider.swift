import DataModel

/// Where `modelc check` learns which mapping models exist: the plug-in point for the
/// mapping-model reader.
///
/// The checker asks, for every step lightweight inference refuses, whether a mapping model
/// carries stores across it; a covered step gives no `step-not-inferable` finding. It also asks
/// for the problems of the mapping models themselves, which become `mapping-orphaned` and
/// `mapping-invalid` findings (see ``ModelChecker``). An implementation reads `.xcmappingmodel`
/// bundles (from the model's folder and the `--mappings` directories) and matches them to steps
/// by their source and destination entity hashes, as Core Data does.
public protocol MappingModelProvider: Sendable {
  /// The mapping model that migrates stores of `bundle` from `source` to `destination`, if any.
  func mapping(
    from source: ModelVersion, to destination: ModelVersion, in bundle: ModelBundle, modelPath: String
  ) -> MappingModelReference?

  /// What is wrong with the mapping models found for `bundle`: models whose hashes match no
  /// step (orphaned) and models that do not read or name what the versions lack (invalid).
  func problems(in bundle: ModelBundle, modelPath: String) -> [MappingModelProblem]
}

/// A mapping model that covers a step.
public struct MappingModelReference: Sendable, Hashable {
  /// The mapping model's name (`Tasks2ToTasks3`).
  public var name: String
  /// Where it is: its `xcmapping.xml`.
  public var location: SourceLocation?

  public init(name: String, location: SourceLocation?) {
    self.name = name
    self.location = location
  }
}

/// A problem with a mapping model, turned into a finding by the checker.
public struct MappingModelProblem: Sendable, Hashable {
  /// The kinds of problem, one per rule.
  public enum Kind: String, Sendable, Hashable {
    /// Its source or destination hashes match no version (`mapping-orphaned`).
    case orphaned
    /// It cannot be read, or names entities or properties that do not exist (`mapping-invalid`).
    case invalid
  }

  public var kind: Kind
  /// The mapping model's name.
  public var mappingName: String
  /// One line saying what is wrong.
  public var message: String
  /// How to fix it.
  public var help: String
  /// The element of `xcmapping.xml` concerned.
  public var location: SourceLocation?
  /// The step's versions, when known.
  public var fromVersion: String?
  public var toVersion: String?

  public init(
    kind: Kind, mappingName: String, message: String, help: String, location: SourceLocation?,
    fromVersion: String? = nil, toVersion: String? = nil
  ) {
    self.kind = kind
    self.mappingName = mappingName
    self.message = message
    self.help = help
    self.location = location
    self.fromVersion = fromVersion
    self.toVersion = toVersion
  }
}
