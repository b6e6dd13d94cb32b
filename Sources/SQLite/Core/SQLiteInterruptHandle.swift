import CSQLite
import Foundation

/// A `Sendable` handle that can interrupt one connection's running statement from any thread.
///
/// ``SQLiteConnection`` is confined to one thread or task at a time, so its own
/// ``SQLiteConnection/interrupt()`` can only be called from where the connection runs — which is
/// busy while a long query executes. A UI's cancel button or a task-cancellation handler holds
/// this handle instead. It stays safe after the connection closes: the lock guarantees SQLite
/// never sees a closed pointer, and interrupting a closed connection does nothing.
public final class SQLiteInterruptHandle: @unchecked Sendable {
  // Invariant: `connection` is read and cleared only while `lock` is held, and the owning
  // connection clears it (under the lock) before calling `sqlite3_close`.
  private let lock = NSLock()
  private var connection: OpaquePointer?

  init(connection: OpaquePointer) {
    self.connection = connection
  }

  /// Makes the statement currently running on the connection fail with `SQLITE_INTERRUPT`
  /// at its next opportunity (also any statement started before the running one finishes).
  public func interrupt() {
    lock.lock()
    defer { lock.unlock() }
    if let connection { sqlite3_interrupt(connection) }
  }

  /// Called by the connection just before it closes the database.
  func invalidate() {
    lock.lock()
    defer { lock.unlock() }
    connection = nil
  }

  /// Called by the connection when a close attempt failed and the database is still open.
  func revalidate(connection: OpaquePointer) {
    lock.lock()
    defer { lock.unlock() }
    self.connection = connection
  }
}
