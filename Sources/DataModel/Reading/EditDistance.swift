/// Levenshtein distance, for "did you mean" suggestions in diagnostics.
package enum EditDistance {
  /// The number of single-character insertions, deletions and substitutions between two strings.
  package static func between(_ lhs: String, _ rhs: String) -> Int {
    let left = Array(lhs)
    let right = Array(rhs)
    if left.isEmpty { return right.count }
    if right.isEmpty { return left.count }
    var previous = Array(0...right.count)
    var current = [Int](repeating: 0, count: right.count + 1)
    for (i, leftCharacter) in left.enumerated() {
      current[0] = i + 1
      for (j, rightCharacter) in right.enumerated() {
        let substitution = previous[j] + (leftCharacter == rightCharacter ? 0 : 1)
        current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, substitution)
      }
      swap(&previous, &current)
    }
    return previous[right.count]
  }

  /// The candidate closest to `name`, if it is close enough to be a likely typo.
  package static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
    var best: (candidate: String, distance: Int)?
    let limit = max(1, min(3, name.count / 3))
    for candidate in candidates {
      let distance = between(name.lowercased(), candidate.lowercased())
      if distance <= limit, best == nil || distance < best!.distance {
        best = (candidate, distance)
      }
    }
    return best?.candidate
  }
}
