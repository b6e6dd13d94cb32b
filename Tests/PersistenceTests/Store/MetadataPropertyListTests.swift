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
}
