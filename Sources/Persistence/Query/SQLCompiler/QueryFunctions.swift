import Foundation
import SQLite

/// The SQL functions compiled queries call, registered on every store connection.
///
/// Each one runs the very code the in-memory evaluator runs — ``PredicateStringFolding`` for
/// `[c]`/`[d]`, the byte searches and patterns of ``PredicateStringMatching``, and
/// ``PredicateValueComparison`` — so a predicate selects the same objects whether SQLite or
/// the evaluator decides it. All are deterministic. Text is read in place; an ASCII string
/// is folded byte by byte as it is compared (the folding's own ASCII rule), so the common case
/// allocates nothing. Per-statement work (folding the search string, compiling a pattern) is
/// cached on the constant argument.
///
/// | Function | Result |
/// | --- | --- |
/// | `modelc_fold(x, c, d)` | `x` folded for `[c]`/`[d]` (x unchanged when it is not text) |
/// | `modelc_contains(s, t, flags)` | `s CONTAINS[flags] t`: 1 or 0 (0 unless both are text) |
/// | `modelc_beginswith(s, t, flags)` | `s BEGINSWITH[flags] t` |
/// | `modelc_endswith(s, t, flags)` | `s ENDSWITH[flags] t` |
/// | `modelc_like(s, p, flags)` | `s LIKE[flags] p` |
/// | `modelc_matches(s, p, flags)` | `s MATCHES[flags] p` (an error for an invalid pattern) |
/// | `modelc_compare(op, flags, kindA, a, kindB, b)` | a comparison of two values of given kinds |
///
/// `flags` is 1 for `[c]`, 2 for `[d]`, 3 for `[cd]`; `op` is ``ComparisonCode``; kinds are
/// ``SQLValueKind`` raw values.
enum QueryFunctions {
  /// The operators `modelc_compare` evaluates.
  enum ComparisonCode: Int64 {
    case equal = 0
    case notEqual = 1
    case less = 2
    case lessOrEqual = 3
    case greater = 4
    case greaterOrEqual = 5
  }

  /// Registers every function on a connection.
  static func register(on connection: SQLiteConnection) throws {
    try connection.createFunction(name: "modelc_fold", argumentCount: 3, call: fold)
    try connection.createFunction(name: "modelc_contains", argumentCount: 3) { call in search(call, .contains) }
    try connection.createFunction(name: "modelc_beginswith", argumentCount: 3) { call in search(call, .beginsWith) }
    try connection.createFunction(name: "modelc_endswith", argumentCount: 3) { call in search(call, .endsWith) }
    try connection.createFunction(name: "modelc_like", argumentCount: 3, call: like)
    try connection.createFunction(name: "modelc_matches", argumentCount: 3, call: matches)
    try connection.createFunction(name: "modelc_compare", argumentCount: 6, call: compare)
  }

  /// The options a `flags` argument stands for.
  static func options(_ flags: Int64) -> PredicateComparisonOptions {
    var options: PredicateComparisonOptions = []
    if flags & 1 != 0 { options.insert(.caseInsensitive) }
    if flags & 2 != 0 { options.insert(.diacriticInsensitive) }
    return options
  }

  /// The `flags` argument for options.
  static func flags(_ options: PredicateComparisonOptions) -> Int64 {
    (options.contains(.caseInsensitive) ? 1 : 0) | (options.contains(.diacriticInsensitive) ? 2 : 0)
  }

  // MARK: - Folding

  private static func fold(_ call: SQLiteFunctionCall) {
    let caseInsensitive = call.int64(at: 1) != 0
    let diacriticInsensitive = call.int64(at: 2) != 0
    let handled: Void? = call.withText(at: 0) { bytes in
      if !caseInsensitive && !diacriticInsensitive {
        call.resultText(bytes)
      } else if PredicateStringFolding.isASCII(bytes) {
        if caseInsensitive {
          withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, bytes.count)) { buffer in
            for index in 0..<bytes.count { buffer[index] = PredicateStringFolding.asciiLowercase(bytes[index]) }
            call.resultText(UnsafeBufferPointer(rebasing: buffer[0..<bytes.count]))
          }
        } else {
          call.resultText(bytes)
        }
      } else {
        var folded = FoldedBytes(capacity: bytes.count + 8)
        PredicateStringFolding.fold(
          utf8: bytes, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive, into: &folded)
        call.resultText(folded.bytes)
      }
    }
    if handled == nil { call.result(call.value(at: 0)) }
  }

  // MARK: - CONTAINS, BEGINSWITH, ENDSWITH

  /// A search string folded once per statement, with a scratch buffer and a cache of folded
  /// runs for the strings searched (a statement runs on one thread).
  private final class FoldedText {
    let source: [UInt8]
    let flags: Int64
    let folded: [UInt8]
    let runs = PredicateFoldedRuns()
    /// Each row's folded text, reused by one statement's thread: no run-time exclusivity check.
    @exclusivity(unchecked) var scratch = FoldedBytes()

    init(source: [UInt8], flags: Int64) {
      self.source = source
      self.flags = flags
      let text = String(decoding: source, as: UTF8.self)
      self.folded = Array(PredicateStringFolding.fold(text, options: QueryFunctions.options(flags)).utf8)
    }
  }

  /// The byte searches behind `CONTAINS`, `BEGINSWITH` and `ENDSWITH`.
  private enum Search {
    case contains, beginsWith, endsWith

    @inline(__always)
    func run(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, lowercasing: Bool) -> Bool {
      switch self {
      case .contains: PredicateStringMatching.find(needle, in: haystack, lowercasingHaystack: lowercasing)
      case .beginsWith: PredicateStringMatching.hasPrefix(needle, in: haystack, lowercasingHaystack: lowercasing)
      case .endsWith: PredicateStringMatching.hasSuffix(needle, in: haystack, lowercasingHaystack: lowercasing)
      }
    }
  }

  /// `s OP[flags] t` for a byte search: both strings folded as the evaluator folds them, then
  /// the evaluator's search.
  private static func search(_ call: SQLiteFunctionCall, _ search: Search) {
    let flags = call.int64(at: 2)
    let options = options(flags)
    let result: Bool? = call.withText(at: 0) { haystack in
      call.withText(at: 1) { needle -> Bool in
        guard options.requiresFolding else { return search.run(needle, in: haystack, lowercasing: false) }
        return withFoldedNeedle(call, needle, flags) { cache in
          if PredicateStringFolding.isASCII(haystack) {
            // Folding ASCII text is lower-casing it for [c] and nothing for [d].
            return cache.folded.withUnsafeBufferPointer {
              search.run($0, in: haystack, lowercasing: options.contains(.caseInsensitive))
            }
          }
          cache.scratch.removeAll()
          PredicateStringFolding.fold(
            utf8: haystack, caseInsensitive: options.contains(.caseInsensitive),
            diacriticInsensitive: options.contains(.diacriticInsensitive), into: &cache.scratch, runs: cache.runs)
          return cache.folded.withUnsafeBufferPointer { search.run($0, in: cache.scratch.bytes, lowercasing: false) }
        }
      } ?? false
    }
    call.result(result ?? false)
  }

  /// Runs `body` with the search string folded, from the cache on the argument (not retained
  /// for the call: this runs once per row) or folded now and cached.
  private static func withFoldedNeedle(
    _ call: SQLiteFunctionCall, _ needle: UnsafeBufferPointer<UInt8>, _ flags: Int64, _ body: (FoldedText) -> Bool
  ) -> Bool {
    // SQLite keeps auxiliary data only while the argument stays the same (it drops it after each
    // call for an argument that is not constant), so the cached needle is this one.
    let cached: Bool? =
      call.withAuxiliary(at: 1, as: FoldedText.self) { cached in
        guard cached.flags == flags, cached.source.count == needle.count else { return nil }
        return body(cached)
      } ?? nil
    if let cached { return cached }
    let folded = FoldedText(source: Array(needle), flags: flags)
    call.setAuxiliary(folded, at: 1)
    return body(folded)
  }

  // MARK: - LIKE and MATCHES

  /// A `LIKE` pattern folded and compiled once per statement.
  private final class CompiledLike {
    let source: String
    let flags: Int64
    let pattern: PredicateLikePattern

    init(source: String, flags: Int64) {
      self.source = source
      self.flags = flags
      self.pattern = PredicateLikePattern(PredicateStringFolding.fold(source, options: QueryFunctions.options(flags)))
    }
  }

  private static func like(_ call: SQLiteFunctionCall) {
    let flags = call.int64(at: 2)
    let options = options(flags)
    guard let patternText = call.text(at: 1) else { return call.result(false) }
    let compiled: CompiledLike
    if let cached = call.auxiliary(at: 1, as: CompiledLike.self), cached.flags == flags, cached.source == patternText {
      compiled = cached
    } else {
      compiled = CompiledLike(source: patternText, flags: flags)
      call.setAuxiliary(compiled, at: 1)
    }
    let result: Bool? = call.withText(at: 0) { subject in
      if PredicateStringFolding.isASCII(subject) && (options.isEmpty || options == .diacriticInsensitive) {
        return compiled.pattern.matches(subject.lazy.map { Unicode.Scalar($0) })
      }
      if PredicateStringFolding.isASCII(subject) && options.contains(.caseInsensitive) {
        return compiled.pattern.matches(subject.lazy.map { Unicode.Scalar(PredicateStringFolding.asciiLowercase($0)) })
      }
      let text = PredicateStringFolding.fold(String(decoding: subject, as: UTF8.self), options: options)
      return compiled.pattern.matches(Array(text.unicodeScalars))
    }
    call.result(result ?? false)
  }

  private static func matches(_ call: SQLiteFunctionCall) {
    guard let subject = call.text(at: 0), let pattern = call.text(at: 1) else { return call.result(false) }
    do {
      call.result(try PredicateStringMatching.matches(subject, regex: pattern, options: options(call.int64(at: 2))))
    } catch {
      call.resultError(error.description)
    }
  }

  // MARK: - Comparing values of any kind

  /// `a OP b` with the evaluator's rules, for values SQLite cannot compare the same way
  /// (decimals, which may be stored as text).
  private static func compare(_ call: SQLiteFunctionCall) {
    guard let code = ComparisonCode(rawValue: call.int64(at: 0)),
      let leftKind = SQLValueKind(rawValue: Int(call.int64(at: 2))),
      let rightKind = SQLValueKind(rawValue: Int(call.int64(at: 4)))
    else { return call.resultError("modelc_compare: unknown operator or kind") }
    let options = options(call.int64(at: 1))
    let left = leftKind.predicateValue(of: call.value(at: 3))
    let right = rightKind.predicateValue(of: call.value(at: 5))
    call.result(evaluate(left, code, right, options: options))
  }

  /// A comparison of two scalars, exactly as the in-memory evaluator decides it.
  static func evaluate(
    _ left: PredicateValue, _ code: ComparisonCode, _ right: PredicateValue, options: PredicateComparisonOptions
  ) -> Bool {
    switch code {
    case .equal: return PredicateValueComparison.equal(left, right, options: options)
    case .notEqual: return !PredicateValueComparison.equal(left, right, options: options)
    case .less: return PredicateValueComparison.order(left, right, options: options) == .orderedAscending
    case .lessOrEqual:
      return PredicateValueComparison.order(left, right, options: options).map { $0 != .orderedDescending } ?? false
    case .greater: return PredicateValueComparison.order(left, right, options: options) == .orderedDescending
    case .greaterOrEqual:
      return PredicateValueComparison.order(left, right, options: options).map { $0 != .orderedAscending } ?? false
    }
  }
}
