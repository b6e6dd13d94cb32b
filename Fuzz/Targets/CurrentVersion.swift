import DataModel
import Foundation

/// `.xccurrentversion`: a bundle with two versions and these bytes as its current-version
/// property list reads to a bundle or diagnostics, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCurrentVersion(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bundle = FuzzBundle.shared
  _ = FileManager.default.createFile(atPath: bundle.currentVersionPath, contents: Data(bytes: data, count: size))
  let result = ModelReader.read(path: bundle.path, validate: false)
  _ = result.bundle?.currentVersion.name
  return 0
}

/// A two-version bundle in the temporary folder, made once per fuzzing process.
final class FuzzBundle: @unchecked Sendable {
  static let shared = FuzzBundle()
  let path: String
  let currentVersionPath: String

  init() {
    let root = NSTemporaryDirectory() + "modelc-fuzz-\(getpid())/Fuzz.xcdatamodeld"
    path = root
    currentVersionPath = root + "/.xccurrentversion"
    let contents = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
          <entity name="Item" representedClassName="Item" syncable="YES">
              <attribute name="name" optional="YES" attributeType="String"/>
          </entity>
      </model>
      """
    for name in ["Fuzz", "Fuzz 2"] {
      let directory = root + "/\(name).xcdatamodel"
      try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      _ = FileManager.default.createFile(atPath: directory + "/contents", contents: Data(contents.utf8))
    }
  }
}
