/// The reserved words of the predicate format grammar, and the `#` escaping of key names that
/// collide with them.
///
/// Keywords are matched case-insensitively, so a key whose name is one of ``reservedWords`` in
/// any case needs escaping. NSPredicate reserves the same words: a model attribute named `first`
/// or `size` is written `#first` and `#size` in a format string.
public enum PredicateKeywords {
  /// The reserved words, upper-cased, as NSPredicate's format syntax documents them (the
  /// hyphenated `UTI-CONFORMS-TO` and `UTI-EQUALS` cannot collide with a key name and are omitted).
  public static let reservedWords: Set<String> = [
    "AND", "OR", "IN", "NOT", "ALL", "ANY", "SOME", "NONE", "LIKE", "CASEINSENSITIVE", "CI", "MATCHES",
    "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "NULL", "NIL", "SELF", "TRUE", "YES", "FALSE", "NO",
    "FIRST", "LAST", "SIZE", "ANYKEY", "SUBQUERY", "FETCH", "CAST", "TRUEPREDICATE", "FALSEPREDICATE",
    "FUNCTION",
  ]

  /// Whether a key name must be escaped with `#` to be used as a key path component.
  public static func isReserved(_ identifier: String) -> Bool {
    reservedWords.contains(identifier.uppercased())
  }

  /// The key name as written in a format string: with a `#` in front when it is reserved.
  public static func escapedIdentifier(_ identifier: String) -> String {
    isReserved(identifier) ? "#" + identifier : identifier
  }

  /// Whether a string is a plain identifier: a letter or `_` followed by letters, digits or `_`.
  public static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.first, first.isLetter || first == "_" else { return false }
    return text.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
  }

  /// The keyword in `candidates` closest to `word` (case-insensitively), when it is close enough
  /// to be a plausible typo; used for "did you mean …?" hints in syntax errors. Between equally
  /// close keywords, one with the same first letter wins (typos rarely hit the first letter),
  /// then the earlier one in `candidates`.
  static func suggestion(for word: String, among candidates: [String]) -> String? {
    let upper = Array(word.uppercased())
    var best: (word: String, cost: Int)?
    for candidate in candidates {
      let distance = editDistance(upper, Array(candidate))
      guard distance > 0, distance <= max(1, candidate.count / 3) else { continue }
      let cost = distance * 2 + (candidate.first == upper.first ? 0 : 1)
      if best == nil || cost < best!.cost {
        best = (candidate, cost)
      }
    }
    return best?.word
  }

  /// The optimal-string-alignment distance: insertions, deletions, substitutions and adjacent
  /// transpositions each cost 1.
  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previousPrevious = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
          current[j] = min(current[j], previousPrevious[j - 2] + 1)
        }
      }
      (previousPrevious, previous, current) = (previous, current, previousPrevious)
    }
    return previous[b.count]
  }
}
