import Persistence

/// Sort descriptor parsing (`--sort`): any text is a list of descriptors or a syntax error;
/// a parsed list prints back to text that parses to the same list.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSort(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
  guard let descriptors = try? FetchSortDescriptor.list(parsing: text) else { return 0 }
  let printed = descriptors.map(\.description).joined(separator: ",")
  guard !descriptors.isEmpty else { return 0 }
  guard let reparsed = try? FetchSortDescriptor.list(parsing: printed), reparsed == descriptors else {
    fatalError("\(text.debugDescription) parses, but its printed form \(printed.debugDescription) does not parse back")
  }
  return 0
}
