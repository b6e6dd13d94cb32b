import Foundation
import Persistence

/// Random predicates and sort descriptors over ``QueryTestModel``, valid against the model
/// (every key exists) but free to compare values of mismatched kinds, nil, and collections,
/// so that every rule of the evaluator gets exercised.
struct RandomPredicates {
  enum Kind: CaseIterable {
    case integer, double, decimal, string, date, boolean, uuid, url, data
  }

  static let attributes: [String: [(name: String, kind: Kind)]] = [
    "Item": [
      ("serial", .integer), ("title", .string), ("notes", .string), ("priority", .integer), ("score", .double),
      ("amount", .decimal), ("due", .date), ("done", .boolean), ("uid", .uuid), ("link", .url), ("blob", .data),
    ],
    "Group": [("name", .string), ("rank", .integer)],
    "Label": [("name", .string), ("weight", .double)],
  ]
  static let toOne: [String: [(name: String, destination: String)]] = [
    "Item": [("group", "Group"), ("parent", "Item")], "Group": [], "Label": [],
  ]
  static let toMany: [String: [(name: String, destination: String)]] = [
    "Item": [("labels", "Label"), ("children", "Item")], "Group": [("items", "Item")], "Label": [("items", "Item")],
  ]

  /// Object IDs to use as constants, by entity name.
  var objectIDs: [String: [ObjectID]]
  var random: SeedRandom
  private var variableCount = 0

  init(seed: UInt64, objectIDs: [String: [ObjectID]]) {
    self.random = SeedRandom(seed: seed)
    self.objectIDs = objectIDs
  }

  // MARK: - Predicates

  /// A random predicate about an object of `entity`; `base` is the expression key paths start
  /// from (`SELF`, or a `SUBQUERY` variable), `outer` the variables of enclosing subqueries.
  mutating func predicate(
    entity: String = "Item", base: FetchExpression = .evaluatedObject, outer: [(String, String)] = [], depth: Int = 0
  ) -> FetchPredicate {
    let roll = Int.random(in: 0..<100, using: &random)
    if depth < 2 && roll < 22 {
      let count = Int.random(in: 2...3, using: &random)
      let parts = (0..<count).map { _ in predicate(entity: entity, base: base, outer: outer, depth: depth + 1) }
      return random.chance(0.5) ? .and(parts) : .or(parts)
    }
    if depth < 3 && roll < 30 {
      return .not(predicate(entity: entity, base: base, outer: outer, depth: depth + 1))
    }
    if roll < 32 { return random.chance(0.5) ? .true : .false }
    return comparison(entity: entity, base: base, outer: outer, depth: depth)
  }

  private mutating func comparison(entity: String, base: FetchExpression, outer: [(String, String)], depth: Int)
    -> FetchPredicate
  {
    switch Int.random(in: 0..<100, using: &random) {
    case 0..<30:
      let (path, kind, crosses) = attributePath(from: entity, steps: Int.random(in: 0...1, using: &random))
      return attributeComparison(base.appending(path), kind: kind, crosses: crosses)
    case 30..<48:
      let (path, kind, crosses) = attributePath(from: entity, steps: Int.random(in: 1...3, using: &random))
      return attributeComparison(base.appending(path), kind: kind, crosses: crosses)
    case 48..<56:
      return twoKeyPaths(entity: entity, base: base)
    case 56..<66:
      return objectComparison(entity: entity, base: base)
    case 66..<80:
      return aggregateComparison(entity: entity, base: base)
    case 80..<90 where depth < 3:
      return subqueryComparison(entity: entity, base: base, outer: outer, depth: depth)
    case 90..<96 where !outer.isEmpty:
      // A comparison with an enclosing subquery's element.
      let (name, outerEntity) = random.pick(outer)
      let (path, kind, crosses) = attributePath(from: outerEntity, steps: 0)
      let (own, ownKind, _) = attributePath(from: entity, steps: 0)
      if ownKind == kind && !crosses {
        return .compare(
          base.appending(own), random.pick([.equalTo, .notEqualTo, .lessThan, .greaterThanOrEqualTo]),
          FetchExpression.variable(name).appending(path))
      }
      return attributeComparison(FetchExpression.variable(name).appending(path), kind: kind, crosses: crosses)
    default:
      let (path, kind, _) = attributePath(from: entity, steps: 0)
      return membershipInKeyPath(entity: entity, base: base, value: base.appending(path), kind: kind)
    }
  }

  /// A key path from `entity` through `steps` relationships to an attribute, with its kind and
  /// whether it crosses a to-many relationship.
  mutating func attributePath(from entity: String, steps: Int) -> (PredicateKeyPath, Kind, Bool) {
    var components: [String] = []
    var current = entity
    var crosses = false
    for _ in 0..<steps {
      let ones = Self.toOne[current] ?? []
      let manys = Self.toMany[current] ?? []
      if !manys.isEmpty && (ones.isEmpty || random.chance(0.5)) {
        let relationship = random.pick(manys)
        components.append(relationship.name)
        current = relationship.destination
        crosses = true
      } else if !ones.isEmpty {
        let relationship = random.pick(ones)
        components.append(relationship.name)
        current = relationship.destination
      }
    }
    let attribute = random.pick(Self.attributes[current]!)
    components.append(attribute.name)
    return (PredicateKeyPath(components), attribute.kind, crosses)
  }

  private mutating func attributeComparison(_ left: FetchExpression, kind: Kind, crosses: Bool) -> FetchPredicate {
    let modifier: PredicateModifier =
      crosses && random.chance(0.5) ? random.pick([.any, .all, .none]) : (random.chance(0.05) ? .any : .direct)
    let mismatched = random.chance(0.08)
    let valueKind = mismatched ? random.pick(Kind.allCases) : kind
    let op = operatorFor(valueKind)
    let options: PredicateComparisonOptions =
      random.chance(0.45)
      ? random.pick([.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive]]) : []
    let right: FetchExpression
    switch op {
    case .between:
      var bounds = [constant(valueKind), constant(valueKind)]
      if random.chance(0.1) { bounds[random.pick([0, 1])] = .null }
      right = .constant(.array(bounds))
    case .in:
      if valueKind == .string && random.chance(0.3) {
        right = .constant(constant(.string))
      } else {
        right = .constant(.array((0..<Int.random(in: 1...4, using: &random)).map { _ in constant(valueKind) }))
      }
    case .like:
      right = .string(random.pick(["a*", "*é*", "?afe", "c?f*", "*", "*e", "A*", "x\\%y*", "*\\**", "??", ""]))
    case .matches:
      right = .string(random.pick(["a.*", "[A-Z].*", "caf.*", ".*e", "(?i)zebra", ".", "", "[a-c]+"]))
    default:
      right = .constant(random.chance(0.06) ? .null : constant(valueKind))
    }
    if random.chance(0.1) && op != .between && op != .in {
      // The constant on the left.
      return .comparison(PredicateComparison(right, op.mirrored, left, modifier: .direct, options: options))
    }
    return .comparison(PredicateComparison(left, op, right, modifier: modifier, options: options))
  }

  private mutating func operatorFor(_ kind: Kind) -> PredicateOperator {
    switch kind {
    case .string:
      return random.pick([
        .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between, .in,
        .contains, .beginsWith, .endsWith, .like, .matches, .equalTo, .contains, .beginsWith,
      ])
    case .integer, .double, .decimal, .date, .boolean:
      return random.pick([
        .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo, .between, .in,
      ])
    case .uuid, .url, .data:
      return random.pick([.equalTo, .notEqualTo, .in, .lessThan, .contains])
    }
  }

  /// A constant of a kind, mostly from the value pools the data comes from.
  mutating func constant(_ kind: Kind) -> PredicateValue {
    if random.chance(0.04) { return .null }
    switch kind {
    case .integer:
      return random.chance(0.1)
        ? random.pick([.double(2.5), .bool(true), .decimal(2)]) : .integer(Int64.random(in: 0...6, using: &random))
    case .double:
      return random.chance(0.2)
        ? .integer(Int64.random(in: -1...3, using: &random))
        : .double(random.pick(QueryTestModel.scores + QueryTestModel.weights))
    case .decimal:
      return random.chance(0.3)
        ? random.pick([.integer(2), .double(0.1), .double(3.25), .integer(-7)])
        : .decimal(random.pick(QueryTestModel.amounts + [Decimal(string: "12345678901234567890")!]))
    case .string:
      return .string(
        random.pick(QueryTestModel.strings + QueryTestModel.labelNames + QueryTestModel.groupNames + ["e", "a", "É"]))
    case .date:
      return .date(random.pick(QueryTestModel.dates))
    case .boolean:
      return random.pick([.bool(true), .bool(false), .integer(1), .integer(0)])
    case .uuid:
      return .uuid(random.pick(QueryTestModel.uuids))
    case .url:
      return .url(random.pick(QueryTestModel.links))
    case .data:
      return .data(random.pick(QueryTestModel.blobs))
    }
  }

  private mutating func twoKeyPaths(entity: String, base: FetchExpression) -> FetchPredicate {
    let (left, kind, crosses) = attributePath(from: entity, steps: Int.random(in: 0...1, using: &random))
    var (right, otherKind, _) = attributePath(from: entity, steps: Int.random(in: 0...1, using: &random))
    for _ in 0..<6 where otherKind != kind && !random.chance(0.1) {
      (right, otherKind, _) = attributePath(from: entity, steps: Int.random(in: 0...1, using: &random))
    }
    let op = operatorFor(kind == otherKind ? kind : .uuid)
    let safe: PredicateOperator = [.between].contains(op) ? .lessThanOrEqualTo : op
    let modifier: PredicateModifier = crosses && random.chance(0.4) ? random.pick([.any, .all, .none]) : .direct
    let options: PredicateComparisonOptions = random.chance(0.3) ? .caseInsensitive : []
    return .comparison(
      PredicateComparison(base.appending(left), safe, base.appending(right), modifier: modifier, options: options))
  }

  /// `value IN collection.key` and `constant IN collection.key`.
  private mutating func membershipInKeyPath(entity: String, base: FetchExpression, value: FetchExpression, kind: Kind)
    -> FetchPredicate
  {
    let (path, otherKind, _) = attributePath(from: entity, steps: Int.random(in: 1...2, using: &random))
    let left = random.chance(0.5) ? value : .constant(constant(random.chance(0.7) ? otherKind : kind))
    let options: PredicateComparisonOptions = random.chance(0.3) ? [.caseInsensitive, .diacriticInsensitive] : []
    return .compare(left, .in, base.appending(path), options: options)
  }

  private mutating func objectComparison(entity: String, base: FetchExpression) -> FetchPredicate {
    func id(_ name: String, _ random: inout SeedRandom, _ ids: [String: [ObjectID]]) -> PredicateValue {
      guard let pool = ids[name], !pool.isEmpty, !random.chance(0.05) else { return .null }
      return random.pick(pool).predicateValue
    }
    switch Int.random(in: 0..<9, using: &random) {
    case 0:
      let relationship = random.pick((Self.toOne[entity] ?? []) + [("SELF", entity)])
      let left = relationship.0 == "SELF" ? base : base.appending(PredicateKeyPath([relationship.0]))
      return .compare(left, random.pick([.equalTo, .notEqualTo]), .constant(id(relationship.1, &random, objectIDs)))
    case 1:
      let relationship = random.pick((Self.toOne[entity] ?? []) + [("SELF", entity)])
      let left = relationship.0 == "SELF" ? base : base.appending(PredicateKeyPath([relationship.0]))
      let values = (0..<Int.random(in: 1...4, using: &random)).map { _ in id(relationship.1, &random, objectIDs) }
      return .compare(left, .in, .constant(.array(values)))
    case 2:
      guard let relationship = Self.toMany[entity].map({ random.pick($0) }) else { return .true }
      return .compare(
        base.appending(PredicateKeyPath([relationship.name])), .contains,
        .constant(id(relationship.destination, &random, objectIDs)))
    case 3:
      guard let relationship = Self.toMany[entity].map({ random.pick($0) }) else { return .true }
      return .compare(
        .constant(id(relationship.destination, &random, objectIDs)), .in,
        base.appending(PredicateKeyPath([relationship.name])))
    case 4:
      guard let relationship = Self.toMany[entity].map({ random.pick($0) }) else { return .true }
      return .compare(
        base.appending(PredicateKeyPath([relationship.name])), random.pick([.equalTo, .notEqualTo]),
        .constant(id(relationship.destination, &random, objectIDs)), modifier: random.pick([.any, .all, .none]))
    case 5:
      // A to-one after a to-many: nil elements count.
      guard entity == "Item" else { return .true }
      return .compare(
        base.appending(PredicateKeyPath(["children", "group"])), random.pick([.equalTo, .notEqualTo]),
        .constant(random.chance(0.5) ? .null : id("Group", &random, objectIDs)),
        modifier: random.pick([.direct, .any, .all, .none]))
    case 6:
      guard entity == "Item" else { return .true }
      return .compare(
        base.appending(PredicateKeyPath(["parent", "group"])), random.pick([.equalTo, .notEqualTo]),
        base.appending(PredicateKeyPath(["group"])))
    case 7:
      guard entity == "Item" else { return .true }
      return .compare(
        base.appending(PredicateKeyPath(["parent"])), random.pick([.equalTo, .notEqualTo]),
        .constant(random.chance(0.6) ? .null : id("Item", &random, objectIDs)))
    default:
      // An object against a value of another kind.
      let key = random.pick((Self.toOne[entity] ?? []).map(\.name) + ["SELF"])
      let left = key == "SELF" ? base : base.appending(PredicateKeyPath([key]))
      return .compare(left, random.pick([.equalTo, .notEqualTo]), .constant(constant(random.pick(Kind.allCases))))
    }
  }

  private mutating func aggregateComparison(entity: String, base: FetchExpression) -> FetchPredicate {
    guard let relationship = Self.toMany[entity].map({ random.pick($0) }) else { return .true }
    var collection = base.appending(PredicateKeyPath([relationship.name]))
    var destination = relationship.destination
    if random.chance(0.25), let next = Self.toMany[destination].map({ random.pick($0) }) {
      collection = collection.appending(PredicateKeyPath([next.name]))
      destination = next.destination
    }
    let op = random.pick(PredicateCollectionOperator.allCases)
    if op == .count {
      return .compare(
        .collectionOperator(.count, collection: collection, keyPath: nil),
        random.pick([.equalTo, .notEqualTo, .lessThan, .greaterThan, .greaterThanOrEqualTo]),
        .constant(.integer(Int64.random(in: 0...4, using: &random))))
    }
    let attribute = random.pick(Self.attributes[destination]!)
    let numeric: Set<Kind> = [.integer, .double, .boolean]
    let usable = op == .min || op == .max ? attribute.kind != .decimal : numeric.contains(attribute.kind)
    let kind = usable ? attribute.kind : .integer
    let keyPath =
      usable ? attribute.name : (destination == "Item" ? "priority" : (destination == "Group" ? "rank" : "weight"))
    let right: PredicateValue =
      op == .avg ? .double(random.pick([0.5, 1, 2, 2.5, 3])) : constant(op == .sum ? .integer : kind)
    return .compare(
      .collectionOperator(op, collection: collection, keyPath: PredicateKeyPath(keyPath)),
      random.pick([.equalTo, .notEqualTo, .lessThan, .greaterThan, .lessThanOrEqualTo]), .constant(right))
  }

  private mutating func subqueryComparison(
    entity: String, base: FetchExpression, outer: [(String, String)], depth: Int
  ) -> FetchPredicate {
    guard let relationship = Self.toMany[entity].map({ random.pick($0) }) else { return .true }
    variableCount += 1
    let variable = "v\(variableCount)"
    let element: FetchExpression = random.chance(0.7) ? .variable(variable) : .evaluatedObject
    let inner = predicate(
      entity: relationship.destination, base: element, outer: outer + [(variable, relationship.destination)],
      depth: depth + 1)
    let subquery = FetchExpression.subquery(
      collection: base.appending(PredicateKeyPath([relationship.name])), variable: variable, predicate: inner)
    return .compare(
      .collectionOperator(.count, collection: subquery, keyPath: nil),
      random.pick([.greaterThan, .equalTo, .lessThan]),
      .constant(.integer(Int64.random(in: 0...2, using: &random))))
  }

  // MARK: - Sort descriptors

  /// Random sort descriptors: attributes, case- and diacritic-insensitive strings, to-one
  /// key paths and to-one relationships themselves.
  mutating func sortDescriptors() -> [FetchSortDescriptor] {
    let keys: [(String, Bool)] = [
      ("title", true), ("notes", true), ("priority", false), ("score", false), ("due", false), ("done", false),
      ("uid", false), ("blob", false), ("link", false), ("group.name", true), ("group.rank", false),
      ("parent.title", true), ("parent.parent.priority", false), ("parent", false), ("group", false),
      ("serial", false),
    ]
    return (0..<Int.random(in: 0...3, using: &random)).map { _ in
      let (key, isString) = random.pick(keys)
      let options: PredicateComparisonOptions =
        isString && random.chance(0.5)
        ? random.pick([.caseInsensitive, [.caseInsensitive, .diacriticInsensitive]]) : []
      return FetchSortDescriptor(PredicateKeyPath(key), ascending: random.chance(0.5), options: options)
    }
  }
}

extension PredicateOperator {
  /// The operator that gives the same result with its sides swapped, where one exists.
  var mirrored: PredicateOperator {
    switch self {
    case .lessThan: .greaterThan
    case .lessThanOrEqualTo: .greaterThanOrEqualTo
    case .greaterThan: .lessThan
    case .greaterThanOrEqualTo: .lessThanOrEqualTo
    default: self
    }
  }
}
