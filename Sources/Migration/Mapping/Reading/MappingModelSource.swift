import DataModel
import Foundation

/// A mapping model as its file states it, before defaults are applied and before it is matched
/// to the versions of a model bundle.
///
/// `XcodeMappingReader` (for `.xcmappingmodel` bundles) and `CompiledMappingReader` (for
/// `.cdm` files) produce it; ``MappingModelLoader`` matches it to a bundle and fills in what
/// Apple's mapping compiler fills in, giving a ``MappingModel``.
public struct MappingModelSource: Sendable {
  /// The file formats a mapping model comes in.
  public enum Format: String, Sendable, Hashable, Codable {
    /// Xcode's editable mapping model: a bundle holding `xcmapping.xml`.
    case xcmappingmodel
    /// A compiled mapping model: a keyed archive of `NSMappingModel`, as apps ship it.
    case cdm
  }

  /// One side of the mapping (source or destination) as the file describes it.
  public struct Side: Sendable {
    /// The `.xcdatamodel` path recorded when the mapping was made (often stale).
    public var modelPath: String?
    /// The model version rebuilt from the embedded snapshot, when there is one and it decodes.
    public var snapshot: ModelVersion?
    /// Why the snapshot could not be used, when there is one that does not decode.
    public var snapshotProblem: String?
    /// The entity version hashes a compiled mapping records, by entity name.
    public var recordedEntityHashes: [String: Data]

    public init(
      modelPath: String? = nil, snapshot: ModelVersion? = nil, snapshotProblem: String? = nil,
      recordedEntityHashes: [String: Data] = [:]
    ) {
      self.modelPath = modelPath
      self.snapshot = snapshot
      self.snapshotProblem = snapshotProblem
      self.recordedEntityHashes = recordedEntityHashes
    }
  }

  /// A property mapping as stored.
  public struct PropertyMappingSource: Sendable {
    /// The destination property.
    public var name: String
    /// The stored value expression; nil when the file stores none (a default applies).
    public var expression: MappingExpression?
    /// The source key path chosen in Xcode's relationship mapping inspector (`$source.country`).
    public var sourceKeyPath: String?
    /// The entity mapping chosen with ``sourceKeyPath``.
    public var sourceMappingName: String?
    /// Where the property mapping is written.
    public var location: SourceLocation?

    public init(
      name: String, expression: MappingExpression? = nil, sourceKeyPath: String? = nil,
      sourceMappingName: String? = nil, location: SourceLocation? = nil
    ) {
      self.name = name
      self.expression = expression
      self.sourceKeyPath = sourceKeyPath
      self.sourceMappingName = sourceMappingName
      self.location = location
    }
  }

  /// An entity mapping as stored.
  public struct EntityMappingSource: Sendable {
    /// The stored name; nil when the file leaves it to the default.
    public var name: String?
    /// The stored mapping type (compiled mappings); nil when the default applies.
    public var kind: MappingModel.EntityMapping.Kind?
    public var sourceEntity: String?
    public var destinationEntity: String?
    /// The order of the mapping (`mappingnumber`).
    public var number: Int
    public var policyClassName: String?
    public var sourceFilter: String?
    public var sourceExpression: MappingExpression?
    public var userInfo: [String: String]
    public var sourceEntityVersionHash: Data?
    public var destinationEntityVersionHash: Data?
    public var attributeMappings: [PropertyMappingSource]
    public var relationshipMappings: [PropertyMappingSource]
    /// Where the entity mapping is written.
    public var location: SourceLocation?

    public init(
      name: String? = nil, kind: MappingModel.EntityMapping.Kind? = nil, sourceEntity: String?,
      destinationEntity: String?, number: Int = 0, policyClassName: String? = nil, sourceFilter: String? = nil,
      sourceExpression: MappingExpression? = nil, userInfo: [String: String] = [:],
      sourceEntityVersionHash: Data? = nil, destinationEntityVersionHash: Data? = nil,
      attributeMappings: [PropertyMappingSource] = [], relationshipMappings: [PropertyMappingSource] = [],
      location: SourceLocation? = nil
    ) {
      self.name = name
      self.kind = kind
      self.sourceEntity = sourceEntity
      self.destinationEntity = destinationEntity
      self.number = number
      self.policyClassName = policyClassName
      self.sourceFilter = sourceFilter
      self.sourceExpression = sourceExpression
      self.userInfo = userInfo
      self.sourceEntityVersionHash = sourceEntityVersionHash
      self.destinationEntityVersionHash = destinationEntityVersionHash
      self.attributeMappings = attributeMappings
      self.relationshipMappings = relationshipMappings
      self.location = location
    }
  }

  /// The path of the file read (`…/xcmapping.xml` or the `.cdm`), as given.
  public var path: String
  /// The mapping's name: the bundle's or file's name without extension.
  public var name: String
  public var format: Format
  public var source: Side
  public var destination: Side
  /// The entity mappings reachable from the mapping model, in their order.
  public var entityMappings: [EntityMappingSource]
  /// Where the mapping model object is written (xcmapping.xml).
  public var location: SourceLocation?

  public init(
    path: String, name: String, format: Format, source: Side, destination: Side,
    entityMappings: [EntityMappingSource], location: SourceLocation? = nil
  ) {
    self.path = path
    self.name = name
    self.format = format
    self.source = source
    self.destination = destination
    self.entityMappings = entityMappings
    self.location = location
  }

  /// Reads a mapping model: an `.xcmappingmodel` bundle, its `xcmapping.xml`, or a compiled
  /// `.cdm` file.
  ///
  /// ```swift
  /// let source = try MappingModelSource.read(contentsOf: URL(fileURLWithPath: "Migrations/V1ToV2.cdm"))
  /// print(source.format, source.source.modelPath ?? "?", source.entityMappings.count)
  /// ```
  ///
  /// - Throws: ``MappingReadError`` (typed) naming the file (and line and column where it can)
  ///   when the path is missing, a folder without `xcmapping.xml`, unreadable, or the file is
  ///   damaged (malformed XML, a compiled mapping that is not a keyed archive of one).
  public static func read(contentsOf url: URL) throws(MappingReadError) -> MappingModelSource {
    var path = url.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw .at(
        SourceLocation(file: path, line: 1, column: 1), "missing-file", "no mapping model at '\(path)'",
        fix: "pass an .xcmappingmodel bundle, its xcmapping.xml, or a compiled .cdm file")
    }
    if isDirectory.boolValue {
      path = url.appendingPathComponent("xcmapping.xml").path
      guard FileManager.default.fileExists(atPath: path) else {
        throw .at(
          SourceLocation(file: url.path, line: 1, column: 1), "missing-file",
          "'\(url.path)' is a folder without an xcmapping.xml: not an Xcode mapping model",
          fix: "pass an .xcmappingmodel bundle, its xcmapping.xml, or a compiled .cdm file")
      }
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw .at(
        SourceLocation(file: path, line: 1, column: 1), "unreadable-file",
        "cannot read '\(path)': \(error.localizedDescription)")
    }
    return try read(data, path: path, name: Self.mappingName(of: url))
  }

  /// Reads a mapping model from its bytes: a compiled mapping when they are a binary property
  /// list, else `xcmapping.xml`.
  ///
  /// - Throws: ``MappingReadError`` naming `path` when the bytes are not a readable mapping model.
  package static func read(_ data: Data, path: String, name: String) throws(MappingReadError) -> MappingModelSource {
    if data.starts(with: Array("bplist00".utf8)) {
      return try CompiledMappingReader.read(data, path: path)
    }
    return try XcodeMappingReader.read([UInt8](data), path: path, name: name)
  }

  /// The mapping's name from its path: `V2ToV3` for `V2ToV3.xcmappingmodel/xcmapping.xml`.
  static func mappingName(of url: URL) -> String {
    var url = url
    if url.lastPathComponent == "xcmapping.xml" { url.deleteLastPathComponent() }
    return url.deletingPathExtension().lastPathComponent
  }
}
