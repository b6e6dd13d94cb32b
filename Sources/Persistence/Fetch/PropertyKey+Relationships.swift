/// Keys of relationships: following a to-one relationship to its destination's keys, and
/// quantifying over a to-many relationship's destinations (`ANY`, `ALL`, `NONE`, `@count`,
/// `@sum`…), with the destination entity's own typed keys.
extension PropertyKey where Value: ManagedObject {
  /// A key of the destination of this to-one relationship
  /// (`Task.Keys.project.appending(Project.Keys.name)`); nil when the relationship is empty.
  public func appending<Next>(_ next: PropertyKey<Value, Next>) -> PropertyKey<Root, Next?> {
    PropertyKey<Root, Next?>(keyPath.appending(next.keyPath).dotted)
  }
}

extension PropertyKey {
  /// A key of the destination of this optional to-one relationship; nil when it is empty.
  public func appending<Destination: ManagedObject, Next>(_ next: PropertyKey<Destination, Next>) -> PropertyKey<
    Root, Next?
  > where Value == Destination? {
    PropertyKey<Root, Next?>(keyPath.appending(next.keyPath).dotted)
  }
}

extension PropertyKey where Value: Sequence, Value.Element: ManagedObject {
  /// The destinations for which `predicate` (written with the destination's keys) holds, as
  /// `SUBQUERY(key, $element, predicate)`: inside it, keys are the destination's.
  private func matching(_ predicate: FetchPredicate) -> FetchExpression {
    .subquery(collection: .keyPath(keyPath), variable: "element", predicate: predicate)
  }

  private func count(of collection: FetchExpression) -> FetchExpression {
    .collectionOperator(.count, collection: collection, keyPath: nil)
  }

  /// Some destination satisfies `predicate` (`ANY`): `Task.Keys.tags.any(Tag.Keys.name == "home")`.
  public func any(_ predicate: FetchPredicate) -> FetchPredicate {
    .compare(count(of: matching(predicate)), .greaterThan, .value(0))
  }

  /// Every destination satisfies `predicate` (`ALL`); true without destinations.
  public func all(_ predicate: FetchPredicate) -> FetchPredicate {
    .compare(count(of: matching(.not(predicate))), .equalTo, .value(0))
  }

  /// No destination satisfies `predicate` (`NONE`); true without destinations.
  public func none(_ predicate: FetchPredicate) -> FetchPredicate {
    .compare(count(of: matching(predicate)), .equalTo, .value(0))
  }

  /// The relationship holds this object (`tags CONTAINS %@`).
  public func contains(_ object: Value.Element) -> FetchPredicate {
    .compare(.keyPath(keyPath), .contains, .value(object))
  }

  /// The number of destinations (`tags.@count`), to compare: `Task.Keys.tags.count > 2`. It
  /// cannot be sorted by.
  public var count: PropertyKey<Root, Int> {
    PropertyKey<Root, Int>(
      keyPath: keyPath.appending(PredicateKeyPath(["@count"])), expression: count(of: .keyPath(keyPath)))
  }

  /// The number of destinations satisfying `predicate` (`SUBQUERY(…).@count`).
  public func count(where predicate: FetchPredicate) -> PropertyKey<Root, Int> {
    PropertyKey<Root, Int>(
      keyPath: keyPath.appending(PredicateKeyPath(["@count"])), expression: count(of: matching(predicate)))
  }

  /// The sum of a number of the destinations (`items.@sum.price`); 0 without destinations.
  public func sum<Number>(_ key: PropertyKey<Value.Element, Number>) -> PropertyKey<Root, Number> {
    aggregate(.sum, key)
  }

  /// The mean of a number of the destinations (`@avg`); nil without destinations.
  public func average<Number>(_ key: PropertyKey<Value.Element, Number>) -> PropertyKey<Root, Double?> {
    aggregate(.avg, key)
  }

  /// The least value of a key of the destinations (`@min`); nil without destinations.
  public func minimum<Element>(_ key: PropertyKey<Value.Element, Element>) -> PropertyKey<Root, Element?> {
    aggregate(.min, key)
  }

  /// The greatest value of a key of the destinations (`@max`); nil without destinations.
  public func maximum<Element>(_ key: PropertyKey<Value.Element, Element>) -> PropertyKey<Root, Element?> {
    aggregate(.max, key)
  }

  private func aggregate<Element, Result>(
    _ op: PredicateCollectionOperator, _ key: PropertyKey<Value.Element, Element>
  ) -> PropertyKey<Root, Result> {
    PropertyKey<Root, Result>(
      keyPath: keyPath.appending(PredicateKeyPath(["@\(op.rawValue)"])).appending(key.keyPath),
      expression: .collectionOperator(op, collection: .keyPath(keyPath), keyPath: key.keyPath))
  }
}
