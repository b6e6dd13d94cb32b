/// A fetched property (`<fetchedProperty>`): a property whose value is the result of a fetch
/// request, evaluated lazily and never stored.
public struct FetchedPropertyDescription: Sendable, Hashable, Codable {
  /// The property's name.
  public var name: String
  /// Whether the property is optional.
  public var isOptional: Bool
  /// The fetch request that produces the value.
  public var fetchRequest: FetchRequestTemplate?
  /// The legacy `syncable` flag, when written.
  public var isSyncable: Bool?
  /// The property's userInfo.
  public var userInfo: UserInfo
  /// Attributes of the XML element this reader does not know.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements this reader does not know. Unknown markup inside `<userInfo>` is
  /// kept under a copy of its container element (holding only what was not understood).
  public var unknownElements: [UnknownElement]
  /// Where the property is defined.
  public var location: SourceLocation?

  public init(name: String, isOptional: Bool = true, fetchRequest: FetchRequestTemplate? = nil) {
    self.name = name
    self.isOptional = isOptional
    self.fetchRequest = fetchRequest
    self.userInfo = UserInfo()
    self.unknownAttributes = []
    self.unknownElements = []
  }
}
