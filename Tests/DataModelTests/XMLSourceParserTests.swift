import DataModel
import Foundation
import Testing

@Suite("XML source parser")
struct XMLSourceParserTests {
  private func parse(_ text: String) throws -> XMLSourceElement {
    try XMLSourceParser.parse(Array(text.utf8))
  }

  private func syntaxError(_ bytes: [UInt8]) -> XMLSyntaxError? {
    do {
      _ = try XMLSourceParser.parse(bytes)
      return nil
    } catch {
      return error
    }
  }

  private func syntaxError(_ text: String) -> XMLSyntaxError? {
    syntaxError(Array(text.utf8))
  }

  // MARK: - Well-formed documents

  @Test("Elements, attributes and children keep their names, values, order and byte offsets")
  func elementsAndAttributes() throws {
    let root = try parse("<model a=\"1\" b='two'>\n  <entity name=\"Task\"/>\n  <entity name=\"Tag\" />\n</model>")
    #expect(root.name == "model")
    #expect(root.offset == 0)
    #expect(root.attributes.map(\.name) == ["a", "b"])
    #expect(root.attributes.map(\.value) == ["1", "two"])
    #expect(root.attributes.map(\.offset) == [7, 13])
    #expect(root.attribute("b") == "two")
    #expect(root.attribute("c") == nil)
    #expect(root.sourceAttribute("a")?.offset == 7)
    #expect(root.children.map(\.name) == ["entity", "entity"])
    #expect(root.children.map { $0.attribute("name") } == ["Task", "Tag"])
    #expect(root.children.map(\.offset) == [24, 48])
    #expect(root.children[0].attributes[0].offset == 32)
  }

  @Test("White space around '=' and before '/>' or '>' is allowed")
  func whitespaceInTags() throws {
    let root = try parse("<model\n\ta = \"1\"\r\n  b\t=\t'2'   >\n</model >")
    #expect(root.attributes.map(\.value) == ["1", "2"])
    #expect(root.attributes.map(\.offset) == [8, 19])
  }

  @Test("Predefined entity references and character references are resolved in attributes and text")
  func references() throws {
    let root = try parse(
      "<a v=\"&lt;&gt;&amp;&quot;&apos;&#65;&#x42;&#X43;&#x1F600;\">x &lt; y &amp;&amp; &#233;</a>")
    #expect(root.attribute("v") == "<>&\"'ABC😀")
    #expect(root.text == "x < y && é")
  }

  @Test("Attribute values normalize tabs, line feeds and CRLF to one space each; text keeps line feeds")
  func lineEndings() throws {
    let root = try parse("<a v=\"1\t2\n3\r\n4\r5\">line1\r\nline2\rline3</a>")
    #expect(root.attribute("v") == "1 2 3 4 5")
    #expect(root.text == "line1\nline2\nline3")
  }

  @Test("Comments, processing instructions, CDATA and a DOCTYPE with an internal subset are handled")
  func markupAroundElements() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <!-- a comment with <tags> & ampersands -->
      <!DOCTYPE model [ <!ENTITY x "a > b"> ]>
      <model><?app some instruction?><!-- inside --><![CDATA[<raw> & text]]><child/></model>
      <!-- trailing comment -->
      """
    let root = try parse(xml)
    #expect(root.name == "model")
    #expect(root.text == "<raw> & text")
    #expect(root.children.map(\.name) == ["child"])
  }

  @Test("A byte order mark is skipped; offsets still count its bytes")
  func byteOrderMark() throws {
    let root = try XMLSourceParser.parse([0xEF, 0xBB, 0xBF] + Array("<model x=\"1\"/>".utf8))
    #expect(root.name == "model")
    #expect(root.offset == 3)
    #expect(root.attributes[0].offset == 10)
  }

  @Test("Non-ASCII names and values are read as UTF-8", arguments: ["Tâche", "任务", "Ωμέγα"])
  func nonASCII(_ name: String) throws {
    let root = try parse("<entity name=\"\(name)\"><attribute name=\"\(name)Été\"/></entity>")
    #expect(root.attribute("name") == name)
    #expect(root.children[0].attribute("name") == name + "Été")
  }

  @Test(
    "Encoding declarations naming UTF-8 or ASCII are accepted",
    arguments: ["UTF-8", "utf-8", "utf8", "US-ASCII", "ascii"])
  func acceptedEncodings(_ encoding: String) throws {
    let root = try parse("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><model/>")
    #expect(root.name == "model")
  }

  @Test("Deep but reasonable nesting parses")
  func reasonableNesting() throws {
    let depth = 200
    let root = try parse(String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth))
    var levels = 1
    var element = root
    while let child = element.children.first {
      levels += 1
      element = child
    }
    #expect(levels == depth)
  }

  // MARK: - Errors

  /// A malformed document, the byte offset the error must name and a fragment of its message.
  struct Malformed: CustomTestStringConvertible, Sendable {
    var label: String
    var xml: String
    var offset: Int
    var message: String
    var testDescription: String { label }
  }

  static let malformed: [Malformed] = [
    Malformed(label: "empty", xml: "", offset: 0, message: "the file is empty"),
    Malformed(label: "only white space", xml: " \n ", offset: 3, message: "no root element"),
    Malformed(label: "only a declaration", xml: "<?xml version=\"1.0\"?>\n", offset: 22, message: "no root element"),
    Malformed(label: "text, not XML", xml: "hello", offset: 0, message: "expected '<'"),
    Malformed(label: "JSON", xml: "{\"model\": 1}", offset: 0, message: "expected '<'"),
    Malformed(
      label: "truncated start tag", xml: "<model><entity", offset: 7, message: "unterminated start tag <entity>"),
    Malformed(
      label: "truncated attribute value", xml: "<model><entity name=\"Ta", offset: 20,
      message: "unterminated value of the attribute 'name'"),
    Malformed(
      label: "truncated content", xml: "<model>\n  <entity name=\"Task\">\n", offset: 10,
      message: "<entity> is never closed"),
    Malformed(
      label: "mismatched closing tag", xml: "<model><entity></entitty></model>", offset: 15,
      message: "</entitty> does not match the open element <entity>"),
    Malformed(label: "closing tag without '>'", xml: "<model></model", offset: 14, message: "expected '>'"),
    Malformed(label: "'<' in an attribute value", xml: "<model p=\"a<b\"/>", offset: 11, message: "'<' is not allowed"),
    Malformed(
      label: "unknown entity reference", xml: "<model p=\"&nbsp;\"/>", offset: 10,
      message: "unknown entity reference '&nbsp;'"),
    Malformed(label: "bare ampersand", xml: "<model p=\"a & b\"/>", offset: 12, message: "'&' must start"),
    Malformed(label: "ampersand in text", xml: "<model>a & b</model>", offset: 9, message: "'&' must start"),
    Malformed(label: "reference to NUL", xml: "<model p=\"&#0;\"/>", offset: 10, message: "unknown entity reference"),
    Malformed(label: "reference to a surrogate", xml: "<model p=\"&#xD800;\"/>", offset: 10, message: "unknown entity"),
    Malformed(label: "unquoted value", xml: "<model p=1/>", offset: 9, message: "expected a quoted value"),
    Malformed(label: "attribute without '='", xml: "<model p \"1\"/>", offset: 9, message: "expected '='"),
    Malformed(label: "attributes without space", xml: "<model a=\"1\"b=\"2\"/>", offset: 12, message: "white space"),
    Malformed(label: "duplicate attribute", xml: "<model a=\"1\" a=\"2\"/>", offset: 13, message: "appears twice"),
    Malformed(label: "'/' without '>'", xml: "<model/ >", offset: 6, message: "expected '/>'"),
    Malformed(label: "no element name", xml: "< model/>", offset: 1, message: "expected an element name"),
    Malformed(label: "second root", xml: "<model/>\n<model/>", offset: 9, message: "a second root element"),
    Malformed(
      label: "text after the root", xml: "<model/>trailing", offset: 8, message: "unexpected text after the root"),
    Malformed(
      label: "unterminated comment", xml: "<model><!-- open</model>", offset: 7, message: "unterminated comment"),
    Malformed(
      label: "unterminated CDATA", xml: "<model><![CDATA[ open</model>", offset: 7, message: "unterminated CDATA"),
    Malformed(
      label: "unterminated processing instruction", xml: "<model><?pi </model>", offset: 7,
      message: "unterminated processing instruction"),
    Malformed(
      label: "unterminated DOCTYPE", xml: "<!DOCTYPE model [ <model/>", offset: 0, message: "unterminated DOCTYPE"),
    Malformed(label: "DOCTYPE after the root", xml: "<model/><!DOCTYPE model>", offset: 8, message: "DOCTYPE after"),
    Malformed(
      label: "non-UTF-8 encoding declaration", xml: "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><model/>",
      offset: 0, message: "declares encoding 'ISO-8859-1'"),
    Malformed(
      label: "UTF-16 declaration", xml: "\n<?xml version=\"1.0\" encoding='UTF-16'?><model/>", offset: 1,
      message: "only UTF-8 is supported"),
  ]

  @Test("Malformed XML is an error at the exact offset, never a crash", arguments: malformed)
  func malformedDocuments(_ example: Malformed) throws {
    let error = try #require(syntaxError(example.xml))
    #expect(error.offset == example.offset, "\(error.message)")
    #expect(error.message.contains(example.message), "\(error.message)")
  }

  /// Bytes that are not UTF-8 and the offset of the first bad byte.
  static let invalidUTF8: [(label: String, bytes: [UInt8], offset: Int)] = [
    ("Latin-1 é", Array("<model name=\"caf".utf8) + [0xE9] + Array("\"/>".utf8), 16),
    ("lone continuation byte", Array("<model>".utf8) + [0x80] + Array("</model>".utf8), 7),
    ("overlong encoding of '/'", Array("<model>".utf8) + [0xC0, 0xAF] + Array("</model>".utf8), 7),
    ("overlong three-byte", Array("<m>".utf8) + [0xE0, 0x80, 0xAF] + Array("</m>".utf8), 3),
    ("UTF-16 surrogate", Array("<m>".utf8) + [0xED, 0xA0, 0x80] + Array("</m>".utf8), 3),
    ("above U+10FFFF", Array("<m>".utf8) + [0xF4, 0x90, 0x80, 0x80] + Array("</m>".utf8), 3),
    ("invalid lead byte 0xFF", Array("<m>".utf8) + [0xFF] + Array("</m>".utf8), 3),
    ("sequence cut by the end of the file", Array("<m/>".utf8) + [0xE2, 0x82], 4),
    ("sequence cut by ASCII", Array("<m>".utf8) + [0xE2, 0x41, 0x41] + Array("</m>".utf8), 3),
    ("UTF-16LE document", [0xFF, 0xFE, 0x3C, 0x00, 0x6D, 0x00, 0x2F, 0x00, 0x3E, 0x00], 0),
  ]

  @Test("Bytes that are not UTF-8 are an error at the first bad byte", arguments: invalidUTF8.indices)
  func invalidBytes(_ index: Int) throws {
    let example = Self.invalidUTF8[index]
    #expect(XMLSourceParser.firstInvalidUTF8Offset(in: example.bytes) == example.offset, "\(example.label)")
    let error = try #require(syntaxError(example.bytes), "\(example.label)")
    #expect(error.offset == example.offset, "\(example.label)")
    #expect(error.message.contains("not valid UTF-8"), "\(example.label): \(error.message)")
  }

  @Test("Valid UTF-8 of every length passes the check")
  func validUTF8() {
    let text = "a é € 😀 \u{10FFFF} \u{FEFF}"
    #expect(XMLSourceParser.firstInvalidUTF8Offset(in: Array(text.utf8)) == nil)
    #expect(XMLSourceParser.firstInvalidUTF8Offset(in: []) == nil)
  }

  @Test("A non-UTF-8 document that declares its encoding is blamed on the declaration")
  func declaredLatin1WithLatin1Bytes() throws {
    let bytes =
      Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<model name=\"caf".utf8) + [0xE9] + Array("\"/>".utf8)
    let error = try #require(syntaxError(bytes))
    #expect(error.offset == 0)
    #expect(error.message.contains("declares encoding 'ISO-8859-1'"), "\(error.message)")
  }

  @Test("Absurdly deep nesting is an error, not a stack overflow")
  func absurdNesting() throws {
    let depth = 100_000
    let error = try #require(
      syntaxError(String(repeating: "<a>", count: depth) + String(repeating: "</a>", count: depth)))
    #expect(error.message.contains("nested"), "\(error.message)")
  }

  // MARK: - Line table

  @Test("Byte offsets map to 1-based lines and columns counted in Unicode scalars")
  func lineTable() {
    let text = "ab\ncé€😀x\r\n\nlast"
    let bytes = Array(text.utf8)
    let table = LineTable(bytes: bytes)
    func position(_ offset: Int) -> String {
      let position = table.position(of: offset)
      return "\(position.line):\(position.column)"
    }
    #expect(position(0) == "1:1")
    #expect(position(1) == "1:2")
    #expect(position(2) == "1:3")  // the line feed itself
    #expect(position(3) == "2:1")
    #expect(position(4) == "2:2")  // é starts
    #expect(position(5) == "2:2")  // inside é: still é
    #expect(position(6) == "2:3")  // € starts
    #expect(position(9) == "2:4")  // 😀 starts
    #expect(position(13) == "2:5")  // x
    #expect(position(14) == "2:6")  // CR
    #expect(position(16) == "3:1")  // empty line
    #expect(position(17) == "4:1")
    #expect(position(bytes.count) == "4:5")  // end of file
    #expect(position(bytes.count + 10) == "4:5")  // clamped
    #expect(position(-5) == "1:1")  // clamped
  }

  @Test("A byte order mark takes no column")
  func lineTableByteOrderMark() {
    let table = LineTable(bytes: [0xEF, 0xBB, 0xBF] + Array("<model/>\n<x/>".utf8))
    #expect(table.position(of: 3) == (1, 1))
    #expect(table.position(of: 4) == (1, 2))
    #expect(table.position(of: 12) == (2, 1))
  }

  @Test("An empty document has one line")
  func lineTableEmpty() {
    let table = LineTable(bytes: [])
    #expect(table.position(of: 0) == (1, 1))
  }
}
