/// A composite attribute type (`<composite>`, iOS 17 and later): a named group of attributes
/// that an attribute of type `Composite` holds as one value.
public struct CompositeDescription: Sendable, Hashable, Codable {
  /// The composite's name, referred to by attributes' `composite`.
  public var name: String
  /// The member attributes; a member may itself be a Composite.
  public var attributes: [AttributeDescription]
  /// Attributes of the XML element this reader does not know.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements this reader does not know.
  public var unknownElements: [UnknownElement]
  /// Where the composite is defined.
  public var location: SourceLocation?

  public init(name: String, attributes: [AttributeDescription] = [], location: SourceLocation? = nil) {
    self.name = name
    self.attributes = attributes
    self.unknownAttributes = []
    self.unknownElements = []
    self.location = location
  }
}
