import Foundation
import Persistence
import TestSupport
import Testing

/// Values of attributes that allow external storage, read back by every reader.
///
/// The case from a real model: a `Transformable` attribute with "Allows External Storage"
/// ticked in Xcode. Core Data keeps its inline values behind a `0x01` marker byte. Fetched
/// objects (decoded on the fast path) used to get the marker as the first byte of their data
/// while `fetchDictionaries` stripped it. Every attribute type, with external storage allowed or
/// not, must read back exactly what was saved, through objects and dictionaries alike.
@Suite("Reading attributes that allow external storage")
struct ExternalStorageReadingTests {
  /// A value of each attribute type that has a column.
  static let samples: [(type: String, value: AttributeValue)] = [
    ("Integer 16", .integer(-7)),
    ("Integer 32", .integer(70_000)),
    ("Integer 64", .integer(1 << 40)),
    ("Decimal", .decimal(Decimal(string: "12.25")!)),
    ("Double", .double(2.5)),
    ("Float", .float(1.5)),
    ("String", .string("café")),
    ("Boolean", .boolean(true)),
    ("Date", .date(Date(timeIntervalSinceReferenceDate: 100.5))),
    ("Binary", .binary(Data([0x01, 0x02, 0xFF]))),
    ("UUID", .uuid(UUID(uuidString: "6F99DCEB-E351-44B4-A9EE-E419C7F1A040")!)),
    ("URI", .uri(URL(string: "https://example.com/a?b=c")!)),
    ("Transformable", .binary(Data([0x62, 0x70, 0x6C, 0x69, 0x73, 0x74]))),
  ]

  static let cases: [(type: String, value: AttributeValue, external: Bool)] = samples.flatMap {
    [($0.type, $0.value, false), ($0.type, $0.value, true)]
  }

  @Test("Objects and dictionaries read back the saved value", arguments: cases)
  func readBack(type: String, value: AttributeValue, external: Bool) throws {
    let model = ContextFixtures.model(
      """
      <entity name="Record" representedClassName="Record" syncable="YES">
          <attribute name="payload" optional="YES" attributeType="\(type)"\
      \(external ? " allowsExternalBinaryDataStorage=\"YES\"" : "") syncable="YES"/>
      </entity>
      """)
    let url = TestPaths.temporaryDirectory("external-reading").appendingPathComponent("Records.sqlite")
    do {
      let context = try PersistentContainer(model: model, options: .file(url)).newContext()
      let record = try context.insert(entityNamed: "Record")
      try record.setValue(value, forKey: "payload")
      try context.save()
    }
    let context = try PersistentContainer(model: model, options: .file(url)).newContext()
    let objects = try context.fetch(FetchRequest<ManagedObject>(entityName: "Record"))
    #expect(try objects.map { try $0.value(forKey: "payload") } == [value], "\(type), external \(external)")
    var request = FetchRequest<ManagedObject>(entityName: "Record")
    request.propertiesToFetch = ["payload"]
    #expect(try context.fetchDictionaries(request).map { $0["payload"] } == [.attribute(value)])
  }
}
