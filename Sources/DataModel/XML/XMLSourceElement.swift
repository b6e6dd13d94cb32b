/// One element of an XML document, with the byte offsets of the element and of each attribute
/// so that diagnostics can point at the exact line and column they come from.
package struct XMLSourceElement: Sendable, Hashable {
  package var name: String
  package var attributes: [XMLSourceAttribute]
  package var children: [XMLSourceElement]
  /// Character data directly inside the element (entity references resolved), concatenated.
  package var text: String
  /// Byte offset of the `<` that opens the element.
  package var offset: Int

  package init(
    name: String, attributes: [XMLSourceAttribute] = [], children: [XMLSourceElement] = [], text: String = "",
    offset: Int = 0
  ) {
    self.name = name
    self.attributes = attributes
    self.children = children
    self.text = text
    self.offset = offset
  }

  /// The value of the attribute with this name, if present.
  package func attribute(_ name: String) -> String? {
    attribute(XMLName(name))
  }

  /// The attribute with this name, if present.
  package func sourceAttribute(_ name: String) -> XMLSourceAttribute? {
    sourceAttribute(XMLName(name))
  }

  /// The value of the attribute with this name, if present.
  package func attribute(_ name: XMLName) -> String? {
    index(ofAttribute: name).map { attributes[$0].value }
  }

  /// The attribute with this name, if present.
  package func sourceAttribute(_ name: XMLName) -> XMLSourceAttribute? {
    index(ofAttribute: name).map { attributes[$0] }
  }

  /// The position of the attribute with this name. Readers look up thirty names on every
  /// `<attribute>`: comparing name keys first makes each miss one integer comparison.
  private func index(ofAttribute name: XMLName) -> Int? {
    for index in attributes.indices
    where attributes[index].nameKey == name.key && attributes[index].name == name.string {
      return index
    }
    return nil
  }
}

/// An attribute name with its ``XMLSourceAttribute/key(of:)`` computed once, for names a reader
/// looks up again and again.
package struct XMLName: Sendable, ExpressibleByStringLiteral {
  package let string: String
  package let key: UInt64

  package init(_ string: String) {
    self.string = string
    self.key = XMLSourceAttribute.key(of: string)
  }

  package init(stringLiteral value: String) {
    self.init(value)
  }
}

/// One `name="value"` pair of an element, with the byte offset of its name.
package struct XMLSourceAttribute: Sendable, Hashable {
  package var name: String {
    didSet { nameKey = Self.key(of: name) }
  }
  package var value: String
  package var offset: Int
  /// ``key(of:)`` of the name, kept to make lookups by name cheap.
  package private(set) var nameKey: UInt64

  package init(name: String, value: String, offset: Int = 0) {
    self.name = name
    self.value = value
    self.offset = offset
    self.nameKey = Self.key(of: name)
  }

  /// An attribute whose name's key the caller computed from the name's bytes.
  init(name: String, nameKey: UInt64, value: String, offset: Int) {
    self.name = name
    self.value = value
    self.offset = offset
    self.nameKey = nameKey
  }

  /// A 64-bit FNV-1a hash of a name's UTF-8 bytes: equal names have equal keys.
  package static func key(of name: String) -> UInt64 {
    var name = name
    return name.withUTF8 { key(of: $0) }
  }

  /// ``key(of:)`` of UTF-8 bytes.
  static func key(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
  }
}

/// A fixed set of attribute names that can be tested against cheaply.
package struct XMLNameSet: Sendable {
  private let names: [String]
  private let keys: [UInt64]

  package init(_ names: [String]) {
    self.names = names
    self.keys = names.map(XMLSourceAttribute.key(of:))
  }

  /// Whether the attribute's name is in the set.
  package func contains(_ attribute: XMLSourceAttribute) -> Bool {
    for index in keys.indices where keys[index] == attribute.nameKey && names[index] == attribute.name {
      return true
    }
    return false
  }
}
