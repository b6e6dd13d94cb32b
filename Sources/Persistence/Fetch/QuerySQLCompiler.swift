/// Compiles predicates and sort descriptors to SQL over an entity's table (alias `t`), with
/// every value bound as a parameter. What does not compile returns nil, and the fetch evaluates
/// it in memory instead, with the same semantics.
struct QuerySQLCompiler {
  let model: ModelVersion
  let schema: StoreSchema
  let entity: EntityID

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
    for (index, component) in path.components.enumerated() {
      if component.hasPrefix("@") || component.uppercased() == "SELF" { continue }
      guard endsAtRelationship else {
        throw PersistenceError.unknownProperty(
          path.components[..<index].joined(separator: ".") + "." + component, entity: model[start].name,
          suggestion: nil)
      }
      if model.attribute(named: component, in: current) != nil {
        endsAtRelationship = false
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

  // MARK: - Compiling

  /// The predicate as an SQL condition, or nil when part of it does not compile.
  func compile(_ predicate: FetchPredicate) -> SQLiteSQL? {
    switch predicate {
    case .true: return "1"
    case .false: return "0"
    default: return nil
    }
  }

  /// The sort descriptors as ORDER BY terms, or nil when one does not compile. Attributes of
  /// the entity sort with nil first ascending (SQLite's own NULL order), strings by binary
  /// collation (code points), as the in-memory sort does.
  func compile(_ descriptors: [FetchSortDescriptor]) -> SQLiteSQL? {
    guard !descriptors.isEmpty else { return nil }
    let mapping = schema[entity]
    var terms: [String] = []
    for descriptor in descriptors {
      guard descriptor.keyPath.components.count == 1, descriptor.options.isEmpty,
        let column = mapping.column(forAttribute: descriptor.keyPath.components[0])
      else { return nil }
      switch column.attributeType {
      case .string, .integer16, .integer32, .integer64, .double, .float, .date, .boolean:
        terms.append("t.\(SQLiteIdentifier.quote(column.column)) \(descriptor.ascending ? "ASC" : "DESC")")
      default:
        return nil
      }
    }
    return SQLiteSQL(verbatim: terms.joined(separator: ", "))
  }
}

/// SQL functions the compiled queries use, registered on every store connection.
enum QueryFunctions {
  static func register(on connection: SQLiteConnection) throws {
    try connection.createFunction(name: "modelc_fold", argumentCount: 3, deterministic: true) { arguments in
      guard case .text(let text) = arguments[0] else { return arguments[0] }
      let caseInsensitive = arguments[1].int64Value ?? 0 != 0
      let diacriticInsensitive = arguments[2].int64Value ?? 0 != 0
      return .text(
        PredicateStringFolding.fold(text, caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive))
    }
  }
}
