import SQLite

/// Compiles predicates and sort descriptors to SQL over an entity's table (alias `t`), with
/// every value bound as a parameter and every name quoted. What does not compile returns nil,
/// and the fetch evaluates it in memory instead, with the same semantics.
///
/// The translation follows the in-memory evaluator's rules (the doc comment of
/// `PredicateEvaluator.swift`) case by case:
///
/// - Conditions are true when 1, false when 0 or NULL; negation is `IS NOT 1` (``SQLCondition``),
///   so `!=`, `NOT` and `ALL`/`NONE` treat nil as the evaluator does.
/// - A comparison translates by the *kinds* of its sides (``SQLValueKind``), known from the
///   model and the constants: kinds that never compare equal or ordered (a string and a
///   number) fold to a constant; numbers, strings (binary collation: code points), dates,
///   UUIDs, data and URIs compare natively; decimals, whose store form may be text, go through
///   `modelc_compare`, the evaluator's own comparison. Constants are bound in their store
///   encoding (``StoredValueCodec``): dates as seconds since 2001, UUIDs as 16 bytes.
/// - `[c]`/`[d]` and the string operators call the SQL functions of ``QueryFunctions``, which
///   run the evaluator's folding and matching code.
/// - Key paths through to-one relationships read the destination's columns with correlated
///   subqueries on its primary key (NULL when the relationship is empty); key paths through
///   to-many relationships become `EXISTS`/`NOT EXISTS`/`COUNT` subqueries over the
///   destination table (through the inverse foreign key or the join table), with the
///   evaluator's flattening: later to-one steps keep nil elements, later to-many steps add the
///   destinations of each element.
/// - `SUBQUERY` is such a subquery with its predicate compiled for the element; `@count`,
///   `@sum`, `@avg`, `@min` and `@max` are SQL aggregates over it.
/// - Objects and object IDs compare by primary key (and entity number where an entity has
///   sub-entities).
final class QuerySQLCompiler {
  let model: ModelVersion
  let schema: StoreSchema
  let entity: EntityID
  /// Entities whose rows the compiled SQL reads besides the fetched entity's own row: pending
  /// changes to objects of these entities make the store's answer stale.
  private(set) var relatedEntities: Set<EntityID> = []
  private var aliasCount = 0

  init(model: ModelVersion, schema: StoreSchema, entity: EntityID) {
    self.model = model
    self.schema = schema
    self.entity = entity
  }

  /// The fetched object: row `t` of the entity's table.
  var root: SQLObjectReference {
    SQLObjectReference(
      key: "t.Z_PK", entity: entity, entityNumber: hasSubentities(entity) ? "t.Z_ENT" : nil, rowAlias: "t",
      isNullable: false)
  }

  /// The scope of the fetched object.
  var rootScope: QueryScope {
    QueryScope(evaluatedObject: .object(root), variables: [:])
  }

  /// Whether the SQL compiled so far reads any table besides the row's own (every other table
  /// it reads, in a subquery, has an alias of its own).
  var readsOtherTables: Bool { aliasCount > 0 }

  /// A fresh table alias, unique within the query.
  func makeAlias() -> String {
    aliasCount += 1
    return "q\(aliasCount)"
  }

  func hasSubentities(_ entity: EntityID) -> Bool {
    schema[entity].entityNumbersInHierarchy.count > 1
  }

  func noteRead(of entity: EntityID) {
    relatedEntities.insert(entity)
  }

  // MARK: - Key paths

  /// Throws for a key path that names no property, saying which entity lacks it.
  func checkKeyPaths(_ predicate: FetchPredicate, entityName: String) throws {
    try check(predicate, root: entity, variables: [:])
  }

  private func check(_ predicate: FetchPredicate, root: EntityID, variables: [String: EntityID]) throws {
    switch predicate {
    case .true, .false: return
    case .and(let parts), .or(let parts):
      for part in parts { try check(part, root: root, variables: variables) }
    case .not(let inner):
      try check(inner, root: root, variables: variables)
    case .comparison(let comparison):
      try check(comparison.left, root: root, variables: variables)
      try check(comparison.right, root: root, variables: variables)
    }
  }

  /// Checks an expression; returns the entity a collection-valued expression yields, if any.
  @discardableResult
  private func check(_ expression: FetchExpression, root: EntityID, variables: [String: EntityID]) throws -> EntityID? {
    switch expression {
    case .constant, .evaluatedObject:
      return nil
    case .variable(let name):
      return variables[name]
    case .keyPath(let path):
      return try resolve(path, from: root)
    case .member(let base, let path):
      guard let start = try check(base, root: root, variables: variables) else { return nil }
      return try resolve(path, from: start)
    case .aggregate(let elements):
      for element in elements { try check(element, root: root, variables: variables) }
      return nil
    case .collectionOperator(_, let collection, let keyPath):
      let destination = try check(collection, root: root, variables: variables)
      if let keyPath, let destination { try resolve(keyPath, from: destination) }
      return nil
    case .subquery(let collection, let variable, let predicate):
      guard let destination = try check(collection, root: root, variables: variables) else { return nil }
      var inner = variables
      inner[variable] = destination
      try check(predicate, root: destination, variables: inner)
      return destination
    }
  }

  /// Follows a key path through the model; returns the entity it ends at when it ends at a
  /// relationship.
  @discardableResult
  func resolve(_ path: PredicateKeyPath, from start: EntityID) throws -> EntityID? {
    var current = start
    var endsAtRelationship = true
    // Inside a composite attribute, the composite whose member comes next.
    var composite: CompositeDescription?
    for (index, component) in path.components.enumerated() {
      if component.hasPrefix("@") || component.uppercased() == "SELF" { continue }
      if let outer = composite {
        guard let member = outer.attributes.first(where: { $0.name == component }) else {
          throw PersistenceError.unknownProperty(
            path.components[...index].joined(separator: "."), entity: model[current].name,
            suggestion: EditDistance.suggestion(for: component, among: outer.attributes.map(\.name)))
        }
        composite = member.attributeType == .composite ? member.compositeName.flatMap(model.composite(named:)) : nil
        continue
      }
      guard endsAtRelationship else {
        throw PersistenceError.unknownProperty(
          path.components[..<index].joined(separator: ".") + "." + component, entity: model[start].name,
          suggestion: nil)
      }
      if let attribute = model.attribute(named: component, in: current) {
        endsAtRelationship = false
        if attribute.attributeType == .composite {
          composite = attribute.compositeName.flatMap(model.composite(named:))
        }
        continue
      }
      if let relationship = model.relationship(named: component, in: current)?.relationship,
        let destination = relationship.destination
      {
        current = destination
        continue
      }
      let candidates =
        model.allAttributes(of: current).map(\.name) + model.allRelationships(of: current).map(\.relationship.name)
      throw PersistenceError.unknownProperty(
        component, entity: model[current].name, suggestion: EditDistance.suggestion(for: component, among: candidates))
    }
    return endsAtRelationship ? current : nil
  }

  /// Throws unless every key of a prefetching key path names a relationship.
  func checkRelationshipPath(_ path: PredicateKeyPath) throws {
    var current = entity
    for component in path.components {
      guard let relationship = model.relationship(named: component, in: current)?.relationship,
        let destination = relationship.destination
      else {
        throw PersistenceError.unknownProperty(
          component, entity: model[current].name,
          suggestion: EditDistance.suggestion(
            for: component, among: model.allRelationships(of: current).map(\.relationship.name)))
      }
      current = destination
    }
  }

  // MARK: - Compiling

  /// The predicate as an SQL condition over row `t`, or nil when part of it does not compile or
  /// the whole nests deeper than SQLite's parser takes (``SQLNesting``).
  func compile(_ predicate: FetchPredicate) -> SQLiteSQL? {
    guard let condition = compile(predicate, in: rootScope)?.sql, SQLNesting.fits(condition) else { return nil }
    return condition
  }

  /// A predicate in a scope.
  func compile(_ predicate: FetchPredicate, in scope: QueryScope) -> SQLCondition? {
    switch predicate {
    case .true:
      return .constant(true)
    case .false:
      return .constant(false)
    case .and(let parts):
      var conditions: [SQLCondition] = []
      for part in parts {
        guard let condition = compile(part, in: scope) else { return nil }
        conditions.append(condition)
      }
      return .all(conditions)
    case .or(let parts):
      var conditions: [SQLCondition] = []
      for part in parts {
        guard let condition = compile(part, in: scope) else { return nil }
        conditions.append(condition)
      }
      return .any(conditions)
    case .not(let part):
      return compile(part, in: scope)?.negated
    case .comparison(let comparison):
      return compile(comparison, in: scope)
    }
  }
}
