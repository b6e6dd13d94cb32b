import Foundation

/// A thread-safe flag for tests that coordinate threads.
public final class AtomicFlag: @unchecked Sendable {
  private let lock = NSLock()
  private var value = false

  public init() {}

  public var isSet: Bool {
    lock.lock()
    defer { lock.unlock() }
    return value
  }

  public func set() {
    lock.lock()
    defer { lock.unlock() }
    value = true
  }
}
