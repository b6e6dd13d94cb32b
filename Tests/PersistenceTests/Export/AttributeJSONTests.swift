import Foundation
import Persistence
import Testing

@Suite("Attribute values as JSON")
struct AttributeJSONTests {
  static func attribute(_ type: AttributeType) -> AttributeDescription {
    AttributeDescription(name: "value", attributeType: type, isOptional: true)
  }

  static func read(_ json: JSONValue, _ type: AttributeType) throws(AttributeJSONError) -> AttributeValue? {
    try AttributeJSON.value(json, for: attribute(type))
  }

  static func message(_ json: JSONValue, _ type: AttributeType) -> String? {
    do {
      _ = try read(json, type)
      return nil
    } catch {
      return error.message
    }
  }

  @Test("Integers are exact: an overflow of the attribute's width is an error, not a truncation")
  func integers() throws {
    #expect(try Self.read(.number("32767"), .integer16) == .integer(32767))
    #expect(try Self.read(.number("-32768"), .integer16) == .integer(-32768))
    #expect(Self.message(.number("32768"), .integer16) == "32768 overflows Integer 16 (-32768…32767)")
    #expect(
      Self.message(.number("2147483648"), .integer32) == "2147483648 overflows Integer 32 (-2147483648…2147483647)")
    #expect(try Self.read(.number("9223372036854775807"), .integer64) == .integer(.max))
    #expect(
      Self.message(.number("9223372036854775808"), .integer64)?.hasPrefix("9223372036854775808 overflows") == true)
    #expect(
      Self.message(.number("1.5"), .integer32) == "1.5 is not a whole number, as this Integer 32 attribute requires")
    #expect(Self.message(.number("1e3"), .integer32)?.contains("not a whole number") == true)
    #expect(
      Self.message(.string("12"), .integer64) == "expected a whole number for this Integer 64 attribute, found a string"
    )
    #expect(Self.message(.bool(true), .integer16)?.contains("found a Boolean") == true)
  }

  @Test("Floating-point values: shortest exact text, infinities as strings, overflow and NaN refused")
  func floatingPoint() throws {
    #expect(AttributeJSON.json(.double(0.1)) == .number("0.1"))
    #expect(AttributeJSON.json(.double(-0.0)) == .number("-0.0"))
    #expect(AttributeJSON.json(.float(0.1)) == .number("0.1"))
    #expect(AttributeJSON.json(.double(.infinity)) == .string("inf"))
    #expect(AttributeJSON.json(.float(-.infinity)) == .string("-inf"))
    #expect(try Self.read(.number("1e308"), .double) == .double(1e308))
    #expect(try Self.read(.string("-inf"), .double) == .double(-.infinity))
    #expect(try Self.read(.number("42"), .float) == .float(42))
    #expect(Self.message(.number("1e400"), .double)?.hasPrefix("1e400 overflows Double") == true)
    #expect(Self.message(.number("1e39"), .float)?.hasPrefix("1e39 overflows Float") == true)
    #expect(Self.message(.string("nan"), .double) == "NaN cannot be stored: SQLite keeps a NaN REAL as NULL")
    #expect(Self.message(.string("12"), .double)?.contains("found the string '12'") == true)
  }

  @Test("Decimals: strings (or numbers) read exactly, more than 38 significant digits refused")
  func decimals() throws {
    let text = "-12345678901234567890.123456789"
    #expect(AttributeJSON.json(.decimal(Decimal(string: text)!)) == .string(text))
    #expect(try Self.read(.string(text), .decimal) == .decimal(Decimal(string: text)!))
    #expect(try Self.read(.number("2.50"), .decimal) == .decimal(Decimal(string: "2.5")!))
    #expect(try Self.read(.string("1e-5"), .decimal) == .decimal(Decimal(string: "0.00001")!))
    #expect(try Self.read(.string("100000000000000000000000000000000000000000000"), .decimal) != nil)
    #expect(
      Self.message(.string("123456789012345678901234567890123456789"), .decimal)?.contains("39 significant digits")
        == true)
    #expect(Self.message(.string("12abc"), .decimal) == "'12abc' is not a decimal number like -1234.5678")
    #expect(Self.message(.string(""), .decimal) != nil)
    #expect(Self.message(.bool(false), .decimal) != nil)
  }

  @Test("Other types: their canonical text, and clear errors")
  func others() throws {
    let date = Date(timeIntervalSince1970: 1_700_000_000.25)
    #expect(AttributeJSON.json(.date(date)) == .string("2023-11-14T22:13:20.250Z"))
    #expect(try Self.read(.string("2023-11-14T22:13:20.250Z"), .date) == .date(date))
    #expect(try Self.read(.string("2023-11-14T22:13:20Z"), .date) == .date(Date(timeIntervalSince1970: 1_700_000_000)))
    #expect(Self.message(.string("yesterday"), .date)?.hasPrefix("'yesterday' is not an ISO 8601 date") == true)
    #expect(AttributeJSON.json(.binary(Data([0, 1, 255]))) == .string("AAH/"))
    #expect(try Self.read(.string("AAH/"), .binary) == .binary(Data([0, 1, 255])))
    #expect(try Self.read(.string(""), .transformable) == .binary(Data()))
    #expect(Self.message(.string("not base64!"), .binary) == "the text is not valid base64")
    let uuid = UUID(uuidString: "123E4567-E89B-12D3-A456-426614174000")!
    #expect(AttributeJSON.json(.uuid(uuid)) == .string("123E4567-E89B-12D3-A456-426614174000"))
    #expect(try Self.read(.string("123e4567-e89b-12d3-a456-426614174000"), .uuid) == .uuid(uuid))
    #expect(Self.message(.string("123"), .uuid)?.hasPrefix("'123' is not a UUID") == true)
    #expect(try Self.read(.string("https://example.com/x"), .uri) == .uri(URL(string: "https://example.com/x")!))
    #expect(try Self.read(.bool(true), .boolean) == .boolean(true))
    #expect(Self.message(.number("1"), .boolean) == "expected true or false for this Boolean attribute, found a number")
    #expect(Self.message(.number("1"), .string) == "expected a string for this String attribute, found a number")
    #expect(try Self.read(.null, .string) == nil)
  }

  @Test("Object identifiers are Core Data's URIs and parse back")
  func identifiers() {
    let text = "x-coredata://6F99DCEB-E351-44B4-A9EE-E419C7F1A040/PumpEvent/p4"
    let parts = ObjectJSON.parseIdentifier(text)
    #expect(parts?.storeUUID == "6F99DCEB-E351-44B4-A9EE-E419C7F1A040")
    #expect(parts?.entityName == "PumpEvent")
    #expect(parts?.primaryKey == 4)
    #expect(ObjectJSON.parseIdentifier("x-coredata:///PumpEvent/t3") == nil)
    #expect(ObjectJSON.parseIdentifier("t1") == nil)
    #expect(ObjectJSON.parseIdentifier("x-coredata://U/E/p0") == nil)
  }
}
