/// A compiled `LIKE` pattern: literal scalars and the two wildcards.
///
/// Shared by ``PredicateStringMatching/like(_:pattern:options:)`` and the SQL function the store
/// registers for `LIKE`, which compiles each pattern once per statement.
struct PredicateLikePattern {
  enum Element: Equatable {
    case literal(Unicode.Scalar)
    case anyOne
    case anyRun
  }

  let elements: [Element]

  init(_ pattern: String) {
    var elements: [Element] = []
    var escaped = false
    for scalar in pattern.unicodeScalars {
      if escaped {
        elements.append(.literal(scalar))
        escaped = false
        continue
      }
      switch scalar {
      case "\\": escaped = true
      case "*": if elements.last != .anyRun { elements.append(.anyRun) }
      case "?": elements.append(.anyOne)
      default: elements.append(.literal(scalar))
      }
    }
    if escaped { elements.append(.literal("\\")) }
    self.elements = elements
  }

  /// Whole-string wildcard matching; backtracks only to the most recent `*`, which is enough
  /// for glob patterns and keeps the cost at O(string × pattern).
  func matches<Subject: RandomAccessCollection<Unicode.Scalar>>(_ subject: Subject) -> Bool where Subject.Index == Int {
    var s = 0
    var p = 0
    var starPattern = -1
    var starSubject = 0
    while s < subject.count {
      if p < elements.count, elements[p] == .anyOne || elements[p] == .literal(subject[s]) {
        s += 1
        p += 1
      } else if p < elements.count, elements[p] == .anyRun {
        starPattern = p
        starSubject = s
        p += 1
      } else if starPattern >= 0 {
        p = starPattern + 1
        starSubject += 1
        s = starSubject
      } else {
        return false
      }
    }
    while p < elements.count, elements[p] == .anyRun { p += 1 }
    return p == elements.count
  }
}
