import Foundation
import Persistence

/// Reading a corrupted store file: any bytes as a `.sqlite` file are refused as "not a store"
/// or read (metadata, then every object through a read-only container), never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoreFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let file = StoreFileScratch.shared
  for suffix in ["-wal", "-shm"] { unlink(file.path + suffix) }
  _ = FileManager.default.createFile(atPath: file.path, contents: Data(bytes: data, count: size))
  let url = URL(fileURLWithPath: file.path)
  guard let metadata = try? StoreMetadata.read(fromStoreAt: url),
    let version = metadata.matchingVersion(in: file.bundle)
  else { return 0 }
  guard
    let container = try? PersistentContainer(
      bundle: file.bundle, versionName: version.name,
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
  else { return 0 }
  _ = try? StoreExport.json(of: container.newContext())
  return 0
}

/// The scratch store path and the Tasks bundle, made once per process.
final class StoreFileScratch: @unchecked Sendable {
  static let shared = StoreFileScratch()
  let path = NSTemporaryDirectory() + "modelc-fuzz-store-\(getpid()).sqlite"
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
