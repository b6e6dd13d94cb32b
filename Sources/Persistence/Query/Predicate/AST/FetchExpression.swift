/// An expression inside a predicate: the counterpart of `NSExpression`.
///
/// The parser produces a canonical form that ``description`` prints back:
/// - a key path of the evaluated object is always ``keyPath(_:)``, so `SELF.name` and `name`
///   both become `.keyPath("name")`, and `a.b` followed by `.c` is one key path `a.b.c`;
/// - ``member(_:_:)`` is only used on other bases, such as a variable (`$t.title`);
/// - a literal aggregate whose elements are all constants (`{1, 2}`, or an array passed as `%@`)
///   is a ``constant(_:)`` holding ``PredicateValue/array(_:)``; ``aggregate(_:)`` is left for
///   aggregates that contain a key path or a variable (`{$low, 10}`).
public indirect enum FetchExpression: Sendable, Hashable, Codable {
  /// A constant value: a literal in the format string or a `%@`/`%d`/`%f` argument.
  case constant(PredicateValue)
  /// `SELF`: the object being evaluated (inside `SUBQUERY`, the current element).
  case evaluatedObject
  /// `$name`: a substitution variable, or the element variable of an enclosing `SUBQUERY`.
  case variable(String)
  /// A key path of the evaluated object, such as `project.name`.
  case keyPath(PredicateKeyPath)
  /// A key path applied to the value of another expression, such as `$t.title`.
  case member(FetchExpression, PredicateKeyPath)
  /// A literal aggregate `{a, b, …}` with at least one non-constant element.
  case aggregate([FetchExpression])
  /// A collection operator applied to a collection, such as `tags.@count` or `items.@sum.price`
  /// (where the key path `price` is read from each element before summing).
  case collectionOperator(PredicateCollectionOperator, collection: FetchExpression, keyPath: PredicateKeyPath?)
  /// `SUBQUERY(collection, $variable, predicate)`: the elements of `collection` for which
  /// `predicate` holds when `$variable` (and `SELF`) is bound to the element. It is a collection,
  /// usually followed by `.@count`.
  case subquery(collection: FetchExpression, variable: String, predicate: FetchPredicate)
}

extension FetchExpression {
  /// A shorthand for a string constant.
  public static func string(_ value: String) -> FetchExpression { .constant(.string(value)) }

  /// A shorthand for a constant built from any format-argument value (`.value(42)`, `.value(date)`).
  public static func value(_ value: (any PredicateArgumentConvertible)?) -> FetchExpression {
    .constant(value?.predicateValue ?? .null)
  }

  /// Applies a key path to this expression, keeping the canonical form: on `SELF` or a key path
  /// the components are appended to one ``keyPath(_:)``; on any other base it is a ``member(_:_:)``.
  public func appending(_ keyPath: PredicateKeyPath) -> FetchExpression {
    switch self {
    case .evaluatedObject: .keyPath(keyPath)
    case .keyPath(let base): .keyPath(base.appending(keyPath))
    case .member(let base, let path): .member(base, path.appending(keyPath))
    default: .member(self, keyPath)
    }
  }
}
