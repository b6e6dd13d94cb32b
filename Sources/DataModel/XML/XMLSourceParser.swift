import Foundation

/// A small, strict XML parser for model files, property lists and mapping files.
///
/// It reads the subset of XML 1.0 that these documents use — elements, attributes, character
/// data, entity and character references, comments, CDATA sections, processing instructions and a
/// document type declaration (skipped) — and keeps the byte offset of every element and attribute
/// so that diagnostics can name a line and column. Anything that is not well-formed is an
/// ``XMLSyntaxError``; it never traps on bad input.
package struct XMLSourceParser {
  private let bytes: [UInt8]
  private var index = 0
  /// The attributes of the start tag being read, reused from tag to tag so that each element's
  /// array is allocated once, at its final size.
  private var scratchAttributes: [XMLSourceAttribute] = []

  private init(bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// Parses a whole document and returns its root element.
  ///
  /// The bytes must be UTF-8 (a byte order mark is allowed); a document declaring another
  /// encoding, or holding bytes that are not valid UTF-8, is rejected with the offset of the
  /// first bad byte.
  package static func parse(_ bytes: [UInt8]) throws(XMLSyntaxError) -> XMLSourceElement {
    if let bad = Self.firstInvalidUTF8Offset(in: bytes) {
      // A file saved in another encoding usually says so: name the declaration, not a byte.
      var declaration = XMLSourceParser(bytes: bytes)
      try declaration.checkLeadingDeclaration()
      throw XMLSyntaxError(offset: bad, message: "the file is not valid UTF-8 (invalid byte sequence)")
    }
    var parser = XMLSourceParser(bytes: bytes)
    return try parser.parseDocument()
  }

  /// How deep elements may nest. Model files nest five levels at most; the limit keeps a
  /// hostile or corrupt file from overflowing the stack of the recursive descent.
  package static let maximumDepth = 256

  /// Checks the encoding named by an XML declaration at the start of the document, if any.
  private mutating func checkLeadingDeclaration() throws(XMLSyntaxError) {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    skipWhitespace()
    if matches("<?xml") { try parseProcessingInstruction(isFirst: true) }
  }

  // MARK: - Document

  private mutating func parseDocument() throws(XMLSyntaxError) -> XMLSourceElement {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    if bytes.isEmpty || index == bytes.count {
      throw XMLSyntaxError(offset: 0, message: "the file is empty; expected an XML document")
    }
    var root: XMLSourceElement?
    while true {
      skipWhitespace()
      if index >= bytes.count { break }
      guard bytes[index] == UInt8(ascii: "<") else {
        throw XMLSyntaxError(
          offset: index,
          message: root == nil ? "expected '<' to start an XML document" : "unexpected text after the root element")
      }
      if matches("<?") {
        try parseProcessingInstruction(isFirst: root == nil && index <= 3)
      } else if matches("<!--") {
        try skipComment()
      } else if matches("<!DOCTYPE") {
        guard root == nil else { throw XMLSyntaxError(offset: index, message: "a DOCTYPE after the root element") }
        try skipDoctype()
      } else {
        guard root == nil else {
          throw XMLSyntaxError(offset: index, message: "a second root element; an XML document has exactly one")
        }
        root = try parseElement(depth: 1)
      }
    }
    guard let root else {
      throw XMLSyntaxError(offset: bytes.count, message: "the document has no root element")
    }
    return root
  }

  private mutating func parseProcessingInstruction(isFirst: Bool) throws(XMLSyntaxError) {
    let start = index
    index += 2
    let target = readName()
    guard let end = find("?>") else {
      throw XMLSyntaxError(offset: start, message: "unterminated processing instruction; expected '?>'")
    }
    if target.lowercased() == "xml" {
      let declaration = String(decoding: bytes[index..<end], as: UTF8.self)
      if let encoding = Self.pseudoAttribute("encoding", in: declaration) {
        let normalized = encoding.lowercased()
        if !["utf-8", "utf8", "us-ascii", "ascii"].contains(normalized) {
          throw XMLSyntaxError(
            offset: start,
            message: "the document declares encoding '\(encoding)'; only UTF-8 is supported, re-save the file as UTF-8")
        }
      }
    }
    index = end + 2
  }

  private static func pseudoAttribute(_ name: String, in declaration: String) -> String? {
    guard let range = declaration.range(of: name + "=") else { return nil }
    let rest = declaration[range.upperBound...]
    guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
    let afterQuote = rest.dropFirst()
    guard let close = afterQuote.firstIndex(of: quote) else { return nil }
    return String(afterQuote[..<close])
  }

  private mutating func skipComment() throws(XMLSyntaxError) {
    let start = index
    index += 4
    guard let end = find("-->") else {
      throw XMLSyntaxError(offset: start, message: "unterminated comment; expected '-->'")
    }
    index = end + 3
  }

  private mutating func skipDoctype() throws(XMLSyntaxError) {
    let start = index
    index += 9
    var depth = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        guard let close = bytes[(index + 1)...].firstIndex(of: byte) else { break }
        index = close + 1
        continue
      }
      if byte == UInt8(ascii: "[") { depth += 1 }
      if byte == UInt8(ascii: "]") { depth -= 1 }
      if byte == UInt8(ascii: ">") && depth <= 0 {
        index += 1
        return
      }
      index += 1
    }
    throw XMLSyntaxError(offset: start, message: "unterminated DOCTYPE declaration")
  }

  // MARK: - Elements

  private mutating func parseElement(depth: Int) throws(XMLSyntaxError) -> XMLSourceElement {
    let start = index
    guard depth <= Self.maximumDepth else {
      throw XMLSyntaxError(
        offset: start,
        message: "elements are nested more than \(Self.maximumDepth) levels deep; this is not a model file")
    }
    index += 1  // <
    let name = readName()
    guard !name.isEmpty else {
      throw XMLSyntaxError(offset: index, message: "expected an element name after '<'")
    }
    var element = XMLSourceElement(name: name, offset: start)
    // Attributes.
    while true {
      let hadSpace = skipWhitespace()
      guard index < bytes.count else {
        throw XMLSyntaxError(offset: start, message: "unterminated start tag <\(name)>; the file ends inside it")
      }
      if bytes[index] == UInt8(ascii: "/") {
        guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else {
          throw XMLSyntaxError(offset: index, message: "expected '/>' to close the empty element <\(name)>")
        }
        index += 2
        takeAttributes(into: &element)
        return element
      }
      if bytes[index] == UInt8(ascii: ">") {
        index += 1
        takeAttributes(into: &element)
        break
      }
      guard hadSpace else {
        throw XMLSyntaxError(offset: index, message: "expected white space, '>' or '/>' in the start tag <\(name)>")
      }
      let attributeOffset = index
      let (attributeName, attributeKey) = readNameAndKey()
      guard !attributeName.isEmpty else {
        throw XMLSyntaxError(offset: index, message: "expected an attribute name in the start tag <\(name)>")
      }
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
        throw XMLSyntaxError(offset: index, message: "expected '=' after the attribute name '\(attributeName)'")
      }
      index += 1
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
        throw XMLSyntaxError(offset: index, message: "expected a quoted value for the attribute '\(attributeName)'")
      }
      let quote = bytes[index]
      index += 1
      let valueStart = index
      while index < bytes.count && bytes[index] != quote {
        if bytes[index] == UInt8(ascii: "<") {
          throw XMLSyntaxError(offset: index, message: "'<' is not allowed in an attribute value; write '&lt;'")
        }
        index += 1
      }
      guard index < bytes.count else {
        throw XMLSyntaxError(offset: valueStart - 1, message: "unterminated value of the attribute '\(attributeName)'")
      }
      let value = try decodeText(valueStart..<index, normalizeWhitespace: true)
      index += 1
      if scratchAttributes.contains(where: { $0.nameKey == attributeKey && $0.name == attributeName }) {
        throw XMLSyntaxError(
          offset: attributeOffset, message: "the attribute '\(attributeName)' appears twice on <\(name)>")
      }
      scratchAttributes.append(
        XMLSourceAttribute(name: attributeName, nameKey: attributeKey, value: value, offset: attributeOffset))
    }
    // Content.
    var text = ""
    while true {
      guard index < bytes.count else {
        throw XMLSyntaxError(offset: start, message: "the element <\(name)> is never closed; expected </\(name)>")
      }
      if bytes[index] == UInt8(ascii: "<") {
        if matches("</") {
          let closeOffset = index
          index += 2
          let closeName = readName()
          skipWhitespace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else {
            throw XMLSyntaxError(offset: index, message: "expected '>' to end the tag </\(closeName)>")
          }
          index += 1
          guard closeName == name else {
            throw XMLSyntaxError(
              offset: closeOffset, message: "the closing tag </\(closeName)> does not match the open element <\(name)>")
          }
          element.text = text
          return element
        } else if matches("<!--") {
          try skipComment()
        } else if matches("<![CDATA[") {
          let cdataStart = index
          index += 9
          guard let end = find("]]>") else {
            throw XMLSyntaxError(offset: cdataStart, message: "unterminated CDATA section; expected ']]>'")
          }
          text += String(decoding: bytes[index..<end], as: UTF8.self)
          index = end + 3
        } else if matches("<?") {
          let piStart = index
          guard let end = find("?>") else {
            throw XMLSyntaxError(offset: piStart, message: "unterminated processing instruction; expected '?>'")
          }
          index = end + 2
        } else {
          element.children.append(try parseElement(depth: depth + 1))
        }
      } else {
        let textStart = index
        while index < bytes.count && bytes[index] != UInt8(ascii: "<") { index += 1 }
        text += try decodeText(textStart..<index, normalizeWhitespace: false)
      }
    }
  }

  /// Moves the attributes read so far into the element.
  private mutating func takeAttributes(into element: inout XMLSourceElement) {
    guard !scratchAttributes.isEmpty else { return }
    element.attributes = Array(scratchAttributes)
    scratchAttributes.removeAll(keepingCapacity: true)
  }

  // MARK: - Lexical helpers

  @discardableResult
  private mutating func skipWhitespace() -> Bool {
    let start = index
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return index > start
      }
    }
    return index > start
  }

  private mutating func readName() -> String {
    readNameAndKey().name
  }

  /// Reads a name and computes its ``XMLSourceAttribute/key(of:)`` from its bytes.
  private mutating func readNameAndKey() -> (name: String, key: UInt64) {
    let start = index
    skipNameBytes()
    let range = start..<index
    let key = bytes.withUnsafeBufferPointer { XMLSourceAttribute.key(of: UnsafeBufferPointer(rebasing: $0[range])) }
    return (String(decoding: bytes[range], as: UTF8.self), key)
  }

  private mutating func skipNameBytes() {
    Self.nameBytes.withUnsafeBufferPointer { isNameByte in
      while index < bytes.count && isNameByte[Int(bytes[index])] { index += 1 }
    }
  }

  /// Which bytes may appear in a name: ASCII letters and digits, `_ : - .`, and every byte of a
  /// multi-byte UTF-8 sequence.
  private static let nameBytes: [Bool] = (0...255).map { (byte: Int) -> Bool in
    switch byte {
    case 0x61...0x7A, 0x41...0x5A, 0x30...0x39: true  // a-z A-Z 0-9
    case 0x5F, 0x3A, 0x2D, 0x2E: true  // _ : - .
    case 0x80...0xFF: true
    default: false
    }
  }

  private func matches(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { buffer in
      for offset in 0..<count where bytes[index + offset] != buffer[offset] {
        return false
      }
      return true
    }
  }

  private func find(_ literal: StaticString) -> Int? {
    let count = literal.utf8CodeUnitCount
    return literal.withUTF8Buffer { buffer -> Int? in
      var position = index
      while position + count <= bytes.count {
        if bytes[position] == buffer[0] {
          var all = true
          for offset in 1..<count where bytes[position + offset] != buffer[offset] {
            all = false
            break
          }
          if all { return position }
        }
        position += 1
      }
      return nil
    }
  }

  /// Decodes character data, resolving entity and character references.
  private func decodeText(_ range: Range<Int>, normalizeWhitespace: Bool) throws(XMLSyntaxError) -> String {
    let hasSpecial = bytes.withUnsafeBufferPointer { buffer in
      for position in range {
        switch buffer[position] {
        case UInt8(ascii: "&"), 0x0D: return true
        case 0x09, 0x0A: if normalizeWhitespace { return true }
        default: continue
        }
      }
      return false
    }
    if !hasSpecial { return String(decoding: bytes[range], as: UTF8.self) }
    var output: [UInt8] = []
    output.reserveCapacity(range.count)
    var position = range.lowerBound
    while position < range.upperBound {
      let byte = bytes[position]
      if byte == UInt8(ascii: "&") {
        guard let semicolon = bytes[position..<range.upperBound].firstIndex(of: UInt8(ascii: ";")),
          semicolon - position <= 12
        else {
          throw XMLSyntaxError(offset: position, message: "'&' must start an entity reference such as '&amp;'")
        }
        let reference = String(decoding: bytes[(position + 1)..<semicolon], as: UTF8.self)
        guard let scalar = Self.resolveReference(reference) else {
          throw XMLSyntaxError(offset: position, message: "unknown entity reference '&\(reference);'")
        }
        output.append(contentsOf: Array(String(Character(scalar)).utf8))
        position = semicolon + 1
        continue
      }
      if byte == 0x0D {
        // XML end-of-line handling: CRLF and lone CR become LF.
        output.append(normalizeWhitespace ? 0x20 : 0x0A)
        if position + 1 < range.upperBound && bytes[position + 1] == 0x0A { position += 1 }
      } else if normalizeWhitespace && (byte == 0x09 || byte == 0x0A) {
        output.append(0x20)
      } else {
        output.append(byte)
      }
      position += 1
    }
    return String(decoding: output, as: UTF8.self)
  }

  private static func resolveReference(_ reference: String) -> Unicode.Scalar? {
    switch reference {
    case "lt": return "<"
    case "gt": return ">"
    case "amp": return "&"
    case "quot": return "\""
    case "apos": return "'"
    default: break
    }
    guard reference.hasPrefix("#") else { return nil }
    let digits = reference.dropFirst()
    let value: UInt32?
    if digits.hasPrefix("x") || digits.hasPrefix("X") {
      value = UInt32(digits.dropFirst(), radix: 16)
    } else {
      value = UInt32(digits, radix: 10)
    }
    guard let value, value != 0 else { return nil }
    return Unicode.Scalar(value)
  }

  /// The offset of the first byte that does not belong to a valid UTF-8 sequence, if any.
  package static func firstInvalidUTF8Offset(in bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { firstInvalidUTF8Offset(in: $0) }
  }

  private static func firstInvalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
    var index = 0
    let count = bytes.count
    while index < count {
      // Model files are nearly all ASCII: skip eight ASCII bytes at a time.
      while index + 8 <= count,
        UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
      {
        index += 8
      }
      guard index < count else { break }
      let lead = bytes[index]
      if lead < 0x80 {
        index += 1
        continue
      }
      let length: Int
      let minimum: UInt32
      var scalar: UInt32
      switch lead {
      case 0xC2...0xDF:
        length = 2
        minimum = 0x80
        scalar = UInt32(lead & 0x1F)
      case 0xE0...0xEF:
        length = 3
        minimum = 0x800
        scalar = UInt32(lead & 0x0F)
      case 0xF0...0xF4:
        length = 4
        minimum = 0x10000
        scalar = UInt32(lead & 0x07)
      default: return index
      }
      guard index + length <= count else { return index }
      for offset in 1..<length {
        let continuation = bytes[index + offset]
        guard continuation & 0xC0 == 0x80 else { return index }
        scalar = scalar << 6 | UInt32(continuation & 0x3F)
      }
      if scalar < minimum || scalar > 0x10FFFF || (0xD800...0xDFFF).contains(scalar) { return index }
      index += length
    }
    return nil
  }
}
