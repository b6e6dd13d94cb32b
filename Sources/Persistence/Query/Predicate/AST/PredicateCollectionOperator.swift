/// A key-value-coding collection operator applied to a collection in a predicate: `@count`,
/// `@sum`, `@avg`, `@min`, `@max`.
///
/// `tags.@count` counts a collection; `items.@sum.price` sums the `price` of every element.
public enum PredicateCollectionOperator: String, Sendable, Hashable, Codable, CaseIterable {
  /// `@count`: the number of elements (0 for nil).
  case count
  /// `@sum`: the numeric sum of the elements (0 for an empty collection).
  case sum
  /// `@avg`: the numeric mean of the elements (nil for an empty collection).
  case avg
  /// `@min`: the smallest element (nil for an empty collection).
  case min
  /// `@max`: the largest element (nil for an empty collection).
  case max

  /// Whether the operator may be followed by a key path (`@sum.price`); only `@count` may not.
  public var acceptsKeyPath: Bool { self != .count }
}
