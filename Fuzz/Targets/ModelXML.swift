import DataModel

/// The model XML reader (`contents`): any bytes give a model or diagnostics, never a crash; a
/// model that reads is validated and hashed too.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzModelXML(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let xml = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  let (version, _) = ModelReader.readVersion(xml: xml, name: "Fuzz")
  if let version {
    _ = version.versionHashes
  }
  return 0
}
