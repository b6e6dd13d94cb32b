import Foundation
import TestSupport

/// A fresh directory in the test run's scratch folder, removed on deinit.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = TestPaths.temporaryDirectory("modelc-sqlite")
    guard FileManager.default.fileExists(atPath: url.path) else { throw CocoaError(.fileWriteUnknown) }
  }

  /// The path of `name` inside the directory.
  func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  deinit {
    try? FileManager.default.removeItem(at: url)
  }
}

/// Runs `body` on a new thread (not the cooperative pool, which must not block on SQLite's
/// busy handler) and returns its result.
func onNewThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread {
      continuation.resume(with: Swift.Result { try body() })
    }
    thread.start()
  }
}

/// A thread-safe flag for tests that coordinate threads.
final class AtomicFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  func set() {
    lock.lock()
    defer { lock.unlock() }
    value = true
  }
}
