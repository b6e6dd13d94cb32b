import Foundation

/// Evaluates predicates and expressions in memory, with NSPredicate's semantics.
///
/// These rules are the contract the SQL translation of predicates must match; a second
/// evaluator compiled to SQL is checked against this one.
///
/// **Key paths.** Each key of a key path is read with ``PredicateEvaluable/predicateValue(forKey:)``.
/// Reading a key of `nil` gives `nil`. Reading a key of a collection reads it of every element
/// and flattens the results into one collection (keeping `nil`s); the key path is then said to
/// *cross* a to-many relationship. Reading a key of any other scalar is an error
/// (``PredicateEvaluationError/keyOnNonObject(key:valueKind:)``).
///
/// **Modifiers.** `ANY`/`SOME` is true when at least one element satisfies the comparison
/// (false for an empty collection), `ALL` when every element does (true for an empty
/// collection), `NONE` when no element does (true for an empty collection; the same as
/// `NOT ANY`). `nil` is an empty collection and a single value a one-element collection. A
/// comparison without a modifier whose *left* key path crosses a to-many relationship means
/// `ANY`, as in Core Data's SQL store (`tags.name == "x"` is `ANY tags.name == "x"`; the same
/// holds for `!=`). A key path that *ends* at a to-many relationship (`tags`) is a collection
/// value and implies nothing.
///
/// **Equality** (`==`, `!=`, and membership for `IN`/`CONTAINS`). `nil == nil` is true and
/// `nil` equals nothing else, so `nil != "a"` is true. Numbers (booleans as 0 and 1, integers,
/// doubles, decimals) are equal when numerically equal. Strings are equal when their Unicode
/// scalars are identical (no normalization), or their folded forms with `[c]`/`[d]`. Dates are
/// equal at the same instant; data, UUIDs, URLs by value; collections element by element.
/// Objects are equal by ``PredicateEvaluable/predicateIdentity`` or, without identities, when
/// they are the same instance; an object equals a constant when its identity does. Values of
/// different kinds are not equal (a string never equals a number).
///
/// **Ordering** (`<`, `<=`, `>`, `>=`, `BETWEEN`). Numbers numerically, dates chronologically,
/// strings by Unicode scalar value (equivalently by UTF-8 bytes, as SQLite's binary collation),
/// after folding when `[c]`/`[d]` is given. Any other combination, and anything involving
/// `nil`, is false. `BETWEEN {lower, upper}` is `lower <= value AND value <= upper`; a right
/// side that is not a two-element collection is an error (or false when it is `nil`).
///
/// **Strings.** `CONTAINS`, `BEGINSWITH`, `ENDSWITH`, `LIKE` and `MATCHES` are false when
/// either side is not a string, `nil` included; an empty search string is found nowhere. See
/// ``PredicateStringMatching`` for `LIKE` wildcards and `MATCHES` (whole-string ICU regular
/// expressions; an invalid one is an error). Folding is ``PredicateStringFolding``.
///
/// **Collections.** `x IN c` is true when `c` is a collection with an element equal to `x`, or
/// when both are strings and `x` is a substring of `c` (NSPredicate's behaviour); `nil` or a
/// non-string scalar on the right is false. `c CONTAINS x` is membership when `c` is a
/// collection and substring search when both are strings.
///
/// **Collection operators.** `@count` is the number of elements, 0 for `nil`. `@sum` adds the
/// numbers, skipping `nil`s: an integer while every element is an integer (a double on
/// overflow), a decimal if any element is a decimal, a double if any is a double; 0 for an
/// empty collection. `@avg` is the mean of the non-`nil` numbers, a double (a decimal if any
/// element is a decimal), and `nil` for a collection with no numbers, like SQL's AVG.
/// `@min`/`@max` are the least/greatest non-`nil` element in the sort order of
/// ``FetchSortDescriptor``, `nil` when there is none. A non-number for `@sum`/`@avg`, and any
/// of these on a value that is not a collection, are errors. With a key path (`items.@sum.price`)
/// the key path is read of each element first.
///
/// **SUBQUERY.** `SUBQUERY(c, $x, p)` is the collection of the elements of `c` for which `p`
/// holds, where `$x` and `SELF` (so also bare key paths) mean the element inside `p`. `nil`
/// gives an empty collection; a value that is not a collection is an error.
///
/// **Variables.** `$name` is bound by an enclosing `SUBQUERY` or given in the variables passed
/// to evaluation; otherwise evaluation fails with
/// ``PredicateEvaluationError/unresolvedVariable(_:)`` naming it.
///
/// **Compounds.** `AND` and `OR` evaluate left to right and stop at the first deciding
/// subpredicate, so an error in a later subpredicate can go unnoticed.
struct PredicateEvaluator {
  /// What `SELF` means: the evaluated object, or the current element inside a `SUBQUERY`.
  var root: PredicateOperand
  /// Variable bindings: substitution values and `SUBQUERY` element variables.
  var bindings: [String: PredicateOperand]

  /// Creates an evaluator for one object and the given variable values.
  init(root: PredicateOperand, variables: [String: any PredicateArgumentConvertible]) {
    self.root = root
    self.bindings = variables.mapValues { PredicateOperand($0.predicateValue) }
  }

  // MARK: - Predicates

  /// Whether the predicate holds.
  func evaluate(_ predicate: FetchPredicate) throws -> Bool {
    switch predicate {
    case .true:
      return true
    case .false:
      return false
    case .and(let subpredicates):
      for subpredicate in subpredicates where try !evaluate(subpredicate) { return false }
      return true
    case .or(let subpredicates):
      for subpredicate in subpredicates where try evaluate(subpredicate) { return true }
      return false
    case .not(let subpredicate):
      return try !evaluate(subpredicate)
    case .comparison(let comparison):
      return try evaluate(comparison)
    }
  }

  private func evaluate(_ comparison: PredicateComparison) throws -> Bool {
    let (left, crossesToMany) = try value(of: comparison.left)
    let (right, _) = try value(of: comparison.right)
    var modifier = comparison.modifier
    if modifier == .direct, crossesToMany { modifier = .any }
    let op = comparison.operator
    let options = comparison.options
    switch modifier {
    case .direct:
      return try compare(left, op, right, options)
    case .any:
      return try left.quantifiedElements.contains { try compare($0, op, right, options) }
    case .all:
      return try left.quantifiedElements.allSatisfy { try compare($0, op, right, options) }
    case .none:
      return try !left.quantifiedElements.contains { try compare($0, op, right, options) }
    }
  }

  private func compare(
    _ left: PredicateOperand, _ op: PredicateOperator, _ right: PredicateOperand, _ options: PredicateComparisonOptions
  ) throws -> Bool {
    switch op {
    case .equalTo:
      return equal(left, right, options)
    case .notEqualTo:
      return !equal(left, right, options)
    case .lessThan:
      return order(left, right, options) == .orderedAscending
    case .lessThanOrEqualTo:
      return order(left, right, options).map { $0 != .orderedDescending } ?? false
    case .greaterThan:
      return order(left, right, options) == .orderedDescending
    case .greaterThanOrEqualTo:
      return order(left, right, options).map { $0 != .orderedAscending } ?? false
    case .between:
      if right.isNull { return false }
      guard case .collection(let bounds) = right, bounds.count == 2 else {
        throw PredicateEvaluationError.invalidOperand("BETWEEN needs a collection of exactly two bounds {lower, upper}")
      }
      guard let lower = order(left, bounds[0], options), let upper = order(left, bounds[1], options) else {
        return false
      }
      return lower != .orderedAscending && upper != .orderedDescending
    case .in:
      switch right {
      case .collection(let elements):
        return elements.contains { equal(left, $0, options) }
      case .scalar(.string(let string)):
        guard case .scalar(.string(let substring)) = left else { return false }
        return PredicateStringMatching.contains(string, substring, options: options)
      default:
        return false
      }
    case .contains:
      switch left {
      case .collection(let elements):
        return elements.contains { equal($0, right, options) }
      case .scalar(.string(let string)):
        guard case .scalar(.string(let substring)) = right else { return false }
        return PredicateStringMatching.contains(string, substring, options: options)
      default:
        return false
      }
    case .beginsWith, .endsWith, .like, .matches:
      guard case .scalar(.string(let string)) = left, case .scalar(.string(let pattern)) = right else {
        return false
      }
      switch op {
      case .beginsWith: return PredicateStringMatching.beginsWith(string, pattern, options: options)
      case .endsWith: return PredicateStringMatching.endsWith(string, pattern, options: options)
      case .like: return PredicateStringMatching.like(string, pattern: pattern, options: options)
      default: return try PredicateStringMatching.matches(string, regex: pattern, options: options)
      }
    }
  }

  private func equal(_ left: PredicateOperand, _ right: PredicateOperand, _ options: PredicateComparisonOptions)
    -> Bool
  {
    switch (left, right) {
    case (.scalar(let a), .scalar(let b)):
      return PredicateValueComparison.equal(a, b, options: options)
    case (.collection(let a), .collection(let b)):
      return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1, options) }
    case (.object(let a), .object(let b)):
      return Self.sameObject(a, b)
    case (.object(let object), .scalar(let value)), (.scalar(let value), .object(let object)):
      guard !value.isNull, let identity = object.predicateIdentity else { return false }
      return PredicateValueComparison.equal(identity, value, options: [])
    default:
      return false
    }
  }

  /// Whether two objects are the same: equal identities, or the same class instance.
  static func sameObject(_ a: any PredicateEvaluable, _ b: any PredicateEvaluable) -> Bool {
    if let x = a.predicateIdentity, let y = b.predicateIdentity {
      return PredicateValueComparison.equal(x, y, options: [])
    }
    guard type(of: a) is AnyObject.Type, type(of: b) is AnyObject.Type else { return false }
    return (a as AnyObject) === (b as AnyObject)
  }

  private func order(_ left: PredicateOperand, _ right: PredicateOperand, _ options: PredicateComparisonOptions)
    -> ComparisonResult?
  {
    guard case .scalar(let a) = left, case .scalar(let b) = right else { return nil }
    return PredicateValueComparison.order(a, b, options: options)
  }

  // MARK: - Expressions

  /// The value of an expression, and whether it was read through a to-many relationship.
  func value(of expression: FetchExpression) throws -> (PredicateOperand, crossesToMany: Bool) {
    switch expression {
    case .constant(let value):
      return (PredicateOperand(value), false)
    case .evaluatedObject:
      return (root, false)
    case .variable(let name):
      guard let bound = bindings[name] else { throw PredicateEvaluationError.unresolvedVariable(name) }
      return (bound, false)
    case .keyPath(let path):
      var crosses = false
      let value = try read(path, of: root, crossesToMany: &crosses)
      return (value, crosses)
    case .member(let base, let path):
      var (value, crosses) = try self.value(of: base)
      value = try read(path, of: value, crossesToMany: &crosses)
      return (value, crosses)
    case .aggregate(let elements):
      return (.collection(try elements.map { try value(of: $0).0 }), false)
    case .collectionOperator(let op, let collection, let keyPath):
      var elements = try self.elements(of: collection)
      if let keyPath {
        elements = try elements.flatMap { element -> [PredicateOperand] in
          var crosses = false
          let value = try read(keyPath, of: element, crossesToMany: &crosses)
          if case .collection(let inner) = value { return inner }
          return [value]
        }
      }
      return (try PredicateAggregation.apply(op, to: elements), false)
    case .subquery(let collection, let variable, let predicate):
      var matches: [PredicateOperand] = []
      for element in try elements(of: collection) {
        var scope = self
        scope.root = element
        scope.bindings[variable] = element
        if try scope.evaluate(predicate) { matches.append(element) }
      }
      return (.collection(matches), false)
    }
  }

  /// The elements of a collection-valued expression: none for `nil`, an error for a non-collection.
  private func elements(of expression: FetchExpression) throws -> [PredicateOperand] {
    switch try value(of: expression).0 {
    case .collection(let elements): return elements
    case .scalar(.null): return []
    default: throw PredicateEvaluationError.notACollection(expression.description)
    }
  }

  /// Follows a key path from a value, flattening through collections.
  private func read(_ path: PredicateKeyPath, of value: PredicateOperand, crossesToMany: inout Bool) throws
    -> PredicateOperand
  {
    var current = value
    for key in path.components {
      current = try read(key, of: current, crossesToMany: &crossesToMany)
    }
    return current
  }

  private func read(_ key: String, of value: PredicateOperand, crossesToMany: inout Bool) throws -> PredicateOperand {
    switch value {
    case .object(let object):
      return PredicateOperand(try object.predicateValue(forKey: key))
    case .scalar(.null):
      return .null
    case .scalar(let scalar):
      throw PredicateEvaluationError.keyOnNonObject(key: key, valueKind: scalar.kindDescription)
    case .collection(let elements):
      crossesToMany = true
      var results: [PredicateOperand] = []
      for element in elements {
        var nested = false
        let result = try read(key, of: element, crossesToMany: &nested)
        if case .collection(let inner) = result {
          results.append(contentsOf: inner)
        } else {
          results.append(result)
        }
      }
      return .collection(results)
    }
  }
}
