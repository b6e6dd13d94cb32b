import Foundation

/// One sort key of a fetch request: a key path, a direction, and how strings compare.
///
/// This is the counterpart of `NSSortDescriptor`; it is not called `SortDescriptor` because
/// Foundation declares a `SortDescriptor` type of its own. The ordering is Core Data's:
///
/// - `nil` sorts first in ascending order and last in descending order;
/// - numbers (booleans, integers, doubles, decimals) numerically, dates chronologically;
/// - strings by Unicode scalar value, or by their folded form (``PredicateStringFolding``, the
///   same folding as `[c]`/`[d]` in predicates) when ``options`` asks for it, which is what
///   `caseInsensitiveCompare:` sorting means here;
/// - data and UUIDs by their bytes, URLs by their absolute string;
/// - values of different kinds (which a typed model does not produce) by kind: numbers, dates,
///   strings, data, UUIDs, URLs, arrays;
/// - a to-one relationship by the destination's ``PredicateEvaluable/predicateIdentity``.
///
/// Equal keys fall through to the next descriptor, then to the tie-breaker given to
/// `sorted(_:using:tieBreaker:)`, and finally keep their original order (the sort is stable).
public struct FetchSortDescriptor: Sendable, Hashable, Codable {
  /// The key path whose value is compared; it must not cross or end at a to-many relationship.
  public var keyPath: PredicateKeyPath
  /// Whether smaller values come first.
  public var ascending: Bool
  /// How strings compare: `[]` by code point, `.caseInsensitive` and/or `.diacriticInsensitive`
  /// by folded form.
  public var options: PredicateComparisonOptions

  /// Creates a sort descriptor.
  public init(_ keyPath: PredicateKeyPath, ascending: Bool = true, options: PredicateComparisonOptions = []) {
    self.keyPath = keyPath
    self.ascending = ascending
    self.options = options
  }

  /// Creates a sort descriptor that compares strings case-insensitively, like
  /// `NSSortDescriptor(key:ascending:selector: #selector(NSString.caseInsensitiveCompare(_:)))`.
  public static func caseInsensitive(_ keyPath: PredicateKeyPath, ascending: Bool = true) -> FetchSortDescriptor {
    FetchSortDescriptor(keyPath, ascending: ascending, options: .caseInsensitive)
  }

  /// Compares two key values in this descriptor's order (direction included).
  public func compareValues(_ lhs: PredicateValue, _ rhs: PredicateValue) -> ComparisonResult {
    let result = PredicateValueComparison.sortOrder(lhs, rhs, options: options)
    guard !ascending else { return result }
    switch result {
    case .orderedAscending: return .orderedDescending
    case .orderedDescending: return .orderedAscending
    case .orderedSame: return .orderedSame
    }
  }

  /// The value this descriptor sorts an object by.
  ///
  /// - Throws: ``PredicateEvaluationError/invalidSortKey(_:)`` when the key path leads to a
  ///   collection, or any error the object throws while its keys are read.
  public func sortKey(of object: any PredicateEvaluable) throws -> PredicateValue {
    let evaluator = PredicateEvaluator(root: .object(object), variables: [:])
    let (value, _) = try evaluator.value(of: .keyPath(keyPath))
    if case .collection = value { throw PredicateEvaluationError.invalidSortKey(keyPath.description) }
    return value.scalarValue
  }

  /// Compares two objects by this descriptor alone.
  ///
  /// - Throws: As ``sortKey(of:)``.
  public func compare(_ lhs: any PredicateEvaluable, _ rhs: any PredicateEvaluable) throws -> ComparisonResult {
    compareValues(try sortKey(of: lhs), try sortKey(of: rhs))
  }
}
