/// A named configuration (`<configuration>`): a subset of entities that one store holds.
/// The implicit `Default` configuration, holding every entity, is never written.
public struct ConfigurationDescription: Sendable, Hashable, Codable {
  /// The configuration's name.
  public var name: String
  /// Whether the configuration is mirrored to CloudKit.
  public var usedWithCloudKit: Bool
  /// The member entities' names, in file order.
  public var memberEntities: [String]
  /// Attributes of the XML element this reader does not know.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements this reader does not know, and `<memberEntity>` elements with attributes it
  /// does not know (kept whole).
  public var unknownElements: [UnknownElement]
  /// Where the configuration is defined.
  public var location: SourceLocation?

  public init(name: String, usedWithCloudKit: Bool = false, memberEntities: [String] = []) {
    self.name = name
    self.usedWithCloudKit = usedWithCloudKit
    self.memberEntities = memberEntities
    self.unknownAttributes = []
    self.unknownElements = []
  }
}
