/// "Did you mean" suggestions for mistyped option and command names.
enum Suggestion {
  /// The candidate closest to `input` by edit distance, if it is close enough to be a typo
  /// (at most two edits, and fewer than half the input's length).
  static func closest(to input: String, among candidates: [String]) -> String? {
    let scored = candidates.map { (candidate: $0, distance: editDistance(input, $0)) }
    guard let best = scored.min(by: { $0.distance < $1.distance }) else { return nil }
    return best.distance <= min(2, max(1, input.count / 2)) ? best.candidate : nil
  }

  /// Levenshtein distance between two strings, by characters.
  static func editDistance(_ lhs: String, _ rhs: String) -> Int {
    let lhs = Array(lhs)
    let rhs = Array(rhs)
    guard !lhs.isEmpty else { return rhs.count }
    guard !rhs.isEmpty else { return lhs.count }
    var previous = Array(0...rhs.count)
    var current = [Int](repeating: 0, count: rhs.count + 1)
    for i in 1...lhs.count {
      current[0] = i
      for j in 1...rhs.count {
        let substitution = previous[j - 1] + (lhs[i - 1] == rhs[j - 1] ? 0 : 1)
        current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[rhs.count]
  }
}
