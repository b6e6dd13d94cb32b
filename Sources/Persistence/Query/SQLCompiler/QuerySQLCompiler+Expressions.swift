import SQLite

/// Expressions: constants, `SELF`, variables, key paths through relationships, collection
/// operators and `SUBQUERY`.
extension QuerySQLCompiler {
  /// An expression's compiled form, or nil when it does not compile (the in-memory evaluator
  /// then decides, or reports the error: an unbound variable, a key of a non-object…).
  func operand(_ expression: FetchExpression, in scope: QueryScope) -> SQLOperand? {
    switch expression {
    case .constant(let value):
      return .constant(value)
    case .evaluatedObject:
      return scope.evaluatedObject
    case .variable(let name):
      return scope.variables[name]
    case .keyPath(let path):
      return read(path, of: scope.evaluatedObject)
    case .member(let base, let path):
      guard let value = operand(base, in: scope) else { return nil }
      return read(path, of: value)
    case .aggregate(let elements):
      var operands: [SQLOperand] = []
      for element in elements {
        guard let value = operand(element, in: scope) else { return nil }
        if case .collection = value { return nil }
        operands.append(value)
      }
      return .list(operands)
    case .collectionOperator(let op, let collection, let keyPath):
      return aggregate(op, of: collection, keyPath: keyPath, in: scope)
    case .subquery(let collection, let variable, let predicate):
      return subquery(collection, variable: variable, predicate: predicate, in: scope)
    }
  }

  // MARK: - Key paths

  /// Follows a key path from a value, as the evaluator does: through objects, through nil
  /// (which stays nil), and through collections (flattening).
  func read(_ path: PredicateKeyPath, of start: SQLOperand) -> SQLOperand? {
    var current = start
    let components = path.components
    var index = 0
    while index < components.count {
      // A leaf of a composite attribute (`address.location.lat`) is one column.
      if case .object(let reference) = current,
        let (leaf, count) = compositeLeaf(components, from: index, of: reference)
      {
        current = .scalar(leaf)
        index += count
        continue
      }
      guard let next = read(components[index], of: current) else { return nil }
      current = next
      index += 1
    }
    return current
  }

  /// The column of the composite leaf that the keys from `index` name, and how many keys it
  /// takes; nil when they name none.
  private func compositeLeaf(
    _ components: [String], from index: Int, of reference: SQLObjectReference
  ) -> (SQLScalar, Int)? {
    guard index + 1 < components.count,
      schema[reference.entity].attributes.contains(where: { $0.name.hasPrefix(components[index] + ".") })
    else { return nil }
    var name = components[index]
    for end in (index + 1)..<components.count {
      name += "." + components[end]
      if let scalar = attribute(name, of: reference) { return (scalar, end - index + 1) }
    }
    return nil
  }

  private func read(_ key: String, of value: SQLOperand) -> SQLOperand? {
    switch value {
    case .constant(.null):
      return .constant(.null)
    case .object(let reference):
      return read(key, of: reference)
    case .collection(var collection):
      // Reading a key of a collection reads it of every element and flattens.
      guard let element = readElement(key, of: collection.element, into: &collection) else { return nil }
      collection.element = element
      collection.crossesToMany = true
      return .collection(collection)
    case .constant, .scalar, .list:
      // A key of a value that is not an object: an error for the evaluator to report (or nil
      // at run time, which SQL cannot tell apart here).
      return nil
    }
  }

  /// A key of one object: an attribute's value, a to-one destination, or a to-many collection.
  private func read(_ key: String, of reference: SQLObjectReference) -> SQLOperand? {
    if let scalar = attribute(key, of: reference) { return .scalar(scalar) }
    if let destination = toOne(key, of: reference) { return .object(destination) }
    guard let elements = toMany(key, of: reference) else { return nil }
    return .collection(elements)
  }

  /// The value of an attribute of an object: its column, read in place when the row is in the
  /// query, or through a subquery on the object's key (NULL without an object).
  func attribute(_ name: String, of reference: SQLObjectReference) -> SQLScalar? {
    let mapping = schema[reference.entity]
    guard let column = mapping.column(forAttribute: name), let kind = SQLValueKind(encoding: column.encoding) else {
      return nil
    }
    if reference.rowAlias != "t" { noteRead(of: reference.entity) }
    return SQLScalar(sql: columnValue(column.column, of: reference), kind: kind)
  }

  /// The destination of a to-one relationship of an object.
  func toOne(_ name: String, of reference: SQLObjectReference) -> SQLObjectReference? {
    let mapping = schema[reference.entity]
    guard let columns = mapping.toOne(named: name) else { return nil }
    if reference.rowAlias != "t" { noteRead(of: reference.entity) }
    return SQLObjectReference(
      key: columnValue(columns.foreignKeyColumn, of: reference), entity: columns.destination,
      entityNumber: columns.entityColumn.map { columnValue($0, of: reference) }, rowAlias: nil, isNullable: true)
  }

  /// The objects of a to-many relationship of an object, as rows of its destination table.
  func toMany(_ name: String, of reference: SQLObjectReference) -> SQLCollection? {
    guard let (steps, element) = join(name, of: reference) else { return nil }
    var from = steps[0].table
    for step in steps.dropFirst() {
      from = from + " JOIN " + step.table + " ON " + step.on
    }
    return SQLCollection(
      from: from, conditions: [steps[0].on], element: .object(element),
      nilWhen: reference.isNullable ? reference.key + " IS NULL" : nil, crossesToMany: false)
  }

  /// A column of an object's row: `alias.column`, or `(SELECT x.column FROM table AS x WHERE
  /// x.Z_PK = key)` when the row is not in the query.
  private func columnValue(_ column: String, of reference: SQLObjectReference) -> SQLiteSQL {
    if let alias = reference.rowAlias {
      return SQLiteSQL(verbatim: "\(alias).\(SQLiteIdentifier.quote(column))")
    }
    let alias = makeAlias()
    let table = SQLiteIdentifier.quote(schema[reference.entity].tableName)
    return SQLiteSQL(
      verbatim: "(SELECT \(alias).\(SQLiteIdentifier.quote(column)) FROM \(table) AS \(alias) WHERE \(alias).Z_PK = ")
      + reference.key + ")"
  }

  /// The tables a to-many relationship's destinations are reached through from an object, in
  /// join order, each with the condition that ties it to the previous one (the first to the
  /// object), and the destination object.
  private func join(_ name: String, of reference: SQLObjectReference)
    -> (steps: [(table: SQLiteSQL, on: SQLiteSQL)], element: SQLObjectReference)?
  {
    guard let relationship = schema[reference.entity].toMany(named: name) else { return nil }
    if reference.rowAlias != "t" { noteRead(of: reference.entity) }
    noteRead(of: relationship.destination)
    let destination = makeAlias()
    let table = SQLiteIdentifier.quote(schema[relationship.destination].tableName)
    let element = SQLObjectReference(
      key: SQLiteSQL(verbatim: "\(destination).Z_PK"), entity: relationship.destination,
      entityNumber: hasSubentities(relationship.destination) ? SQLiteSQL(verbatim: "\(destination).Z_ENT") : nil,
      rowAlias: destination, isNullable: false)
    switch relationship.storage {
    case .inverseForeignKey(let foreignKey):
      let step = (
        table: SQLiteSQL(verbatim: "\(SQLiteIdentifier.quote(foreignKey.table)) AS \(destination)"),
        on: SQLiteSQL(verbatim: "\(destination).\(SQLiteIdentifier.quote(foreignKey.foreignKeyColumn)) = ")
          + reference.key
      )
      return ([step], element)
    case .joinTable(let join):
      let link = makeAlias()
      let linkStep = (
        table: SQLiteSQL(verbatim: "\(SQLiteIdentifier.quote(join.table)) AS \(link)"),
        on: SQLiteSQL(verbatim: "\(link).\(SQLiteIdentifier.quote(join.sourceColumn)) = ") + reference.key
      )
      let destinationStep = (
        table: SQLiteSQL(verbatim: "\(table) AS \(destination)"),
        on: SQLiteSQL(
          verbatim: "\(destination).Z_PK = \(link).\(SQLiteIdentifier.quote(join.destinationColumn))")
      )
      return ([linkStep, destinationStep], element)
    }
  }

  /// Reads a key of a collection's element, extending the collection's FROM clause for a
  /// to-many key: each element's destinations replace it, and a nil element stays nil.
  private func readElement(_ key: String, of element: SQLOperand, into collection: inout SQLCollection)
    -> SQLOperand?
  {
    switch element {
    case .constant(.null):
      return .constant(.null)
    case .object(let reference):
      if let scalar = attribute(key, of: reference) { return .scalar(scalar) }
      if let destination = toOne(key, of: reference) { return .object(destination) }
      guard let (steps, next) = join(key, of: reference) else { return nil }
      let joinKind: SQLiteSQL = reference.isNullable ? " LEFT JOIN " : " JOIN "
      for step in steps {
        collection.from = collection.from + joinKind + step.table + " ON " + step.on
      }
      guard reference.isNullable else { return .object(next) }
      // A nil element stays one nil element; an object adds its destinations (none if empty).
      collection.conditions.append("(" + reference.key + " IS NULL OR " + next.key + " IS NOT NULL)")
      var nullable = next
      nullable.isNullable = true
      return .object(nullable)
    default:
      return nil
    }
  }

  // MARK: - Collection operators

  /// `collection.@count`, `collection.@sum.keyPath`, …: an aggregate subquery.
  private func aggregate(
    _ op: PredicateCollectionOperator, of collection: FetchExpression, keyPath: PredicateKeyPath?, in scope: QueryScope
  ) -> SQLOperand? {
    guard let base = operand(collection, in: scope) else { return nil }
    switch base {
    case .constant(let value):
      return constantValue(of: .collectionOperator(op, collection: .constant(value), keyPath: keyPath))
    case .collection(var elements):
      if let keyPath {
        for key in keyPath.components {
          guard let next = readElement(key, of: elements.element, into: &elements) else { return nil }
          elements.element = next
        }
      }
      if op == .count {
        return .scalar(SQLScalar(sql: elements.select("COUNT(*)"), kind: .integer))
      }
      guard case .scalar(let value) = elements.element else { return nil }
      switch op {
      case .count:
        return nil
      case .sum:
        guard [.integer, .boolean, .real].contains(value.kind) else { return nil }
        return .scalar(
          SQLScalar(
            sql: elements.select("coalesce(SUM(" + value.sql + "), 0)"), kind: value.kind == .real ? .real : .integer))
      case .avg:
        guard [.integer, .boolean, .real].contains(value.kind) else { return nil }
        return .scalar(SQLScalar(sql: elements.select("AVG(" + value.sql + ")"), kind: .real))
      case .min, .max:
        guard value.kind != .decimal else { return nil }
        let function = op == .min ? "MIN(" : "MAX("
        return .scalar(
          SQLScalar(sql: elements.select(SQLiteSQL(verbatim: function) + value.sql + ")"), kind: value.kind))
      }
    default:
      return nil
    }
  }

  /// The value of an expression made only of constants, as the evaluator computes it; nil
  /// when it fails (the fallback then reports the error).
  func constantValue(of expression: FetchExpression) -> SQLOperand? {
    let evaluator = PredicateEvaluator(root: .null, variables: [:])
    guard let (value, _) = try? evaluator.value(of: expression) else { return nil }
    return .constant(value.scalarValue)
  }

  // MARK: - SUBQUERY

  /// `SUBQUERY(collection, $x, predicate)`: the collection's rows with the predicate compiled
  /// for the element, which `$x` and `SELF` stand for.
  private func subquery(
    _ collection: FetchExpression, variable: String, predicate: FetchPredicate, in scope: QueryScope
  ) -> SQLOperand? {
    guard let base = operand(collection, in: scope) else { return nil }
    switch base {
    case .constant(.null):
      return .constant(.array([]))
    case .collection(var elements):
      var inner = QueryScope(evaluatedObject: elements.element, variables: scope.variables)
      inner.variables[variable] = elements.element
      guard let condition = compile(predicate, in: inner) else { return nil }
      switch condition {
      case .constant(true): break
      case .constant(false): elements.conditions.append("0")
      case .sql(let sql): elements.conditions.append(sql)
      }
      elements.nilWhen = nil
      elements.crossesToMany = false
      return .collection(elements)
    default:
      return nil
    }
  }
}
