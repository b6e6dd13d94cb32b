import CSQLite

extension SQLiteConnection {
  /// The access a connection asks for when it opens a database.
  public enum OpenMode: Sendable, Hashable {
    /// Read only; the database must exist. Writes fail with `SQLITE_READONLY`.
    case readOnly
    /// Read and write; the database must exist.
    case readWrite
    /// Read and write, creating an empty database if there is none.
    case readWriteCreate

    /// The `SQLITE_OPEN_*` access flags.
    var openFlags: Int32 {
      switch self {
      case .readOnly: return SQLITE_OPEN_READONLY
      case .readWrite: return SQLITE_OPEN_READWRITE
      case .readWriteCreate: return SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
      }
    }
  }
}
