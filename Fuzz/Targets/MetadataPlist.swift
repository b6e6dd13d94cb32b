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
  _ = metadata.closestVersion(in: MetadataBundle.shared.bundle)
  _ = try? metadata.propertyListData()
  return 0
}

/// The Tasks bundle, loaded once per process.
final class MetadataBundle: @unchecked Sendable {
  static let shared = MetadataBundle()
  let bundle: ModelBundle

  init() {
    let modelPath = ProcessInfo.processInfo.environment["MODELC_FUZZ_MODEL"] ?? "Models/Tasks.xcdatamodeld"
    do {
      bundle = try ModelBundle(contentsOf: modelPath)
    } catch {
      fatalError("the Tasks model cannot be loaded (run from the package root, or set MODELC_FUZZ_MODEL): \(error)")
    }
  }
}
