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
    for attribute in attributes where attribute.name == name {
      return attribute.value
    }
    return nil
  }

  /// The attribute with this name, if present.
  package func sourceAttribute(_ name: String) -> XMLSourceAttribute? {
    attributes.first { $0.name == name }
  }
}

/// One `name="value"` pair of an element, with the byte offset of its name.
package struct XMLSourceAttribute: Sendable, Hashable {
  package var name: String
  package var value: String
  package var offset: Int

  package init(name: String, value: String, offset: Int = 0) {
    self.name = name
    self.value = value
    self.offset = offset
  }
}
