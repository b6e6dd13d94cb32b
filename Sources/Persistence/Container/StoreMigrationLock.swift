import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One migration of a store at a time across processes: an exclusive `flock` on the store's
/// folder, held while a process checks the store's version and migrates it.
///
/// Without it, two processes opening an older store at once both migrate it: both write a backup
/// under the same name (the time has a one-second resolution) and the second fails with "file
/// exists" (found by the concurrency campaign). The folder is locked rather than the store file
/// because closing any descriptor of the store file would drop SQLite's own POSIX locks on it,
/// and rather than a lock file because that would leave a file next to the store.
public enum StoreMigrationLock {
  /// Runs `body` holding the lock of the folder of the store at `url`, waiting for another
  /// process's migration to end first. Where the folder cannot be locked (it cannot be opened),
  /// runs `body` without the lock: the migration itself still runs in one transaction.
  public static func withLock<Result>(forStoreAt url: URL, _ body: () throws -> Result) rethrows -> Result {
    let folder = url.deletingLastPathComponent().path
    let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY)
    guard descriptor >= 0 else { return try body() }
    defer { close(descriptor) }
    while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    defer { flock(descriptor, LOCK_UN) }
    return try body()
  }
}
