import Foundation

/// Equality and ordering of ``PredicateValue`` scalars, as comparisons and sorting define them.
///
/// - Numbers (``PredicateValue/bool(_:)`` as 0/1, integers, doubles, decimals) compare
///   numerically across kinds. Integer against double is exact (as SQLite compares them);
///   anything against a decimal compares as decimals, except a decimal against a double, which
///   compares as doubles. NaN is unordered and equals nothing.
/// - Strings compare by Unicode scalar values (the order of their UTF-8 bytes, SQLite's binary
///   collation), after ``PredicateStringFolding`` when `[c]`/`[d]` is given.
/// - Dates compare chronologically; data, UUIDs and URLs are only equal or not equal.
/// - Values of different kinds are never equal and have no order (but see ``sortOrder(_:_:options:)``).
enum PredicateValueComparison {
  /// A number in the representation comparisons use.
  private enum Number {
    case integer(Int64)
    case double(Double)
    case decimal(Decimal)
  }

  private static func number(_ value: PredicateValue) -> Number? {
    switch value {
    case .bool(let flag): .integer(flag ? 1 : 0)
    case .integer(let integer): .integer(integer)
    case .double(let double): .double(double)
    case .decimal(let decimal): .decimal(decimal)
    default: nil
    }
  }

  /// The value of a decimal as the nearest double.
  static func double(_ decimal: Decimal) -> Double {
    NSDecimalNumber(decimal: decimal).doubleValue
  }

  private static func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
    a < b ? .orderedAscending : (a > b ? .orderedDescending : .orderedSame)
  }

  /// Compares an integer with a double exactly, without rounding the integer to a double.
  private static func order(_ integer: Int64, _ double: Double) -> ComparisonResult? {
    if double.isNaN { return nil }
    if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
    if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
    let whole = double.rounded(.towardZero)
    let truncated = Int64(whole)
    if integer != truncated { return order(integer, truncated) }
    let fraction = double - whole
    return fraction > 0 ? .orderedAscending : (fraction < 0 ? .orderedDescending : .orderedSame)
  }

  private static func order(_ a: Number, _ b: Number) -> ComparisonResult? {
    switch (a, b) {
    case (.integer(let x), .integer(let y)): return order(x, y)
    case (.integer(let x), .double(let y)): return order(x, y)
    case (.double(let x), .integer(let y)): return order(y, x).map(reversed)
    case (.double(let x), .double(let y)): return x.isNaN || y.isNaN ? nil : order(x, y)
    case (.decimal(let x), .decimal(let y)): return x.isNaN || y.isNaN ? nil : order(x, y)
    case (.decimal(let x), .integer(let y)): return x.isNaN ? nil : order(x, Decimal(y))
    case (.integer(let x), .decimal(let y)): return y.isNaN ? nil : order(Decimal(x), y)
    case (.decimal(let x), .double(let y)): return x.isNaN || y.isNaN ? nil : order(double(x), y)
    case (.double(let x), .decimal(let y)): return x.isNaN || y.isNaN ? nil : order(x, double(y))
    }
  }

  private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
    switch result {
    case .orderedAscending: .orderedDescending
    case .orderedDescending: .orderedAscending
    case .orderedSame: .orderedSame
    }
  }

  /// Compares two strings by Unicode scalar value after folding for `options`.
  static func orderStrings(_ a: String, _ b: String, options: PredicateComparisonOptions) -> ComparisonResult {
    let x = PredicateStringFolding.fold(a, options: options)
    let y = PredicateStringFolding.fold(b, options: options)
    var left = x.utf8.makeIterator()
    var right = y.utf8.makeIterator()
    while true {
      switch (left.next(), right.next()) {
      case (nil, nil): return .orderedSame
      case (nil, _): return .orderedAscending
      case (_, nil): return .orderedDescending
      case (let l?, let r?) where l != r: return l < r ? .orderedAscending : .orderedDescending
      default: continue
      }
    }
  }

  /// The order of two scalars for `<`, `<=`, `>`, `>=` and `BETWEEN`: nil when they have no
  /// order (nil, mismatched kinds, or kinds that are not ordered).
  static func order(_ a: PredicateValue, _ b: PredicateValue, options: PredicateComparisonOptions)
    -> ComparisonResult?
  {
    if let x = number(a), let y = number(b) { return order(x, y) }
    switch (a, b) {
    case (.string(let x), .string(let y)): return orderStrings(x, y, options: options)
    case (.date(let x), .date(let y)):
      return order(x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
    default: return nil
    }
  }

  /// Whether two scalars are equal for `==`, `!=`, `IN` and `CONTAINS` membership.
  static func equal(_ a: PredicateValue, _ b: PredicateValue, options: PredicateComparisonOptions) -> Bool {
    if let x = number(a), let y = number(b) { return order(x, y) == .orderedSame }
    switch (a, b) {
    case (.null, .null): return true
    case (.string(let x), .string(let y)):
      guard options.requiresFolding else { return x.utf8.elementsEqual(y.utf8) }
      return PredicateStringFolding.fold(x, options: options).utf8.elementsEqual(
        PredicateStringFolding.fold(y, options: options).utf8)
    case (.date(let x), .date(let y)): return x.timeIntervalSinceReferenceDate == y.timeIntervalSinceReferenceDate
    case (.data(let x), .data(let y)): return x == y
    case (.uuid(let x), .uuid(let y)): return x == y
    case (.url(let x), .url(let y)): return x.absoluteString == y.absoluteString
    case (.array(let x), .array(let y)):
      return x.count == y.count && zip(x, y).allSatisfy { equal($0, $1, options: options) }
    default: return false
    }
  }

  /// The kind rank of the total sort order: nil, numbers, dates, strings, data, UUIDs, URLs, arrays.
  private static func rank(_ value: PredicateValue) -> Int {
    switch value {
    case .null: 0
    case .bool, .integer, .double, .decimal: 1
    case .date: 2
    case .string: 3
    case .data: 4
    case .uuid: 5
    case .url: 6
    case .array: 7
    }
  }

  /// A total order over all scalars, for sorting and for `@min`/`@max`.
  ///
  /// `nil` sorts before everything; then values are grouped by kind (numbers, dates, strings,
  /// data, UUIDs, URLs, arrays, which only matters for mixed-kind collections) and ordered
  /// within a kind: numbers numerically (NaN first), dates chronologically, strings by scalar
  /// after folding for `options`, data and UUIDs by their bytes, URLs by their absolute string,
  /// arrays element by element.
  static func sortOrder(_ a: PredicateValue, _ b: PredicateValue, options: PredicateComparisonOptions)
    -> ComparisonResult
  {
    let (rankA, rankB) = (rank(a), rank(b))
    if rankA != rankB { return order(rankA, rankB) }
    switch (a, b) {
    case (.string(let x), .string(let y)):
      return orderStrings(x, y, options: options)
    case (.date(let x), .date(let y)):
      return order(x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
    case (.data(let x), .data(let y)):
      return orderBytes(Array(x), Array(y))
    case (.uuid(let x), .uuid(let y)):
      return orderBytes(withUnsafeBytes(of: x.uuid, Array.init), withUnsafeBytes(of: y.uuid, Array.init))
    case (.url(let x), .url(let y)):
      return orderStrings(x.absoluteString, y.absoluteString, options: [])
    case (.array(let x), .array(let y)):
      for (u, v) in zip(x, y) {
        let result = sortOrder(u, v, options: options)
        if result != .orderedSame { return result }
      }
      return order(x.count, y.count)
    default:
      guard let x = number(a), let y = number(b) else { return .orderedSame }
      if let result = order(x, y) { return result }
      let (nanA, nanB) = (isNaN(x), isNaN(y))
      return nanA == nanB ? .orderedSame : (nanA ? .orderedAscending : .orderedDescending)
    }
  }

  private static func isNaN(_ number: Number) -> Bool {
    switch number {
    case .integer: false
    case .double(let double): double.isNaN
    case .decimal(let decimal): decimal.isNaN
    }
  }

  private static func orderBytes(_ x: [UInt8], _ y: [UInt8]) -> ComparisonResult {
    for (u, v) in zip(x, y) where u != v { return order(u, v) }
    return order(x.count, y.count)
  }
}
