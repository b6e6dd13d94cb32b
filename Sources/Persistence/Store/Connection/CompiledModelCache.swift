import DataModel
import Foundation

/// The model versions a process compiled for its stores, most recently used last.
///
/// An app opens containers of one or two model versions over and over (a context per request,
/// a container per test); each open finds its version here instead of compiling it again. The
/// cache holds a few versions, so a tool that opens many (a migration walking every version of
/// a bundle) keeps memory bounded.
final class CompiledModelCache: @unchecked Sendable {
  /// The process's cache.
  static let shared = CompiledModelCache(capacity: 8)

  private let capacity: Int
  private let lock = NSLock()
  /// Guarded by `lock`.
  private var entries: [CompiledModel] = []

  init(capacity: Int) {
    precondition(capacity > 0, "a cache must hold at least one model")
    self.capacity = capacity
  }

  /// How many versions the cache holds.
  var count: Int { lock.withLock { entries.count } }

  /// The compiled form of `model`, compiled now unless an equal version was compiled before.
  ///
  /// Versions are compared by value. A version read once and passed around shares its arrays,
  /// which compare without looking at their elements, so a hit costs little.
  func compiled(_ model: ModelVersion) -> CompiledModel {
    if let hit = lock.withLock({ () -> CompiledModel? in
      guard let index = entries.lastIndex(where: { $0.model == model }) else { return nil }
      let entry = entries.remove(at: index)
      entries.append(entry)
      return entry
    }) {
      return hit
    }
    // Compiled outside the lock: two threads compiling the same version at once both succeed,
    // and the cache keeps one of the equal results.
    let compiled = CompiledModel(model: model)
    lock.withLock {
      guard !entries.contains(where: { $0.model == model }) else { return }
      if entries.count == capacity { entries.removeFirst() }
      entries.append(compiled)
    }
    return compiled
  }
}
