import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

/// Damaged metadata property lists are refused with an error, never handed to Foundation in a
/// shape that crashes it (found by the `MetadataPlist` fuzz target). Binary metadata is read by
/// modelc's own reader; it must read what Foundation reads, value for value.
@Suite("Metadata property lists")
struct MetadataPropertyListTests {
  @Test("A binary property list whose object table holds a set is refused, not a crash")
  func setInObjectTableIsRefused() throws {
    let data = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("fuzz/metadata-set-crash.bplist"))
    #expect {
      _ = try StoreMetadata(storeUUID: "X", propertyList: data)
    } throws: { error in
      "\(error)".contains("not a property list") && "\(error)".contains("set")
    }
  }

  @Test("Truncated and damaged binary property lists are refused", arguments: [8, 20, 39, 100])
  func truncatedIsRefused(length: Int) throws {
    let metadata = StoreMetadata(model: try ModelBundle(contentsOf: TestPaths.tasksModel.path).currentVersion)
    let data = try metadata.propertyListData()
    #expect(throws: (any Error).self) {
      _ = try StoreMetadata(storeUUID: "X", propertyList: data.prefix(length))
    }
  }

  @Test("Metadata written here reads back through the check")
  func roundTrip() throws {
    let metadata = StoreMetadata(model: try ModelBundle(contentsOf: TestPaths.tasksModel.path).currentVersion)
    let read = try StoreMetadata(storeUUID: metadata.storeUUID, propertyList: try metadata.propertyListData())
    #expect(read == metadata)
  }

  /// Metadata is written by our own binary property list writer: `PropertyListSerialization`
  /// could not bridge the entries when Foundation was linked statically (release `task`), and no
  /// new store could be created.
  @Test("Metadata is written as a binary property list Foundation reads, the same bytes for the same metadata")
  func writtenWithoutFoundation() throws {
    var metadata = StoreMetadata(model: try ModelBundle(contentsOf: TestPaths.tasksModel.path).currentVersion)
    metadata.entries["zFlag"] = .bool(true)
    metadata.entries["aReal"] = .real(1.5)
    metadata.entries["mDate"] = .date(Date(timeIntervalSinceReferenceDate: 12_345))
    metadata.entries["nested"] = .array([.integer(-7), .dictionary(["k": .string("é ☃")])])
    let data = try metadata.propertyListData()
    #expect(data.starts(with: Array("bplist00".utf8)))
    #expect(try metadata.propertyListData() == data)
    // Foundation reads it, value for value.
    var format = PropertyListSerialization.PropertyListFormat.xml
    let object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
    #expect(format == .binary)
    let dictionary = try #require(object as? [String: Any])
    #expect(Set(dictionary.keys) == Set(metadata.entries.keys))
    #expect(PropertyListValue(foundationValue: object) == .dictionary(metadata.entries))
    // Keys are written sorted: inserting entries in another order changes nothing.
    var reordered = StoreMetadata(storeUUID: metadata.storeUUID, entries: [:])
    for key in metadata.entries.keys.sorted(by: >) { reordered.entries[key] = metadata.entries[key] }
    #expect(try reordered.propertyListData() == data)
  }

  @Test("Binary metadata is read value for value as Foundation reads it, in every real store")
  func realStoresReadAsFoundationDoes() throws {
    guard let corpus = TestPaths.corpus else {
      print("skipped: \(TestPaths.corpusAbsentReason)")
      return
    }
    let stores = corpus.appendingPathComponent("stores")
    let directory = TestPaths.temporaryDirectory("metadata-corpus")
    var read = 0
    for project in try FileManager.default.contentsOfDirectory(atPath: stores.path).sorted() {
      let files = try FileManager.default.contentsOfDirectory(atPath: stores.appendingPathComponent(project).path)
      for file in files.sorted() where !file.hasSuffix("-wal") && !file.hasSuffix("-shm") {
        let folder = directory.appendingPathComponent("\(project)-\(file)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = try #require(try TestPaths.copyOfCorpusStore(project, file, into: folder))
        let connection = try SQLiteConnection(.file(copy.path))
        let row = try connection.firstRow("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") {
          ($0.text(at: 0), $0.data(at: 1))
        }
        try connection.close()
        let (uuid, plist) = try #require(row)
        #expect(plist.starts(with: Array("bplist00".utf8)), "\(project)/\(file)")
        let ours = try StoreMetadata(storeUUID: uuid, propertyList: plist)
        let foundation = PropertyListValue(
          foundationValue: try PropertyListSerialization.propertyList(from: plist, options: [], format: nil))
        #expect(.dictionary(ours.entries) == foundation, "\(project)/\(file)")
        #expect(!ours.entityHashes.isEmpty, "\(project)/\(file)")
        read += 1
      }
    }
    #expect(read >= 6)
  }

  @Test("Metadata in Foundation's XML format is still read")
  func xmlIsRead() throws {
    let entries: [String: Any] = [
      "NSStoreType": "SQLite", "NSPersistenceFrameworkVersion": 1333,
      "NSStoreModelVersionHashes": ["Task": Data([1, 2, 3])], "flag": true,
    ]
    let xml = try PropertyListSerialization.data(fromPropertyList: entries, format: .xml, options: 0)
    let metadata = try StoreMetadata(storeUUID: "X", propertyList: xml)
    #expect(metadata.entries["NSStoreType"] == .string("SQLite"))
    #expect(metadata.writtenByFrameworkVersion == 1333)
    #expect(metadata.entityHashes == ["Task": Data([1, 2, 3])])
    #expect(metadata.entries["flag"] == .bool(true))
  }

  @Test(
    "Binary values metadata cannot hold are refused with what they are",
    arguments: [
      (BinaryPropertyList.Value.set([.integer(1)]), "set"),
      (.uid(3), "object reference"),
      (.null, "null"),
      (.dictionary([(key: .integer(1), value: .string("x"))]), "key of kind integer"),
    ])
  func unrepresentableValuesAreRefused(value: BinaryPropertyList.Value, named: String) {
    let data = BinaryPropertyList.encode(.dictionary([(key: .string("k"), value: value)]))
    #expect {
      _ = try StoreMetadata(storeUUID: "X", propertyList: data)
    } throws: { error in
      "\(error)".contains("not a property list") && "\(error)".contains(named)
    }
  }

  @Test(
    "A key listed twice keeps its first value, as Foundation does, and a top level that is not a dictionary is refused")
  func duplicateKeysAndTopLevel() throws {
    let twice = BinaryPropertyList.encode(
      .dictionary([(key: .string("k"), value: .integer(1)), (key: .string("k"), value: .integer(2))]))
    #expect(try StoreMetadata(storeUUID: "X", propertyList: twice).entries == ["k": .integer(1)])
    let foundation = try PropertyListSerialization.propertyList(from: twice, options: [], format: nil)
    #expect(PropertyListValue(foundationValue: foundation) == .dictionary(["k": .integer(1)]))
    let array = BinaryPropertyList.encode(.array([.string("a")]))
    #expect {
      _ = try StoreMetadata(storeUUID: "X", propertyList: array)
    } throws: { error in
      "\(error)".contains("not a dictionary")
    }
  }
}
