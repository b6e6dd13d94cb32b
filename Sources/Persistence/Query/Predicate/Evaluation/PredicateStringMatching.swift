import Foundation

/// The string operators of predicates (`CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE`, `MATCHES`),
/// as plain functions the in-memory evaluator uses and the SQLite store registers as SQL
/// functions, so that both evaluators match identically.
///
/// Every function first folds both strings with ``PredicateStringFolding`` when `[c]` or `[d]`
/// is given; without options they compare Unicode scalars exactly. Following NSString, an empty
/// search string is found nowhere: `CONTAINS ""`, `BEGINSWITH ""` and `ENDSWITH ""` are false.
public enum PredicateStringMatching {
  /// `string CONTAINS[options] substring`: whether `substring` (non-empty) occurs in `string`.
  public static func contains(
    _ string: String, _ substring: String, options: PredicateComparisonOptions = []
  ) -> Bool {
    let (haystack, needle) = folded(string, substring, options)
    guard !needle.isEmpty else { return false }
    return Array(haystack.utf8).firstRange(of: Array(needle.utf8)) != nil
  }

  /// `string BEGINSWITH[options] prefix`: whether `string` starts with `prefix` (non-empty).
  public static func beginsWith(_ string: String, _ prefix: String, options: PredicateComparisonOptions = []) -> Bool {
    let (haystack, needle) = folded(string, prefix, options)
    return !needle.isEmpty && haystack.utf8.starts(with: needle.utf8)
  }

  /// `string ENDSWITH[options] suffix`: whether `string` ends with `suffix` (non-empty).
  public static func endsWith(_ string: String, _ suffix: String, options: PredicateComparisonOptions = []) -> Bool {
    let (haystack, needle) = folded(string, suffix, options)
    return !needle.isEmpty && haystack.utf8.reversed().starts(with: needle.utf8.reversed())
  }

  /// `string LIKE[options] pattern`: whether the whole `string` matches a wildcard pattern.
  ///
  /// `*` matches any run of characters (including none), `?` exactly one Unicode scalar (after
  /// folding, so `?` matches `é` whether it is precomposed or not under `[d]`, but only a
  /// precomposed `é` without options). A backslash makes the next character literal (`\*`,
  /// `\?`, `\\`); a trailing backslash is literal.
  public static func like(_ string: String, pattern: String, options: PredicateComparisonOptions = []) -> Bool {
    let (subject, folded) = folded(string, pattern, options)
    return LikePattern(folded).matches(Array(subject.unicodeScalars))
  }

  /// `string MATCHES[options] regex`: whether the whole `string` matches an ICU regular
  /// expression (the pattern is anchored at both ends).
  ///
  /// `[c]` matches case-insensitively (ICU's own case-insensitive mode, not the folding, so
  /// that character classes in the pattern keep their meaning); `[d]` removes diacritics from
  /// both the string and the pattern before matching. Compiled expressions are cached.
  ///
  /// - Throws: ``PredicateEvaluationError/invalidRegularExpression(_:)`` for an invalid pattern.
  public static func matches(_ string: String, regex pattern: String, options: PredicateComparisonOptions = [])
    throws(PredicateEvaluationError) -> Bool
  {
    let diacritics = options.contains(.diacriticInsensitive)
    let subject = PredicateStringFolding.fold(string, caseInsensitive: false, diacriticInsensitive: diacritics)
    let source = PredicateStringFolding.fold(pattern, caseInsensitive: false, diacriticInsensitive: diacritics)
    let expression = try PredicateRegexCache.shared.expression(
      for: source, caseInsensitive: options.contains(.caseInsensitive))
    return expression.firstMatch(in: subject, range: NSRange(subject.startIndex..., in: subject)) != nil
  }

  private static func folded(_ a: String, _ b: String, _ options: PredicateComparisonOptions) -> (String, String) {
    guard options.requiresFolding else { return (a, b) }
    return (PredicateStringFolding.fold(a, options: options), PredicateStringFolding.fold(b, options: options))
  }
}

/// A compiled `LIKE` pattern: literal scalars and the two wildcards.
private struct LikePattern {
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
  func matches(_ subject: [Unicode.Scalar]) -> Bool {
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
