import Foundation
import Persistence

/// Core Data's metadata property list (`Z_METADATA.Z_PLIST`): any bytes are metadata or an
/// error, never a crash; metadata that reads is matched against a model and written back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMetadataPlist(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  guard let metadata = try? StoreMetadata(storeUUID: "FUZZ", propertyList: Data(bytes: data, count: size)) else {
    return 0
  }
  _ = metadata.entityHashes
  _ = metadata.writtenByFrameworkVersion
  _ = metadata.closestVersion(in: FuzzModel.bundle)
  _ = try? metadata.propertyListData()
  return 0
}
