import Foundation
import Persistence
import TestSupport
import Testing

/// Damaged metadata property lists are refused with an error, never handed to Foundation in a
/// shape that crashes it (found by the `MetadataPlist` fuzz target).
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
}
