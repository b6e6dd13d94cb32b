import DataModel
import Foundation
import Migration

/// Mapping models: any bytes, as `xcmapping.xml` or as a compiled `.cdm`, are a mapping model or
/// a `MappingReadError`, never a crash; one that reads is matched to the Tasks model, checked,
/// and printed as JSON and text.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMappingModel(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(bytes: data, count: size)
  guard let source = try? MappingModelSource.read(bytes, path: "fuzz/xcmapping.xml", name: "Fuzz") else { return 0 }
  let bundle = FuzzModel.bundle
  guard let loaded = try? MappingModelLoader.load(source, bundle: bundle) else { return 0 }
  _ = MappingChecker.check(loaded, bundle: bundle)
  _ = JSONWriter.prettyPrinted(loaded.json)
  _ = loaded.text
  return 0
}
