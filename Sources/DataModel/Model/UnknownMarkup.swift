/// An XML attribute the reader does not know, kept verbatim so that a newer Xcode's additions
/// survive a round trip and show up in dumps.
public struct UnknownAttribute: Sendable, Hashable, Codable {
  public var name: String
  public var value: String

  public init(name: String, value: String) {
    self.name = name
    self.value = value
  }
}

/// An XML element the reader does not know, kept with its attributes and children.
public struct UnknownElement: Sendable, Hashable, Codable {
  public var name: String
  public var attributes: [UnknownAttribute]
  public var children: [UnknownElement]
  public var text: String

  public init(name: String, attributes: [UnknownAttribute] = [], children: [UnknownElement] = [], text: String = "") {
    self.name = name
    self.attributes = attributes
    self.children = children
    self.text = text
  }
}
