import Foundation
import SQLite

/// Open connections to one store that no context is using, shared by the contexts of one
/// container.
///
/// Opening a connection costs more than most fetches: SQLite opens the file, and the first
/// statement reads and parses the whole schema. The container's own connection — the one
/// that prepared the store — starts here, so the first context uses it instead of opening a
/// second one; a context gives its connection back when it goes, with the statements it
/// prepared, for the next context to use.
///
/// The container holds this, and every context holds the container, so a connection is open
/// for as long as the container lives (in a context or here): closing the last connection of
/// a WAL store checkpoints it and removes the WAL file, which would otherwise be paid again and
/// again.
///
/// A connection moves between isolation domains only through here, under a lock, and only
/// when it is idle (``SQLiteConnection/resetForReuse()``): it is used by one domain at a time,
/// which SQLite's multi-thread mode allows.
final class IdleConnections: @unchecked Sendable {
  private let lock = NSLock()
  private var connections: [SQLiteConnection]
  /// The most idle connections kept; more are closed.
  let capacity: Int

  init(_ connection: SQLiteConnection, capacity: Int = 4) {
    self.connections = [connection]
    self.capacity = capacity
  }

  /// An idle connection, if there is one; the caller owns it until it gives it back.
  func take() -> SQLiteConnection? {
    lock.withLock { connections.popLast() }
  }

  /// Takes back a connection that its user is done with. One that is not idle (a transaction
  /// or a statement left open), or one too many, is dropped, which closes it.
  func giveBack(_ connection: SQLiteConnection) {
    guard connection.resetForReuse() else { return }
    let extra: SQLiteConnection? = lock.withLock {
      guard connections.count < capacity else { return connection }
      connections.append(connection)
      return nil
    }
    // Closed here, outside the lock.
    _ = consume extra
  }

  /// How many connections are idle right now.
  var count: Int { lock.withLock { connections.count } }
}
