import Foundation
import SQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What the file system says about a store file, checked before SQLite opens it and used to
/// explain SQLite's failures in the user's terms.
///
/// SQLite reports a directory, an unreadable file and a missing folder alike as "unable to open
/// database file", a text file as "file is not a database" and a read-only folder as "attempt to
/// write a readonly database" on the first read; these checks name the actual problem and what
/// to do about it.
package struct StoreFile: Sendable, Hashable {
  /// The store file.
  package let url: URL

  package init(_ url: URL) {
    self.url = url
  }

  /// The first 16 bytes of every SQLite database file.
  static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

  /// Checks that the file can be opened as a store: it is a regular file, readable, and (unless
  /// it is empty and `allowsEmpty`) starts with SQLite's header and is as long as that header
  /// says. Throws ``PersistenceError/notAStore(path:reason:)`` or
  /// ``PersistenceError/storeInaccessible(path:reason:)``.
  package func checkReadable(allowsEmpty: Bool) throws {
    let path = url.path
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw PersistenceError.storeNotFound(path)
    }
    if isDirectory.boolValue {
      throw PersistenceError.notAStore(
        path: path, reason: "it is a directory; pass the path of the store's .sqlite file")
    }
    guard access(path, R_OK) == 0 else {
      throw PersistenceError.storeInaccessible(
        path: path, reason: "the file is not readable (permission denied); check its permissions")
    }
    guard let header = Self.readHeader(path) else {
      throw PersistenceError.storeInaccessible(path: path, reason: "the file cannot be opened for reading")
    }
    if header.isEmpty {
      if allowsEmpty { return }
      throw PersistenceError.notAStore(path: path, reason: "the file is empty (0 bytes)")
    }
    guard header.count >= Self.sqliteHeader.count, Array(header.prefix(Self.sqliteHeader.count)) == Self.sqliteHeader
    else {
      throw PersistenceError.notAStore(
        path: path, reason: "it is not a SQLite database (it lacks SQLite's file header)")
    }
    guard header.count == 100 else {
      throw PersistenceError.notAStore(
        path: path, reason: "it is truncated: \(header.count) bytes, shorter than SQLite's 100-byte header")
    }
    try checkLength(header: header)
  }

  /// The file's first 100 bytes (fewer when it is shorter), read with the system's calls; nil
  /// when it cannot be opened. Every container opening a store reads this: `FileHandle` read
  /// it through a buffer of the file system's block size, a large allocation each time.
  private static func readHeader(_ path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 100)
    var filled = 0
    let complete = header.withUnsafeMutableBytes { buffer -> Bool in
      while filled < buffer.count {
        let count = read(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
        if count > 0 {
          filled += count
        } else if count == 0 || errno != EINTR {
          return count == 0
        }
      }
      return true
    }
    // A read error after opening is reported as an unreadable file, as an open failure is.
    guard complete else { return nil }
    header.removeSubrange(filled...)
    return header
  }

  /// A file shorter than the page count its header records lost its end (a copy cut short), unless
  /// a write-ahead log holds pages not yet copied back into it.
  private func checkLength(header: [UInt8]) throws {
    let rawPageSize = Int(header[16]) << 8 | Int(header[17])
    let pageSize = rawPageSize == 1 ? 65_536 : rawPageSize
    let pageCount = header[28..<32].reduce(0) { $0 << 8 | Int($1) }
    let changeCounter = header[24..<28].reduce(0) { $0 << 8 | Int($1) }
    let validFor = header[92..<96].reduce(0) { $0 << 8 | Int($1) }
    guard pageSize >= 512, pageCount > 0, changeCounter == validFor else { return }
    guard (Self.fileSize(url.path + "-wal") ?? 0) == 0 else { return }
    let size = Self.fileSize(url.path) ?? 0
    if size < pageSize * pageCount {
      throw PersistenceError.notAStore(
        path: url.path,
        reason:
          "it is truncated: \(size) bytes where its header records \(pageCount) pages of \(pageSize) bytes; restore it from a backup"
      )
    }
  }

  /// The size in bytes of the file at `path`; nil when there is none (or it cannot be read).
  ///
  /// Read with `stat`: every container opening a store asks for two sizes, and
  /// `FileManager.attributesOfItem` gathers every attribute (owner and group names among them,
  /// looked up in the user database) for each — about a million instructions a call, a
  /// millisecond of every container's opening.
  static func fileSize(_ path: String) -> Int? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return Int(status.st_size)
  }

  /// Whether SQLite can write the store: the file and its folder (where the `-wal`, `-shm` and
  /// journal files go) are writable. Nil when they are; otherwise why not.
  package var readOnlyReason: String? {
    let folder = url.deletingLastPathComponent().path
    if FileManager.default.fileExists(atPath: url.path), access(url.path, W_OK) != 0 {
      return "the file is read-only; make it writable (chmod u+w) to change the store"
    }
    if access(folder.isEmpty ? "." : folder, W_OK) != 0 {
      return
        "its folder '\(folder)' is not writable, and SQLite needs to create the store's -wal and -shm files there; make the folder writable, or copy the store elsewhere"
    }
    return nil
  }

  /// Where a read-only connection opens the store: the file itself, or, when its folder is not
  /// writable and no write-ahead log exists (so the file holds every committed change), the file
  /// as an immutable database, which SQLite reads without creating a `-shm` file.
  package var readOnlyLocation: SQLiteConnection.Location {
    let folder = url.deletingLastPathComponent().path
    let hasLog = FileManager.default.fileExists(atPath: url.path + "-wal")
    guard access(folder.isEmpty ? "." : folder, W_OK) != 0, !hasLog else { return .file(url.path) }
    return .uri("file:\(Self.percentEncodedPath(url.path))?mode=ro&immutable=1")
  }

  /// A path in a URI filename: every byte but unreserved characters and `/` percent-encoded.
  static func percentEncodedPath(_ path: String) -> String {
    let hex = Array("0123456789ABCDEF")
    var encoded = ""
    for byte in path.utf8 {
      switch byte {
      case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
        UInt8(ascii: "~"), UInt8(ascii: "/"):
        encoded.unicodeScalars.append(Unicode.Scalar(byte))
      default:
        encoded += "%"
        encoded.append(hex[Int(byte >> 4)])
        encoded.append(hex[Int(byte & 0x0f)])
      }
    }
    return encoded
  }

  /// The error to report for a SQLite failure on this store: a clear ``PersistenceError`` when
  /// the failure is about the file (not a database, damaged, read-only, disk full, cannot be
  /// opened), otherwise `error` itself.
  package func explain(_ error: any Error) -> any Error {
    guard let error = error as? SQLiteError else { return error }
    let path = url.path
    switch error.code {
    case .notADatabase:
      return PersistenceError.notAStore(path: path, reason: "it is not a SQLite database")
    case .corrupt:
      return PersistenceError.notAStore(
        path: path, reason: "the SQLite database is damaged (\(error.message)); restore it from a backup")
    case .readOnly:
      return PersistenceError.storeInaccessible(
        path: path, reason: readOnlyReason ?? "SQLite opened it read-only (\(error.message))")
    case .busy:
      return PersistenceError.storeInaccessible(
        path: path,
        reason: "another process kept the store locked past the busy timeout (\(error.message)); try again")
    case .full:
      return PersistenceError.storeInaccessible(
        path: path,
        reason:
          "the disk is full (or the store reached its size limit); nothing was written: free some space and try again")
    case .cannotOpen:
      do {
        try checkReadable(allowsEmpty: true)
      } catch {
        return error
      }
      return PersistenceError.storeInaccessible(
        path: path, reason: readOnlyReason ?? "SQLite cannot open it (\(error.message))")
    case .ioError:
      do {
        try checkReadable(allowsEmpty: true)
      } catch {
        return error
      }
      return error
    default:
      return error
    }
  }
}
