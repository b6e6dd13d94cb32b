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
  ///
  /// Wildcards work on whole characters, as NSPredicate's do: `?` takes one character (`e` and
  /// its combining accent together) and `*` starts and stops only on character boundaries
  /// (``PredicateCharacterBoundary``), so `"café" LIKE[c] "cafe*"` is false while
  /// `"café" LIKE[c] "caf?"` is true, whether `é` is precomposed or not.
  func matches<Subject: RandomAccessCollection<Unicode.Scalar>>(_ subject: Subject) -> Bool where Subject.Index == Int {
    let boundary = subject.allSatisfy(\.isASCII) ? nil : PredicateCharacterBoundary.boundaries(subject)
    func isBoundary(_ index: Int) -> Bool { index >= subject.count || boundary?[index] ?? true }
    func nextBoundary(after index: Int) -> Int {
      var next = index + 1
      while next < subject.count && !isBoundary(next) { next += 1 }
      return next
    }
    var s = 0
    var p = 0
    var starPattern = -1
    var starSubject = 0
    while s < subject.count {
      if p < elements.count, elements[p] == .anyOne, isBoundary(s) {
        s = nextBoundary(after: s)
        p += 1
      } else if p < elements.count, elements[p] == .literal(subject[s]) {
        s += 1
        p += 1
      } else if p < elements.count, elements[p] == .anyRun, isBoundary(s) {
        starPattern = p
        starSubject = s
        p += 1
      } else if starPattern >= 0, starSubject < subject.count {
        p = starPattern + 1
        starSubject = nextBoundary(after: starSubject)
        s = starSubject
      } else {
        return false
      }
    }
    while p < elements.count, elements[p] == .anyRun { p += 1 }
    return p == elements.count
  }
}
