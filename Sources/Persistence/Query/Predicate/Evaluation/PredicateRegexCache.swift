import Foundation

/// A bounded, thread-safe cache of the regular expressions `MATCHES` compiles, so evaluating a
/// predicate against many objects (or registering `MATCHES` as an SQL function) compiles each
/// pattern once.
final class PredicateRegexCache: @unchecked Sendable {
  /// The cache every evaluator shares.
  static let shared = PredicateRegexCache(capacity: 128)

  private struct Key: Hashable {
    let pattern: String
    let caseInsensitive: Bool
  }

  private let capacity: Int
  private let lock = NSLock()
  private var expressions: [Key: NSRegularExpression] = [:]

  init(capacity: Int) {
    self.capacity = capacity
  }

  /// The compiled whole-string expression for `pattern`, from the cache or freshly compiled.
  func expression(for pattern: String, caseInsensitive: Bool) throws(PredicateEvaluationError)
    -> NSRegularExpression
  {
    let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
    lock.lock()
    let cached = expressions[key]
    lock.unlock()
    if let cached { return cached }
    let compiled: NSRegularExpression
    do {
      // The pattern must be valid on its own, so that wrapping it cannot change its meaning
      // (an unbalanced "a)|(b" would otherwise become a valid alternation). ICU rejects an empty
      // pattern on its own, but as a whole-string match it simply matches the empty string.
      if !pattern.isEmpty { _ = try NSRegularExpression(pattern: pattern, options: []) }
      // Anchoring the group at both ends makes the whole string match, as ICU's matches() does
      // (an anchored search alone could stop at a shorter alternative: "a|ab" on "ab").
      compiled = try NSRegularExpression(
        pattern: "\\A(?:" + pattern + ")\\z", options: caseInsensitive ? [.caseInsensitive] : [])
    } catch {
      throw .invalidRegularExpression(pattern)
    }
    lock.lock()
    if expressions.count >= capacity { expressions.removeAll(keepingCapacity: true) }
    expressions[key] = compiled
    lock.unlock()
    return compiled
  }
}
