import Foundation
import Persistence
import TestSupport
import Testing

/// Every attribute type at its extremes survives a save and a fetch in a fresh context, and an
/// export to JSON text and an import into another store.
///
/// Two limits come from SQLite itself and are documented in `docs/store-format.md`: negative
/// zero reads back as zero (SQLite stores a REAL without a fraction as an integer), and NaN
/// cannot be stored at all (SQLite stores it as NULL), so saving it fails validation. Dates go
/// through JSON to the millisecond.
@Suite("Attribute values at their extremes")
struct AttributeExtremesTests {
  static let model = ContextFixtures.model(
    """
    <entity name="Sample" representedClassName="Sample">
      <attribute name="label" attributeType="String"/>
      <attribute name="i16" optional="YES" attributeType="Integer 16"/>
      <attribute name="i32" optional="YES" attributeType="Integer 32"/>
      <attribute name="i64" optional="YES" attributeType="Integer 64"/>
      <attribute name="double" optional="YES" attributeType="Double"/>
      <attribute name="float" optional="YES" attributeType="Float"/>
      <attribute name="decimal" optional="YES" attributeType="Decimal"/>
      <attribute name="string" optional="YES" attributeType="String"/>
      <attribute name="flag" optional="YES" attributeType="Boolean"/>
      <attribute name="date" optional="YES" attributeType="Date"/>
      <attribute name="binary" optional="YES" attributeType="Binary"/>
      <attribute name="external" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
      <attribute name="uuid" optional="YES" attributeType="UUID"/>
      <attribute name="uri" optional="YES" attributeType="URI"/>
      <attribute name="transformed" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData"/>
    </entity>
    """)

  static func decimal(_ text: String) -> AttributeValue {
    .decimal(Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!)
  }

  static func date(sinceReferenceDate seconds: Double) -> AttributeValue {
    .date(Date(timeIntervalSinceReferenceDate: seconds))
  }

  /// A megabyte of bytes that are not all alike.
  static let megabyte = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })

  /// One object per extreme value: (label, key, value).
  static let samples: [(String, String, AttributeValue)] = [
    ("int16 min", "i16", .integer(Int64(Int16.min))), ("int16 max", "i16", .integer(Int64(Int16.max))),
    ("int32 min", "i32", .integer(Int64(Int32.min))), ("int32 max", "i32", .integer(Int64(Int32.max))),
    ("int64 min", "i64", .integer(.min)), ("int64 max", "i64", .integer(.max)), ("int64 zero", "i64", .integer(0)),
    ("double greatest", "double", .double(.greatestFiniteMagnitude)),
    ("double most negative", "double", .double(-.greatestFiniteMagnitude)),
    ("double least nonzero", "double", .double(.leastNonzeroMagnitude)),
    ("double least normal", "double", .double(.leastNormalMagnitude)),
    ("double negative zero", "double", .double(-0.0)), ("double infinity", "double", .double(.infinity)),
    ("double minus infinity", "double", .double(-.infinity)), ("double pi", "double", .double(.pi)),
    ("double third", "double", .double(1.0 / 3.0)),
    ("float greatest", "float", .float(.greatestFiniteMagnitude)),
    ("float least nonzero", "float", .float(.leastNonzeroMagnitude)), ("float negative zero", "float", .float(-0.0)),
    ("float infinity", "float", .float(.infinity)), ("float minus infinity", "float", .float(-.infinity)),
    ("float tenth", "float", .float(0.1)),
    ("decimal 29 digits", "decimal", decimal("12345678901234567890.123456789")),
    ("decimal 38 digits", "decimal", decimal("-12345678901234567890123456789012345678")),
    ("decimal tiny", "decimal", decimal("0.000000000000000000000000001")),
    ("decimal plain", "decimal", decimal("19.99")),
    ("string empty", "string", .string("")),
    ("string quotes", "string", .string("\"double\" 'single' `back` \\ backslash")),
    ("string newlines", "string", .string("line\nbreak\r\nand\ttab")),
    ("string emoji", "string", .string("family 👩‍👩‍👧‍👦 flag 🇫🇷 astral 𝄞")),
    ("string combining", "string", .string("e\u{301} (combining) vs \u{e9}, a\u{308}\u{323}")),
    ("string nul", "string", .string("before\u{0}after")),
    ("string large", "string", .string(String(repeating: "abcdéf✓ ", count: 100_000))),
    ("flag true", "flag", .boolean(true)), ("flag false", "flag", .boolean(false)),
    ("date milliseconds", "date", date(sinceReferenceDate: 800_000_000.125)),
    ("date before 2001", "date", date(sinceReferenceDate: -31_536_000.5)),
    ("date before 1970", "date", .date(Date(timeIntervalSince1970: -1_000_000_000.75))),
    ("date 1600", "date", .date(Date(timeIntervalSince1970: -11_676_096_000.001))),
    ("binary empty", "binary", .binary(Data())), ("binary megabyte", "binary", .binary(megabyte)),
    ("external empty", "external", .binary(Data())), ("external megabyte", "external", .binary(megabyte)),
    ("uuid zero", "uuid", .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000000")!)),
    ("uuid max", "uuid", .uuid(UUID(uuidString: "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF")!)),
    ("uuid v4", "uuid", .uuid(UUID(uuidString: "123e4567-e89b-42d3-a456-426614174000")!)),
    ("uri web", "uri", .uri(URL(string: "https://example.com/a/b?q=1&r=%20#frag")!)),
    ("uri file", "uri", .uri(URL(string: "file:///tmp/a%20b.txt")!)),
    ("uri urn", "uri", .uri(URL(string: "urn:isbn:0451450523")!)),
    ("uri object", "uri", .uri(URL(string: "x-coredata://ABC/Entity/p1")!)),
    ("transformable bytes", "transformed", .binary(Data("bplist00\u{0}\u{1}\u{2}ÿ".utf8))),
    ("transformable empty", "transformed", .binary(Data())),
  ]

  static func fill(_ context: ObjectContext) throws {
    for (label, key, value) in samples {
      let object = try context.insert(entityNamed: "Sample")
      try object.setValue(.string(label), forKey: "label")
      try object.setValue(value, forKey: key)
    }
    try context.save()
  }

  /// The value of each sample as the store gives it back, by label.
  static func values(in context: ObjectContext) throws -> [String: AttributeValue?] {
    var result: [String: AttributeValue?] = [:]
    for object in try context.fetch(FetchRequest<ManagedObject>(entityName: "Sample")) {
      guard case .string(let label)? = try object.value(forKey: "label"),
        let key = samples.first(where: { $0.0 == label })?.1
      else { continue }
      result[label] = try object.value(forKey: key)
    }
    return result
  }

  /// Whether a value came back as it went in; `milliseconds` compares dates to the millisecond.
  static func same(_ actual: AttributeValue?, _ expected: AttributeValue, milliseconds: Bool = false) -> Bool {
    switch (actual, expected) {
    case (.date(let a)?, .date(let b)) where milliseconds:
      return (a.timeIntervalSince1970 * 1000).rounded() == (b.timeIntervalSince1970 * 1000).rounded()
    case (.double(let a)?, .double(let b)):
      return a == b || (a.isNaN && b.isNaN)
    case (.float(let a)?, .float(let b)):
      return a == b
    default:
      return actual == expected
    }
  }

  @Test("Save and fetch in a fresh context keep every value exactly")
  func saveAndFetch() throws {
    let directory = try TemporaryDirectory()
    let container = try PersistentContainer(
      model: Self.model, options: .file(directory.url.appendingPathComponent("extremes.sqlite")))
    try Self.fill(container.newContext())
    let values = try Self.values(in: container.newContext())
    #expect(values.count == Self.samples.count)
    for (label, _, expected) in Self.samples {
      #expect(Self.same(values[label] ?? nil, expected), "\(label): \(String(describing: values[label]))")
    }
    // SQLite writes a REAL without a fraction as an integer, so negative zero reads back as 0.
    if case .double(let zero)?? = values["double negative zero"] { #expect(zero == 0) }
  }

  @Test("Export to JSON text and import into another store keep every value")
  func exportImport() throws {
    let source = try PersistentContainer(model: Self.model, options: .inMemory)
    try Self.fill(source.newContext())
    let text = JSONWriter.prettyPrinted(try StoreExport.json(of: source.newContext()))
    // The text has what the format promises.
    #expect(text.contains("\"i64\": 9223372036854775807"))
    #expect(text.contains("\"i64\": -9223372036854775808"))
    #expect(text.contains("\"double\": 1.7976931348623157e+308"))
    #expect(text.contains("\"double\": 5e-324"))
    #expect(text.contains("\"double\": \"-inf\""))
    #expect(text.contains("\"float\": 3.4028235e+38"))
    #expect(text.contains("\"decimal\": \"12345678901234567890.123456789\""))
    #expect(text.contains("\"date\": \"2026-05-09T06:13:20.125Z\""))
    #expect(text.contains("\"date\": \"1938-04-24T22:13:19.250Z\""))
    #expect(text.contains("\"date\": \"1599-12-31T23:59:59.999Z\""))
    #expect(text.contains("\"uuid\": \"123E4567-E89B-42D3-A456-426614174000\""))
    #expect(text.contains("\"string\": \"before\\u0000after\""))

    let destination = try PersistentContainer(model: Self.model, options: .inMemory)
    let summary = try StoreImport.importJSON(text, into: destination.newContext())
    #expect(summary.total == Self.samples.count)
    let values = try Self.values(in: destination.newContext())
    for (label, _, expected) in Self.samples {
      #expect(
        Self.same(values[label] ?? nil, expected, milliseconds: true), "\(label): \(String(describing: values[label]))")
    }
  }

  @Test("NaN is refused at save, naming the entity, attribute and object, and in an import")
  func notANumber() throws {
    let container = try PersistentContainer(model: Self.model, options: .inMemory)
    let context = container.newContext()
    let object = try context.insert(entityNamed: "Sample")
    try object.setValue(.string("nan"), forKey: "label")
    try object.setValue(.double(.nan), forKey: "double")
    try object.setValue(.float(.nan), forKey: "float")
    do {
      try context.save()
      Issue.record("saving NaN should fail")
    } catch {
      let failures = error.validationFailures
      #expect(failures.map(\.rule) == [.unstorableValue, .unstorableValue])
      #expect(failures.map(\.property) == ["double", "float"])
      #expect(failures.allSatisfy { $0.entity == "Sample" && $0.objectID == object.objectID })
    }
    #expect(throws: StoreImportError.self) {
      try StoreImport.importJSON(
        #"{"Sample": [{"_id": "n", "label": "n", "double": "nan"}]}"#, into: container.newContext())
    }
  }
}
