import CSQLite
import Foundation

/// Online backups: copying a live database page by page into another connection's database.
///
/// Migrations keep a copy of the original store before rebuilding tables, and tests use
/// backups to snapshot fixtures.
extension SQLiteConnection {
  /// Copies this connection's main database over `destination`'s main database.
  ///
  /// The destination's previous content is replaced. Other connections may keep using the
  /// source meanwhile; a change made by another connection mid-backup restarts the copy (SQLite
  /// handles that). While the source or destination is locked by another connection the copy
  /// waits, retrying for up to the destination's ``busyTimeout`` (at least one second).
  ///
  /// - Parameters:
  ///   - destination: An open, writable connection; not in a transaction.
  ///   - pagesPerStep: How many pages to copy between progress reports; `nil` copies all
  ///     at once.
  ///   - progress: Called after each step with the pages remaining and the total.
  public func backup(
    to destination: SQLiteConnection, pagesPerStep: Int? = nil,
    progress: ((_ remaining: Int, _ total: Int) -> Void)? = nil
  ) throws {
    let source = try database.open()
    let target = try destination.database.open()
    guard let backup = sqlite3_backup_init(target, "main", source, "main") else {
      throw SQLiteError(resultCode: sqlite3_errcode(target), connection: target, sql: nil)
    }
    let pages = Int32(clamping: pagesPerStep ?? -1)
    let waitLimit = max(destination.busyTimeout, .seconds(1))
    let clock = ContinuousClock()
    let start = clock.now
    var stepCode: Int32 = SQLITE_OK
    while true {
      stepCode = sqlite3_backup_step(backup, pages)
      if stepCode == SQLITE_OK || stepCode == SQLITE_DONE {
        progress?(Int(sqlite3_backup_remaining(backup)), Int(sqlite3_backup_pagecount(backup)))
        if stepCode == SQLITE_DONE { break }
      } else if (stepCode & 0xff == SQLITE_BUSY || stepCode & 0xff == SQLITE_LOCKED) && clock.now - start < waitLimit {
        sqlite3_sleep(10)
      } else {
        break
      }
    }
    let finishCode = sqlite3_backup_finish(backup)
    if stepCode != SQLITE_DONE {
      throw SQLiteError(resultCode: stepCode, connection: target, sql: nil)
    }
    guard finishCode == SQLITE_OK else {
      throw SQLiteError(resultCode: finishCode, connection: target, sql: nil)
    }
  }

  /// Writes a compacted copy of the main database to a new file at `path` (`VACUUM INTO`).
  ///
  /// Unlike ``backup(to:pagesPerStep:progress:)`` the copy is defragmented and needs no
  /// open destination connection. The path is bound as a parameter. Fails if the file
  /// exists and is not empty. A copy that fails part-way (a full disk) is removed, rather than
  /// left behind holding the space that ran out.
  public func vacuum(into path: String) throws {
    let existed = FileManager.default.fileExists(atPath: path)
    do {
      try execute("VACUUM INTO \(path)")
    } catch {
      if !existed {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      }
      throw error
    }
  }
}
