import Foundation
import SQLite

/// What the column of a Binary attribute that allows external storage holds: Core Data's marker
/// byte, then either the bytes themselves or the name of a file in the store's
/// `_EXTERNAL_DATA` folder.
///
/// - inline: `0x01` followed by the bytes;
/// - external: `0x02`, the file's name (an uppercase UUID, 36 ASCII characters), `0x00` — 38
///   bytes in all.
///
/// Values longer than ``threshold`` bytes go to a file, shorter ones stay in the row. The layout
/// and the threshold are those reported for Core Data's own writer (`docs/store-format.md` §3);
/// no store of the corpus holds an external value, so they are [unverified] against a real
/// store.
public enum ExternalDataReference {
  /// The marker of a value kept in the row.
  public static let inlineMarker: UInt8 = 0x01
  /// The marker of a value kept in a file.
  public static let externalMarker: UInt8 = 0x02
  /// Values longer than this many bytes are written to a file (128 KiB).
  public static let threshold = 131_072

  /// Whether a value of this many bytes is written to a file.
  public static func isExternal(byteCount: Int) -> Bool {
    byteCount > threshold
  }

  /// The column bytes of a value kept inline.
  public static func inline(_ data: Data) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(data.count + 1)
    bytes.append(inlineMarker)
    bytes.append(contentsOf: data)
    return bytes
  }

  /// The column bytes referring to the file `name`.
  public static func reference(to name: String) -> [UInt8] {
    [externalMarker] + Array(name.utf8) + [0]
  }

  /// The file name a column value refers to, or nil when it holds no reference.
  public static func fileName(in stored: SQLiteValue) -> String? {
    guard case .blob(let bytes) = stored else { return nil }
    return fileName(in: bytes)
  }

  /// The file name column bytes refer to, or nil when they hold no reference. The name is read
  /// up to the first `0x00`; a name that could leave the folder (`/`, `..`) is no reference.
  public static func fileName(in bytes: [UInt8]) -> String? {
    guard bytes.first == externalMarker else { return nil }
    let name = String(decoding: bytes.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
    guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
    return name
  }
}
