extension SQLiteConnection {
  /// Where a database lives.
  public enum Location: Sendable, Hashable {
    /// A database file. Relative paths are relative to the working directory.
    case file(String)
    /// A URI filename (`file:data.db?mode=ro&immutable=1`) with SQLite's query parameters.
    case uri(String)
    /// A private, temporary in-memory database, gone when the connection closes.
    case inMemory
    /// An in-memory database shared by every connection in this process that opens the same
    /// name (SQLite's `memdb` VFS), alive while at least one of them is open.
    ///
    /// Behaves like a file for locking and transactions, which makes it the fast stand-in
    /// for two-connection tests.
    case sharedInMemory(name: String)

    /// The filename passed to `sqlite3_open_v2`.
    var filename: String {
      switch self {
      case .file(let path): return path
      case .uri(let uri): return uri
      case .inMemory: return ":memory:"
      case .sharedInMemory(let name): return "file:/\(Self.percentEncoded(name))?vfs=memdb"
      }
    }

    /// Whether `filename` must be parsed as a URI.
    var isURI: Bool {
      switch self {
      case .uri, .sharedInMemory: return true
      case .file, .inMemory: return false
      }
    }

    private static func percentEncoded(_ name: String) -> String {
      let hex = Array("0123456789ABCDEF")
      var encoded = ""
      for byte in name.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
          UInt8(ascii: "~"):
          encoded.unicodeScalars.append(Unicode.Scalar(byte))
        default:
          encoded += "%"
          encoded.append(hex[Int(byte >> 4)])
          encoded.append(hex[Int(byte & 0x0f)])
        }
      }
      return encoded
    }
  }
}
