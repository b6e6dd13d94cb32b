import Foundation
import SQLite

/// Comparisons: modifiers and implied `ANY`, equality, ordering, `BETWEEN`, `IN` and
/// `CONTAINS`, each following the evaluator's rules for the kinds of its two sides.
extension QuerySQLCompiler {
  /// A comparison in a scope, or nil when it does not compile.
  func compile(_ comparison: PredicateComparison, in scope: QueryScope) -> SQLCondition? {
    guard let left = operand(comparison.left, in: scope), let right = operand(comparison.right, in: scope) else {
      return nil
    }
    let op = comparison.operator
    let options = comparison.options
    if case .constant(let a) = left, case .constant(let b) = right {
      return decided(
        .comparison(
          PredicateComparison(.constant(a), op, .constant(b), modifier: comparison.modifier, options: options)))
    }
    switch comparison.modifier {
    case .direct:
      guard case .collection(let elements) = left, elements.crossesToMany else {
        return direct(left, op, right, options)
      }
      // A key path through a to-many relationship means ANY, unless a to-one relationship
      // before it is empty: the value is then nil, compared as such.
      guard let any = quantified(.any, elements, op, right, options) else { return nil }
      guard let nilWhen = elements.nilWhen else { return any }
      guard let whenNil = direct(.constant(.null), op, right, options) else { return nil }
      return .any([.all([.sql(nilWhen), whenNil]), any])
    case .any, .all, .none:
      return quantified(comparison.modifier, left, op, right, options)
    }
  }

  /// `ANY`, `ALL` or `NONE` over the elements of a value: a collection's elements, none for
  /// nil, the value itself otherwise.
  private func quantified(
    _ modifier: PredicateModifier, _ left: SQLOperand, _ op: PredicateOperator, _ right: SQLOperand,
    _ options: PredicateComparisonOptions
  ) -> SQLCondition? {
    switch left {
    case .collection(let elements):
      return quantified(modifier, elements, op, right, options)
    case .constant(let value):
      let elements: [PredicateValue]
      switch value {
      case .null: elements = []
      case .array(let values): elements = values
      default: elements = [value]
      }
      return combine(modifier, elements.map { direct(.constant($0), op, right, options) })
    case .list(let operands):
      return combine(modifier, operands.map { direct($0, op, right, options) })
    case .scalar, .object:
      guard let test = direct(left, op, right, options) else { return nil }
      let isNil = isNull(left)
      switch modifier {
      case .any, .direct: return .all([isNil.negated, test])
      case .all: return .any([isNil, test])
      case .none: return .any([isNil, test.negated])
      }
    }
  }

  private func quantified(
    _ modifier: PredicateModifier, _ elements: SQLCollection, _ op: PredicateOperator, _ right: SQLOperand,
    _ options: PredicateComparisonOptions
  ) -> SQLCondition? {
    guard let test = direct(elements.element, op, right, options) else { return nil }
    switch modifier {
    case .any, .direct: return elements.exists(where: test)
    case .all: return elements.exists(where: test.negated).negated
    case .none: return elements.exists(where: test).negated
    }
  }

  private func combine(_ modifier: PredicateModifier, _ tests: [SQLCondition?]) -> SQLCondition? {
    var conditions: [SQLCondition] = []
    for test in tests {
      guard let test else { return nil }
      conditions.append(test)
    }
    switch modifier {
    case .any, .direct: return .any(conditions)
    case .all: return .all(conditions)
    case .none: return .any(conditions).negated
    }
  }

  /// A comparison without a modifier between two values.
  func direct(
    _ left: SQLOperand, _ op: PredicateOperator, _ right: SQLOperand, _ options: PredicateComparisonOptions
  ) -> SQLCondition? {
    if case .constant(let a) = left, case .constant(let b) = right {
      return decided(.compare(.constant(a), op, .constant(b), options: options))
    }
    switch op {
    case .equalTo:
      return equal(left, right, options)
    case .notEqualTo:
      return equal(left, right, options)?.negated
    case .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo:
      return order(left, op, right, options)
    case .between:
      return between(left, right, options)
    case .in:
      return membership(of: left, in: right, options)
    case .contains:
      return contains(left, right, options)
    case .beginsWith, .endsWith, .like, .matches:
      return stringOperator(op, left, right, options)
    }
  }

  /// A comparison of constants, decided by the evaluator itself; nil when it fails there (an
  /// invalid pattern, a malformed BETWEEN), so that the fetch reports the evaluator's error.
  func decided(_ predicate: FetchPredicate) -> SQLCondition? {
    guard let result = try? predicate.evaluate(withValue: .null) else { return nil }
    return .constant(result)
  }

  // MARK: - nil

  /// Whether a value is nil.
  func isNull(_ value: SQLOperand) -> SQLCondition {
    switch value {
    case .constant(let constant): return .constant(constant.isNull)
    case .scalar(let scalar): return .sql(scalar.sql + " IS NULL")
    case .object(let reference): return reference.isNullable ? .sql(reference.key + " IS NULL") : .constant(false)
    case .collection(let elements): return elements.nilWhen.map { .sql($0) } ?? .constant(false)
    case .list: return .constant(false)
    }
  }

  // MARK: - Equality

  /// `left == right` with the evaluator's equality: nil equals nil only; numbers numerically;
  /// strings by scalars (folded for `[c]`/`[d]`); dates, data, UUIDs and URIs by value;
  /// objects by identity; values of different kinds never.
  func equal(_ left: SQLOperand, _ right: SQLOperand, _ options: PredicateComparisonOptions) -> SQLCondition? {
    switch (left, right) {
    case (.constant(let a), .constant(let b)):
      return .constant(PredicateValueComparison.equal(a, b, options: options))
    case (.constant(.null), _):
      return isNull(right)
    case (_, .constant(.null)):
      return isNull(left)
    case (.collection, .collection), (.list, _), (_, .list), (.collection, .constant(.array)),
      (.constant(.array), .collection):
      // Collections compare element by element, in order: left to the evaluator.
      return nil
    case (.collection(let elements), _), (_, .collection(let elements)):
      // A collection equals no single value, but a nil one (an empty to-one on the way) is nil.
      let other: SQLOperand
      if case .collection = left { other = right } else { other = left }
      guard let nilWhen = elements.nilWhen else { return .constant(false) }
      return .all([.sql(nilWhen), isNull(other)])
    case (.constant(.array), _), (_, .constant(.array)):
      return .constant(false)
    case (.object(let a), .object(let b)):
      return sameObject(a, b)
    case (.object(let reference), .constant(let value)), (.constant(let value), .object(let reference)):
      return object(reference, equals: value)
    case (.object(let reference), .scalar(let scalar)), (.scalar(let scalar), .object(let reference)):
      // An object equals a URI value with its identity: left to the evaluator.
      guard scalar.kind != .uri else { return nil }
      return .all([isNull(.object(reference)), .sql(scalar.sql + " IS NULL")])
    case (.scalar(let scalar), .constant(let value)), (.constant(let value), .scalar(let scalar)):
      return scalarEquals(scalar, value, options)
    case (.scalar(let a), .scalar(let b)):
      return scalars(a, equal: b, options)
    }
  }

  /// Two objects are the same: equal keys (both nil included) and, for a key, equal entities.
  private func sameObject(_ a: SQLObjectReference, _ b: SQLObjectReference) -> SQLCondition {
    let keys = SQLCondition.sql(a.key + " IS " + b.key)
    let entities: SQLCondition
    switch (a.entityNumber, b.entityNumber) {
    case (nil, nil):
      entities = .constant(a.entity == b.entity)
    case (let number?, nil):
      entities = entityNumber(number, is: b.entity)
    case (nil, let number?):
      entities = entityNumber(number, is: a.entity)
    case (let x?, let y?):
      entities = .sql(x + " = " + y)
    }
    guard a.isNullable || b.isNullable else { return .all([keys, entities]) }
    return .all([keys, .any([.sql(a.key + " IS NULL"), entities])])
  }

  private func entityNumber(_ number: SQLiteSQL, is entity: EntityID) -> SQLCondition {
    .sql(number + " = \(Int64(schema[entity].entityNumber))")
  }

  /// An object equals a constant that is its identity: an object ID's URL.
  private func object(_ reference: SQLObjectReference, equals value: PredicateValue) -> SQLCondition {
    guard case .url(let url) = value, let id = ObjectID(predicateValue: value),
      case .url(let canonical) = id.predicateValue, canonical.absoluteString == url.absoluteString,
      id.entity.index >= 0, id.entity.index < model.entities.count,
      model.entity(id.entity, isKindOf: reference.entity)
    else { return .constant(false) }
    let key = SQLCondition.sql(reference.key + " = \(id.key)")
    guard let number = reference.entityNumber else {
      return id.entity == reference.entity ? key : .constant(false)
    }
    return .all([key, entityNumber(number, is: id.entity)])
  }

  /// A column (or computed value) equals a constant.
  private func scalarEquals(_ scalar: SQLScalar, _ value: PredicateValue, _ options: PredicateComparisonOptions)
    -> SQLCondition
  {
    guard let bound = bind(value, against: scalar.kind, options: options) else { return .constant(false) }
    switch bound {
    case .native(let argument):
      return .sql(folded(scalar, options) + " = \(argument)")
    case .function(let kind, let argument):
      return compareFunction(.equal, options, scalar, kind, argument)
    case .never:
      return .constant(false)
    }
  }

  /// Two columns (or computed values) are equal; nil equals nil.
  private func scalars(_ a: SQLScalar, equal b: SQLScalar, _ options: PredicateComparisonOptions) -> SQLCondition {
    guard a.kind.comparisonClass == b.kind.comparisonClass else {
      return .all([.sql(a.sql + " IS NULL"), .sql(b.sql + " IS NULL")])
    }
    if a.kind.hasNativeEquality && b.kind.hasNativeEquality {
      return .sql(folded(a, options) + " IS " + folded(b, options))
    }
    return compareFunction(.equal, options, a, b)
  }

  // MARK: - Ordering

  /// `<`, `<=`, `>`, `>=`: numbers numerically, strings by scalars (folded for `[c]`/`[d]`),
  /// dates chronologically; anything else, nil included, is false.
  func order(_ left: SQLOperand, _ op: PredicateOperator, _ right: SQLOperand, _ options: PredicateComparisonOptions)
    -> SQLCondition?
  {
    switch (left, right) {
    case (.constant(let a), .constant(let b)):
      return decided(.compare(.constant(a), op, .constant(b), options: options))
    case (.scalar(let scalar), .constant(let value)):
      return order(scalar, op, value, options)
    case (.constant(let value), .scalar(let scalar)):
      return order(scalar, op.reversed, value, options)
    case (.scalar(let a), .scalar(let b)):
      guard a.kind.comparisonClass == b.kind.comparisonClass, a.kind.isNumber || a.kind == .date || a.kind == .string
      else { return .constant(false) }
      if a.kind.isOrderedNatively && b.kind.isOrderedNatively {
        return .sql(folded(a, options) + SQLiteSQL(verbatim: " \(op.rawValue) ") + folded(b, options))
      }
      return compareFunction(QueryFunctions.ComparisonCode(op), options, a, b)
    default:
      // Objects, collections and nil have no order.
      return .constant(false)
    }
  }

  private func order(
    _ scalar: SQLScalar, _ op: PredicateOperator, _ value: PredicateValue, _ options: PredicateComparisonOptions
  ) -> SQLCondition {
    guard scalar.kind.isNumber || scalar.kind == .date || scalar.kind == .string,
      let bound = bind(value, against: scalar.kind, options: options)
    else { return .constant(false) }
    switch bound {
    case .native(let argument):
      return .sql(folded(scalar, options) + SQLiteSQL(verbatim: " \(op.rawValue) ") + "\(argument)")
    case .function(let kind, let argument):
      return compareFunction(QueryFunctions.ComparisonCode(op), options, scalar, kind, argument)
    case .never:
      return .constant(false)
    }
  }

  /// `BETWEEN {lower, upper}`: `lower <= value AND value <= upper`.
  private func between(_ left: SQLOperand, _ right: SQLOperand, _ options: PredicateComparisonOptions)
    -> SQLCondition?
  {
    let bounds: [SQLOperand]
    switch right {
    case .constant(.null): return .constant(false)
    case .constant(.array(let values)) where values.count == 2: bounds = values.map(SQLOperand.constant)
    case .list(let operands) where operands.count == 2: bounds = operands
    default: return nil  // the evaluator reports the malformed bounds
    }
    guard let lower = order(left, .greaterThanOrEqualTo, bounds[0], options),
      let upper = order(left, .lessThanOrEqualTo, bounds[1], options)
    else { return nil }
    return .all([lower, upper])
  }

  // MARK: - IN and CONTAINS

  /// `value IN collection`, or `string IN string` (a substring test).
  private func membership(of left: SQLOperand, in right: SQLOperand, _ options: PredicateComparisonOptions)
    -> SQLCondition?
  {
    switch right {
    case .constant(.array(let values)):
      if case .scalar(let scalar) = left, let list = inList(scalar, values, options) { return list }
      return any(values.map { equal(left, .constant($0), options) })
    case .list(let operands):
      return any(operands.map { equal(left, $0, options) })
    case .collection(let elements):
      return equal(elements.element, left, options).map { elements.exists(where: $0) }
    default:
      guard isString(right) else { return .constant(false) }
      guard isString(left) else { return .constant(false) }
      return stringOperator(.contains, right, left, options)
    }
  }

  /// `collection CONTAINS value` (membership), or `string CONTAINS string`.
  private func contains(_ left: SQLOperand, _ right: SQLOperand, _ options: PredicateComparisonOptions)
    -> SQLCondition?
  {
    switch left {
    case .collection(let elements):
      return equal(elements.element, right, options).map { elements.exists(where: $0) }
    case .constant(.array(let values)):
      return any(values.map { equal(.constant($0), right, options) })
    case .list(let operands):
      return any(operands.map { equal($0, right, options) })
    default:
      guard isString(left) else { return .constant(false) }
      return stringOperator(.contains, left, right, options)
    }
  }

  private func any(_ tests: [SQLCondition?]) -> SQLCondition? {
    var conditions: [SQLCondition] = []
    for test in tests {
      guard let test else { return nil }
      conditions.append(test)
    }
    return .any(conditions)
  }

  /// `column IN (?, ?, …)` for a list of constants that bind natively (nil members as
  /// `column IS NULL`); nil when a member needs another form.
  private func inList(_ scalar: SQLScalar, _ values: [PredicateValue], _ options: PredicateComparisonOptions)
    -> SQLCondition?
  {
    var arguments: [SQLiteValue] = []
    var includesNil = false
    for value in values {
      if value.isNull {
        includesNil = true
        continue
      }
      guard let bound = bind(value, against: scalar.kind, options: options) else { continue }
      switch bound {
      case .native(let argument): arguments.append(argument)
      case .never: continue
      case .function: return nil
      }
    }
    guard values.count > 1 else { return nil }
    var conditions: [SQLCondition] = []
    if !arguments.isEmpty {
      let placeholders = SQLiteSQL.placeholders(count: arguments.count)
      conditions.append(
        .sql(folded(scalar, options) + SQLiteSQL(verbatim: " IN (\(placeholders))", arguments: arguments)))
    }
    if includesNil { conditions.append(.sql(scalar.sql + " IS NULL")) }
    return .any(conditions)
  }

  /// Whether a value can be a string (a string constant or a string column).
  func isString(_ value: SQLOperand) -> Bool {
    switch value {
    case .constant(.string): true
    case .scalar(let scalar): scalar.kind == .string
    default: false
    }
  }

  // MARK: - Binding constants

  /// How a constant meets a value of a kind.
  enum BoundConstant {
    /// Bound in the column's store encoding and compared with SQLite's own operators.
    case native(SQLiteValue)
    /// Compared through `modelc_compare`, given as a value of this kind.
    case function(SQLValueKind, SQLiteValue)
    /// Never equal and never ordered (NaN).
    case never
  }

  /// A constant for comparing with values of `kind`, encoded as `StoredValueCodec` stores
  /// values (and folded for `[c]`/`[d]` when it is a string); nil when the kinds never
  /// compare (a string and a number, a date and a number).
  func bind(_ value: PredicateValue, against kind: SQLValueKind, options: PredicateComparisonOptions)
    -> BoundConstant?
  {
    switch value {
    case .bool(let flag):
      return number(.integer(flag ? 1 : 0), kind: .integer, against: kind)
    case .integer(let integer):
      return number(.integer(integer), kind: .integer, against: kind)
    case .double(let double):
      if double.isNaN { return kind.isNumber ? .never : nil }
      return number(.real(double), kind: .real, against: kind)
    case .decimal(let decimal):
      guard kind.isNumber else { return nil }
      if decimal.isNaN { return .never }
      // A decimal compares with a double as doubles, with anything else as decimals.
      if kind == .real { return .native(.real(PredicateValueComparison.double(decimal))) }
      return .function(.decimalText, .text(decimal.description))
    case .string(let string):
      guard kind == .string else { return nil }
      return .native(.text(PredicateStringFolding.fold(string, options: options)))
    case .date(let date):
      guard kind == .date else { return nil }
      return .native(.real(date.timeIntervalSinceReferenceDate))
    case .data(let data):
      guard kind == .binary else { return nil }
      return .native(.blob([UInt8](data)))
    case .uuid(let uuid):
      guard kind == .uuid else { return nil }
      return .native(withUnsafeBytes(of: uuid.uuid) { .blob(Array($0)) })
    case .url(let url):
      guard kind == .uri else { return nil }
      return .native(.text(url.absoluteString))
    case .null, .array:
      return nil
    }
  }

  private func number(_ value: SQLiteValue, kind valueKind: SQLValueKind, against kind: SQLValueKind)
    -> BoundConstant?
  {
    guard kind.isNumber else { return nil }
    if kind == .decimal { return .function(valueKind, value) }
    return .native(value)
  }

  // MARK: - SQL helpers

  /// A value folded for `[c]`/`[d]` when it is a string and options ask for it.
  func folded(_ scalar: SQLScalar, _ options: PredicateComparisonOptions) -> SQLiteSQL {
    guard scalar.kind == .string, options.requiresFolding else { return scalar.sql }
    return "modelc_fold(" + scalar.sql
      + ", \(Int64(options.contains(.caseInsensitive) ? 1 : 0)), \(Int64(options.contains(.diacriticInsensitive) ? 1 : 0)))"
  }

  private func compareFunction(
    _ code: QueryFunctions.ComparisonCode, _ options: PredicateComparisonOptions, _ a: SQLScalar,
    _ kind: SQLValueKind, _ argument: SQLiteValue
  ) -> SQLCondition {
    .sql(
      "modelc_compare(\(code.rawValue), \(QueryFunctions.flags(options)), \(Int64(a.kind.rawValue)), " + a.sql
        + ", \(Int64(kind.rawValue)), \(argument))")
  }

  private func compareFunction(
    _ code: QueryFunctions.ComparisonCode, _ options: PredicateComparisonOptions, _ a: SQLScalar, _ b: SQLScalar
  ) -> SQLCondition {
    .sql(
      "modelc_compare(\(code.rawValue), \(QueryFunctions.flags(options)), \(Int64(a.kind.rawValue)), " + a.sql
        + ", \(Int64(b.kind.rawValue)), " + b.sql + ")")
  }
}

extension PredicateOperator {
  /// The operator with its sides swapped (`<` for `>`).
  var reversed: PredicateOperator {
    switch self {
    case .lessThan: .greaterThan
    case .lessThanOrEqualTo: .greaterThanOrEqualTo
    case .greaterThan: .lessThan
    case .greaterThanOrEqualTo: .lessThanOrEqualTo
    default: self
    }
  }
}

extension QueryFunctions.ComparisonCode {
  /// The code of an equality or ordering operator.
  init(_ op: PredicateOperator) {
    switch op {
    case .notEqualTo: self = .notEqual
    case .lessThan: self = .less
    case .lessThanOrEqualTo: self = .lessOrEqual
    case .greaterThan: self = .greater
    case .greaterThanOrEqualTo: self = .greaterOrEqual
    default: self = .equal
    }
  }
}
