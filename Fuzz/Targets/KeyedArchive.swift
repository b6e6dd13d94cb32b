import Foundation
import Migration
import Persistence

/// Binary property lists and keyed archives: any bytes decode or throw, never crash, loop or
/// run away; what decodes is walked object by object, read as an expression, a model snapshot
/// and a user info dictionary, and an expression that reads is archived and read back equal.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeyedArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
  let bytes = Data(bytes: data, count: size)
  guard let plist = try? BinaryPropertyList.decode(bytes) else { return 0 }
  // Compared as bytes: a NaN read back is the same NaN, though not equal to itself.
  let encoded = BinaryPropertyList.encode(plist)
  precondition(
    (try? BinaryPropertyList.decode(encoded)).map(BinaryPropertyList.encode) == encoded, "plist round trip")
  guard let archive = try? KeyedArchive(data: bytes) else { return 0 }
  // Each object is walked once: an object reached again (archives of model snapshots point
  // back at their owners) decodes to the same fields, so walking it again only repeats work.
  var budget = 10_000
  var walked: Set<Int> = []
  func walk(_ value: KeyedArchive.Value, depth: Int) {
    budget -= 1
    guard budget > 0, depth < 64 else { return }
    if case .object(let object) = value, !walked.insert(object.index).inserted { return }
    switch value {
    case .array(let values): for element in values { walk(element, depth: depth + 1) }
    case .dictionary(let pairs):
      for pair in pairs {
        walk(pair.key, depth: depth + 1)
        walk(pair.value, depth: depth + 1)
      }
    case .object(let object):
      for key in object.fields.keys.sorted() {
        if let field = try? object.value(forKey: key) { walk(field, depth: depth + 1) }
      }
    default: break
    }
  }
  if let root = try? archive.root() { walk(root, depth: 0) }
  if let expression = try? MappingExpression(archive: bytes) {
    let archived = expression.archiveData()
    precondition(
      (try? MappingExpression(archive: archived))?.archiveData() == archived, "expression round trip")
    _ = expression.description
  }
  _ = try? ModelSnapshot.decode(bytes, name: "Fuzz")
  _ = try? MappingModelSource.read(bytes, path: "fuzz.cdm", name: "Fuzz")
  return 0
}
