import Foundation

/// A structural check of a binary property list before Foundation reads it.
///
/// On Linux, `PropertyListSerialization` crashes (a null dereference while bridging an `NSSet`)
/// on some damaged binary property lists whose object table holds a set; the `MetadataPlist`
/// fuzz target found one in a store's `Z_PLIST`. Core Data's metadata never holds a set, so a
/// binary list whose objects include one, or whose trailer or offsets point outside the data,
/// is refused here as "not a property list" instead.
enum BinaryPropertyListCheck {
  /// Why the bytes must not be given to Foundation, or nil when they may (including every
  /// property list that is not binary).
  static func problem(in data: Data) -> String? {
    let bytes = [UInt8](data)
    guard bytes.count >= 8, bytes.starts(with: Array("bplist".utf8)) else { return nil }
    guard bytes.count >= 8 + 32 else { return "the binary property list is truncated" }
    let trailer = Array(bytes.suffix(32))
    let offsetSize = Int(trailer[6])
    let objectCount = integer(trailer[8..<16])
    let offsetTable = integer(trailer[24..<32])
    let tableEnd = UInt64(bytes.count - 32)
    guard (1...8).contains(offsetSize), objectCount >= 1, objectCount < tableEnd, offsetTable >= 8,
      offsetTable < tableEnd, objectCount * UInt64(offsetSize) <= tableEnd - offsetTable
    else {
      return "the binary property list's trailer is damaged"
    }
    for index in 0..<Int(objectCount) {
      let start = Int(offsetTable) + index * offsetSize
      let offset = integer(bytes[start..<start + offsetSize])
      guard offset >= 8, offset < offsetTable else {
        return "an object offset of the binary property list points outside it"
      }
      if bytes[Int(offset)] >> 4 == 0xC {
        return "the binary property list holds a set, which store metadata never does"
      }
    }
    return nil
  }

  /// A big-endian unsigned integer of up to 8 bytes.
  private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reduce(0) { $0 << 8 | UInt64($1) }
  }
}
