/// A typed name of a property of an entity, for building predicates and sort descriptors
/// without strings: what generated entity code exposes (`Task.Keys.priority < 3`,
/// `Task.Keys.dueDate.ascending`).
///
/// The string form (``FetchPredicate/init(format:_:)``) stays available; both build the same
/// ``FetchPredicate``.
public struct PropertyKey<Root: ManagedObject, Value>: Sendable {
  /// The key path, from the root entity.
  public let keyPath: PredicateKeyPath
  /// What the key stands for in a predicate: the key path, or a value computed from it (a
  /// count of a to-many relationship).
  let expression: FetchExpression

  /// A key for a property (or a dotted key path through to-one relationships).
  public init(_ keyPath: String) {
    self.keyPath = PredicateKeyPath(keyPath)
    self.expression = .keyPath(self.keyPath)
  }

  init(keyPath: PredicateKeyPath, expression: FetchExpression) {
    self.keyPath = keyPath
    self.expression = expression
  }

  /// The key followed by a key of the destination (`Task.Keys.project.appending(Project.Keys.name)`).
  public func appending<Next>(_ next: PropertyKey<some ManagedObject, Next>) -> PropertyKey<Root, Next> {
    PropertyKey<Root, Next>(keyPath.appending(next.keyPath).dotted)
  }

  /// Ascending order on this key.
  public var ascending: FetchSortDescriptor { FetchSortDescriptor(keyPath, ascending: true) }

  /// Descending order on this key.
  public var descending: FetchSortDescriptor { FetchSortDescriptor(keyPath, ascending: false) }

  /// Ascending order ignoring case.
  public var ascendingCaseInsensitive: FetchSortDescriptor { .caseInsensitive(keyPath, ascending: true) }

  /// Whether the value is nil.
  public var isNil: FetchPredicate { compare(.equalTo, .constant(.null)) }

  /// Whether the value is not nil.
  public var isNotNil: FetchPredicate { compare(.notEqualTo, .constant(.null)) }

  func compare(
    _ operation: PredicateOperator, _ right: FetchExpression, options: PredicateComparisonOptions = []
  ) -> FetchPredicate {
    .comparison(PredicateComparison(expression, operation, right, options: options))
  }
}

extension PropertyKey where Value: PredicateArgumentConvertible {
  /// `key == value`.
  public static func == (key: PropertyKey, value: Value) -> FetchPredicate {
    key.compare(.equalTo, .value(value))
  }

  /// `key != value`.
  public static func != (key: PropertyKey, value: Value) -> FetchPredicate {
    key.compare(.notEqualTo, .value(value))
  }

  /// `key < value`.
  public static func < (key: PropertyKey, value: Value) -> FetchPredicate {
    key.compare(.lessThan, .value(value))
  }

  /// `key <= value`.
  public static func <= (key: PropertyKey, value: Value) -> FetchPredicate {
    key.compare(.lessThanOrEqualTo, .value(value))
  }

  /// `key > value`.
  public static func > (key: PropertyKey, value: Value) -> FetchPredicate {
    key.compare(.greaterThan, .value(value))
  }

  /// `key >= value`.
  public static func >= (key: PropertyKey, value: Value) -> FetchPredicate {
    key.compare(.greaterThanOrEqualTo, .value(value))
  }

  /// `key IN {values}`.
  public func isIn(_ values: [Value]) -> FetchPredicate {
    compare(.in, .constant(.array(values.map(\.predicateValue))))
  }

  /// `key BETWEEN {lower, upper}`.
  public func isBetween(_ lower: Value, and upper: Value) -> FetchPredicate {
    compare(.between, .constant(.array([lower.predicateValue, upper.predicateValue])))
  }
}

extension FetchPredicate {
  /// `lhs AND rhs`.
  public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate { .and([lhs, rhs]) }

  /// `lhs OR rhs`.
  public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate { .or([lhs, rhs]) }

  /// `NOT predicate`.
  public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate { .not(predicate) }
}
