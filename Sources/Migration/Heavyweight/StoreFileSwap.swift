import Foundation
import Persistence
import SQLite

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts a finished store file in place of the original, atomically, and removes what a killed
/// migration left behind.
///
/// A store in WAL mode is three files (`store`, `store-wal`, `store-shm`), and a `-wal` left
/// next to a new main file would be replayed into it. So the swap is:
/// 1. the new file is complete and self-contained (checkpointed, rollback-journal mode, synced);
/// 2. the original is checkpointed and switched to rollback-journal mode too, which removes its
///    `-wal` (its content is unchanged: a kill here leaves it as it was, in another journal mode);
/// 3. the backup, when wanted, is a hard link to the original (the same bytes, no copy);
/// 4. `rename(2)` replaces the original with the new file in one step, and the folder is synced.
/// A kill before step 4 leaves the original; after it, the new store. Either way no `-wal` of
/// one file can meet the other.
enum StoreFileSwap {
  /// The suffixes of a store's companion files.
  static let companions = ["-wal", "-shm", "-journal"]

  /// Removes a store file and its companions, if present.
  static func removeStoreFiles(at url: URL) {
    for suffix in [""] + companions {
      try? FileManager.default.removeItem(atPath: url.path + suffix)
    }
  }

  /// Flushes a file to disk.
  static func synchronize(_ url: URL) throws {
    let handle = try FileHandle(forUpdating: url)
    defer { try? handle.close() }
    try handle.synchronize()
  }

  /// Flushes a folder's entries (a rename in it) to disk.
  static func synchronizeFolder(_ url: URL) {
    let descriptor = open(url.path, O_RDONLY)
    guard descriptor >= 0 else { return }
    _ = fsync(descriptor)
    close(descriptor)
  }

  /// Checkpoints a store's `-wal` into it and switches it to rollback-journal mode, which
  /// removes the `-wal`; its content is unchanged.
  static func makeSelfContained(_ url: URL) throws {
    let connection = try SQLiteConnection(.file(url.path), mode: .readWrite)
    defer { try? connection.close() }
    connection.busyTimeout = .seconds(30)
    try makeSelfContained(connection)
    try connection.close()
  }

  /// The same on an open connection, which must be the file's only one.
  static func makeSelfContained(_ connection: SQLiteConnection) throws {
    try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    _ = try connection.setJournalMode(.delete)
  }

  /// Replaces the store at `storeURL` with the finished file at `newURL`; keeps the original
  /// at `backupURL` when given.
  static func replace(storeAt storeURL: URL, with newURL: URL, backupURL: URL?) throws {
    do {
      try makeSelfContained(storeURL)
    } catch let error as SQLiteError where error.code == .busy || error.code == .locked {
      throw MigrationEngineError.verification(
        "the store is open in another connection or process, so it cannot be replaced; close it (quit the app using it) and migrate again"
      )
    }
    if let backupURL {
      PhaseTrace.record("migrate: swap (backup link)")
      if link(storeURL.path, backupURL.path) != 0 {
        try FileManager.default.copyItem(at: storeURL, to: backupURL)
      }
      try synchronize(backupURL)
    }
    PhaseTrace.record("migrate: swap (rename)")
    guard rename(newURL.path, storeURL.path) == 0 else {
      throw MigrationEngineError.verification(
        "the new store could not replace \(storeURL.path): \(String(cString: strerror(errno)))")
    }
    PhaseTrace.record("migrate: swap (renamed)")
    for suffix in companions {
      try? FileManager.default.removeItem(atPath: storeURL.path + suffix)
    }
    synchronizeFolder(storeURL.deletingLastPathComponent())
  }
}
