import Foundation
import TestSupport
import Testing

@testable import SQLite

/// Files, WAL, several connections to one database, the busy timeout and interruption.
@Suite struct SQLiteConcurrencyTests {
  @Test func walIsEnabledOnAFileDatabase() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("store.sqlite")
    let db = try SQLiteConnection(path: path)
    #expect(try db.journalMode() == .delete)
    try db.enableWAL()
    #expect(try db.journalMode() == .wal)
    try db.setSynchronous(.normal)
    #expect(try db.synchronous() == .normal)
    try db.execute("CREATE TABLE t (v); INSERT INTO t VALUES (1)")
    #expect(FileManager.default.fileExists(atPath: path + "-wal"))
    #expect(db.filePath == URL(fileURLWithPath: path).standardizedFileURL.path)
    #expect(try SQLiteConnection(path: path).journalMode() == .wal)
  }

  @Test func walIsRefusedInMemory() throws {
    let db = try SQLiteConnection()
    #expect(db.filePath == nil)
    #expect(throws: SQLiteError.self) { try db.enableWAL() }
    #expect(try db.journalMode() == .memory)
  }

  @Test func twoConnectionsToOneFileSeeEachOthersCommits() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("shared.sqlite")
    let writer = try SQLiteConnection(path: path)
    try writer.enableWAL()
    try writer.execute("CREATE TABLE t (v)")
    let reader = try SQLiteConnection(path: path)
    #expect(try reader.firstRow("SELECT count(*) FROM t") { $0.int(at: 0) } == 0)
    try writer.transaction(.immediate) {
      try writer.execute("INSERT INTO t VALUES (1)")
      #expect(try reader.firstRow("SELECT count(*) FROM t") { $0.int(at: 0) } == 0)
    }
    #expect(try reader.firstRow("SELECT count(*) FROM t") { $0.int(at: 0) } == 1)
    try reader.execute("INSERT INTO t VALUES (2)")
    #expect(try writer.firstRow("SELECT sum(v) FROM t") { $0.int(at: 0) } == 3)
  }

  @Test func sharedInMemoryDatabasesAreSharedByName() throws {
    let name = "test-\(UUID().uuidString) with spaces?&#"
    let first = try SQLiteConnection(.sharedInMemory(name: name))
    try first.execute("CREATE TABLE t (v); INSERT INTO t VALUES (7)")
    let second = try SQLiteConnection(.sharedInMemory(name: name))
    #expect(try second.firstRow("SELECT v FROM t") { $0.int(at: 0) } == 7)
    let other = try SQLiteConnection(.sharedInMemory(name: name + "-other"))
    #expect(try other.tableNames().isEmpty)
  }

  @Test func withoutBusyTimeoutASecondWriterFailsAtOnce() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("busy.sqlite")
    let first = try SQLiteConnection(path: path)
    try first.enableWAL()
    try first.execute("CREATE TABLE t (v)")
    let second = try SQLiteConnection(path: path)
    try first.transaction(.immediate) {
      try first.execute("INSERT INTO t VALUES (1)")
      let error = #expect(throws: SQLiteError.self) { try second.execute("INSERT INTO t VALUES (2)") }
      #expect(error?.isBusy == true)
    }
  }

  @Test func busyTimeoutMakesASecondWriterWait() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("wait.sqlite")
    let setup = try SQLiteConnection(path: path)
    try setup.enableWAL()
    try setup.execute("CREATE TABLE t (v)")
    try setup.close()
    // The lock holder runs on a thread of its own (not the test runner's cooperative pool, which
    // other tests may keep busy), takes the write lock, holds it, then commits.
    let holdTime = Duration.milliseconds(300)
    let locked = DispatchSemaphore(value: 0)
    let finished = DispatchSemaphore(value: 0)
    let holderError = ErrorBox()
    let holder = Thread {
      do {
        let first = try SQLiteConnection(path: path)
        try first.execute("BEGIN IMMEDIATE")
        try first.execute("INSERT INTO t VALUES (1)")
        locked.signal()
        Thread.sleep(forTimeInterval: 0.3)
        try first.execute("COMMIT")
        try first.close()
      } catch {
        holderError.error = error
        locked.signal()
      }
      finished.signal()
    }
    holder.start()
    locked.wait()
    let clock = ContinuousClock()
    let start = clock.now
    let second = try SQLiteConnection(path: path)
    second.busyTimeout = .seconds(10)
    try second.execute("INSERT INTO t VALUES (2)")
    let elapsed = clock.now - start
    finished.wait()
    #expect(holderError.error == nil)
    #expect(elapsed >= holdTime / 2)
    #expect(elapsed < .seconds(10))
    #expect(try second.mapRows("SELECT v FROM t ORDER BY v") { $0.int(at: 0) } == [1, 2])
  }

  @Test func aConnectionCanMoveToAnotherThread() async throws {
    let directory = try TemporaryDirectory()
    let db = try SQLiteConnection(path: directory.path("moved.sqlite"))
    try db.execute("CREATE TABLE t (v); INSERT INTO t VALUES (5)")
    // The connection is not Sendable, but it is not used here again, so Swift 6 lets it be
    // sent to the detached task: confinement moves with it.
    let value = try await Task.detached {
      try db.firstRow("SELECT v FROM t") { $0.int(at: 0) }
    }.value
    #expect(value == 5)
  }

  @Test func interruptHandleStopsARunningQueryFromAnotherThread() throws {
    let db = try SQLiteConnection()
    let handle = db.interruptHandle
    let finished = AtomicFlag()
    Thread.detachNewThread {
      while !finished.isSet {
        Thread.sleep(forTimeInterval: 0.02)
        handle.interrupt()
      }
    }
    defer { finished.set() }
    let error = #expect(throws: SQLiteError.self) {
      try db.execute(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 4000000000) SELECT count(*) FROM c")
    }
    #expect(error?.isInterrupted == true)
    finished.set()
    #expect(try db.firstRow("SELECT 1") { $0.int(at: 0) } == 1)
  }

  @Test func interruptingAClosedConnectionIsHarmless() throws {
    let db = try SQLiteConnection()
    let handle = db.interruptHandle
    try db.close()
    handle.interrupt()
  }
}

/// Carries an error out of a thread.
final class ErrorBox: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: (any Error)?

  var error: (any Error)? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      stored = newValue
      lock.unlock()
    }
  }
}
