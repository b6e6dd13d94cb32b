import DataModel
import Foundation
import Testing

@Suite("JSON values, writer and parser")
struct JSONTests {
  // MARK: - Writer

  @Test("Pretty printing: two-space indentation, keys in order, empty containers inline, a final newline")
  func prettyPrinted() {
    let value = JSONValue.object([
      ("b", .integer(1)), ("a", .array([.bool(true), .null, .string("x")])), ("empty", .object([])),
      ("none", .array([])),
    ])
    #expect(
      JSONWriter.prettyPrinted(value) == """
        {
          "b": 1,
          "a": [
            true,
            null,
            "x"
          ],
          "empty": {},
          "none": []
        }

        """)
    #expect(JSONWriter.compact(value) == #"{"b":1,"a":[true,null,"x"],"empty":{},"none":[]}"#)
  }

  @Test("Strings are escaped as JSON requires; other characters pass through as UTF-8")
  func stringEscapes() throws {
    let text = "q\" b\\ n\n r\r t\t b\u{08} f\u{0C} c\u{01}\u{1F} ls\u{2028} ps\u{2029} é 😀 /"
    #expect(
      JSONWriter.compact(.string(text))
        == #""q\" b\\ n\n r\r t\t b\b f\f c\u0001\u001f ls\u2028 ps\u2029 é 😀 /""#)
    #expect(try JSONParser.parse(JSONWriter.compact(.string(text))) == .string(text))
  }

  @Test(
    "Doubles print in the shortest exact form; integral values without a fraction",
    arguments: [
      (0.0, "0"), (-0.0, "0"), (3.0, "3"), (-2.5, "-2.5"), (0.1, "0.1"), (1e15, "1000000000000000.0"), (1e16, "1e+16"),
      (123_456_789_012_345, "123456789012345"),
      (1.5e-7, "1.5e-07"),
    ])
  func doubles(_ value: Double, _ text: String) {
    #expect(JSONValue.double(value) == .number(text))
  }

  @Test("Non-finite doubles, which JSON cannot hold, become strings")
  func nonFinite() {
    #expect(JSONValue.double(.nan) == .string("nan"))
    #expect(JSONValue.double(.infinity) == .string("inf"))
    #expect(JSONValue.double(-.infinity) == .string("-inf"))
  }

  @Test("Integers of every width keep every digit")
  func integers() {
    #expect(JSONValue.integer(Int64.max) == .number("9223372036854775807"))
    #expect(JSONValue.integer(Int64.min) == .number("-9223372036854775808"))
    #expect(JSONValue.integer(UInt64.max) == .number("18446744073709551615"))
    #expect(JSONValue.integer(Int16(-7)) == .number("-7"))
  }

  @Test("The object builder adds optional values only when present and flags only when true")
  func builder() {
    var builder = JSONObjectBuilder()
    builder.add("s", "text")
    builder.add("nilString", nil as String?)
    builder.addFlag("yes", true)
    builder.addFlag("no", false)
    builder.add("optionalFalse", false as Bool?)
    builder.add("nilBool", nil as Bool?)
    builder.add("int", 3 as Int?)
    builder.add("nilInt", nil as Int?)
    builder.addNonEmpty("list", [.null])
    builder.addNonEmpty("emptyList", [])
    builder.add("raw", .number("1.50"))
    #expect(builder.pairs.map(\.key) == ["s", "yes", "optionalFalse", "int", "list", "raw"])
    #expect(
      JSONWriter.compact(builder.value)
        == #"{"s":"text","yes":true,"optionalFalse":false,"int":3,"list":[null],"raw":1.50}"#)
  }

  // MARK: - Values

  @Test("Equality and hashing respect key order and exact number text")
  func equality() {
    let a = JSONValue.object([("x", .integer(1)), ("y", .integer(2))])
    let b = JSONValue.object([("x", .integer(1)), ("y", .integer(2))])
    let reordered = JSONValue.object([("y", .integer(2)), ("x", .integer(1))])
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(a != reordered)
    #expect(JSONValue.number("1.0") != .number("1"))
    #expect(JSONValue.null != .bool(false))
    #expect(JSONValue.array([]) != .object([]))
    #expect(Set([a, b, reordered]).count == 2)
  }

  @Test("Accessors return nil for the wrong kind")
  func accessors() {
    let value = JSONValue.object([("k", .string("v")), ("k", .string("second")), ("list", .array([.null]))])
    #expect(value["k"] == .string("v"), "the first of repeated keys")
    #expect(value["missing"] == nil)
    #expect(JSONValue.string("s")["k"] == nil)
    #expect(value["k"]?.stringValue == "v")
    #expect(value["list"]?.arrayValue == [.null])
    #expect(value.objectValue?.count == 3)
    #expect(JSONValue.null.stringValue == nil && JSONValue.null.arrayValue == nil && JSONValue.null.objectValue == nil)
    #expect(
      [JSONValue.null, .bool(true), .number("1"), .string(""), .array([]), .object([])].map(\.kindName) == [
        "null", "a Boolean", "a number", "a string", "an array", "an object",
      ])
  }

  // MARK: - Parser

  @Test("Every kind of value parses; numbers keep their text and objects their key order")
  func parsing() throws {
    let value = try JSONParser.parse(
      """
       { "z": [1, -0, 1.50, 1E+2, -3.25e-3, 0],
        "a": {"t": true, "f": false, "n": null},
        "s": "a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9\\ud83d\\ude00" }\t\r\n
      """)
    #expect(
      value["z"]
        == .array([.number("1"), .number("-0"), .number("1.50"), .number("1E+2"), .number("-3.25e-3"), .number("0")]))
    #expect(value["a"] == .object([("t", .bool(true)), ("f", .bool(false)), ("n", .null)]))
    #expect(value["s"] == .string("a\"b\\c/d\u{08}\u{0C}\n\r\té😀"))
    #expect(value.objectValue?.map(\.key) == ["z", "a", "s"])
    #expect(try JSONParser.parse("[]") == .array([]))
    #expect(try JSONParser.parse("{}") == .object([]))
    #expect(try JSONParser.parse("  \"x\"  ") == .string("x"))
  }

  /// Malformed JSON, where the error must be, and a fragment of its message.
  static let malformed: [(text: String, position: String, message: String)] = [
    ("", "1:1", "unexpected end of input"),
    ("   ", "1:4", "unexpected end of input"),
    ("[1, 2,]", "1:7", "unexpected character ']'"),
    ("{\"a\": 1,}", "1:9", "expected a string key"),
    ("{\"a\" 1}", "1:6", "expected ':'"),
    ("{\"a\": 1 \"b\": 2}", "1:9", "expected ',' or '}'"),
    ("[1 2]", "1:4", "expected ',' or ']'"),
    ("[1,\n  01]", "2:3", "leading zeros"),
    ("-", "1:2", "expected digits"),
    ("1.", "1:3", "expected digits after '.'"),
    ("1e", "1:3", "expected digits in the exponent"),
    ("tru", "1:1", "expected 'true'"),
    ("nul", "1:1", "expected 'null'"),
    ("\"open", "1:6", "unterminated string"),
    ("\"a\nb\"", "1:3", "control character"),
    ("\"\\x\"", "1:4", "invalid escape sequence '\\x'"),
    ("\"\\u12\"", "1:4", "four hexadecimal digits"),
    ("\"\\ud83d\"", "1:8", "unpaired surrogate"),
    ("\"\\ude00\"", "1:8", "unpaired surrogate"),
    ("\"\\ud83d\\u0041\"", "1:14", "invalid low surrogate"),
    ("{} {}", "1:4", "unexpected text after"),
    ("[\n[\n  x", "3:3", "unexpected character 'x'"),
    ("[1,\n\"é\" }", "2:5", "expected ',' or ']'"),
    ("[\"a\",\n  [1, {\"k\": [true, fals]}]]", "2:20", "expected 'false'"),
  ]

  @Test("Malformed JSON is an error at its line and column", arguments: malformed.indices)
  func malformedJSON(_ index: Int) {
    let example = Self.malformed[index]
    do {
      let value = try JSONParser.parse(example.text)
      Issue.record("\(example.text) parsed as \(value)")
    } catch {
      #expect("\(error.line):\(error.column)" == example.position, "\(example.text): \(error)")
      #expect(error.message.contains(example.message), "\(example.text): \(error)")
      #expect(error.description == "\(error.line):\(error.column): \(error.message)")
    }
  }

  @Test("Nesting deeper than 512 is an error, not a stack overflow")
  func depthLimit() throws {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    #expect(throws: JSONSyntaxError.self) { try JSONParser.parse(deep) }
    let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect(try JSONParser.parse(fine).arrayValue?.count == 1)
  }

  @Test("Writing then parsing gives the value back, for many generated values")
  func roundTrips() throws {
    var generator = SplitMix64(seed: 7)
    func make(_ depth: Int) -> JSONValue {
      switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &generator) {
      case 0: return .null
      case 1: return .bool(Bool.random(using: &generator))
      case 2: return .integer(Int64.random(in: Int64.min...Int64.max, using: &generator))
      case 3:
        let scalars = (0..<Int.random(in: 0..<8, using: &generator)).map { _ in
          Unicode.Scalar(UInt32.random(in: 0...0x7FF, using: &generator)) ?? "x"
        }
        return .string(String(String.UnicodeScalarView(scalars)))
      case 4: return .array((0..<Int.random(in: 0..<4, using: &generator)).map { _ in make(depth + 1) })
      default:
        return .object((0..<Int.random(in: 0..<4, using: &generator)).map { index in ("k\(index)", make(depth + 1)) })
      }
    }
    for _ in 0..<200 {
      let value = make(0)
      #expect(try JSONParser.parse(JSONWriter.prettyPrinted(value)) == value)
      #expect(try JSONParser.parse(JSONWriter.compact(value)) == value)
    }
  }

  // MARK: - Dates

  @Test("Dates print as ISO 8601 in UTC with milliseconds, rounded")
  func isoDates() {
    #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSinceReferenceDate: 0)) == "2001-01-01T00:00:00.000Z")
    #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 0.1256)) == "1970-01-01T00:00:00.126Z")
    #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: 59.9996)) == "1970-01-01T00:01:00.000Z")
    #expect(ISO8601Milliseconds.string(from: Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
  }

  @Test("ISO 8601 dates parse with or without fraction, with Z or an offset; nonsense does not")
  func isoParsing() {
    #expect(ISO8601Milliseconds.date(from: "2001-01-01T00:00:00Z") == Date(timeIntervalSinceReferenceDate: 0))
    #expect(ISO8601Milliseconds.date(from: "2001-01-01T00:00:00.250Z") == Date(timeIntervalSinceReferenceDate: 0.25))
    #expect(ISO8601Milliseconds.date(from: "2001-01-01T02:00:00+02:00") == Date(timeIntervalSinceReferenceDate: 0))
    #expect(ISO8601Milliseconds.date(from: "2000-12-31T22:00:00-0200") == Date(timeIntervalSinceReferenceDate: 0))
    for bad in [
      "", "2001-01-01", "2001-13-01T00:00:00Z", "2001-02-30T00:00:00Z", "2001-01-01T00:00:00", "2001-01-01T00:00:00.Z",
      "2001-01-01T00:00:00Zjunk",
    ] {
      #expect(ISO8601Milliseconds.date(from: bad) == nil, "\(bad)")
    }
  }
}
