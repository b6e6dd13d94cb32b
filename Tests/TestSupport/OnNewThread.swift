import Foundation

/// Runs `body` on a new thread (not the cooperative pool, which must not block on SQLite's
/// busy handler) and returns its result.
public func onNewThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
  try await withCheckedThrowingContinuation { continuation in
    let thread = Thread {
      continuation.resume(with: Swift.Result { try body() })
    }
    thread.start()
  }
}
