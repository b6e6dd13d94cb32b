import SQLite

/// Dictionary results: chosen properties of the selected objects, without making objects when
/// SQL alone answers.
extension ObjectContext {
  /// Dictionaries of the chosen properties (``FetchRequest/propertiesToFetch``, or every
  /// stored attribute) of the objects a request selects, in the request's order: attribute
  /// values, and for to-one relationships their destinations' IDs. A nil value has no key, as
  /// in Core Data. With ``FetchRequest/returnsDistinctResults`` equal dictionaries are kept
  /// once (the first), before the offset and limit apply.
  ///
  /// ```swift
  /// var request = FetchRequest<ManagedObject>(entityName: "Task")
  /// request.propertiesToFetch = ["priority"]
  /// request.returnsDistinctResults = true
  /// let priorities = try context.fetchDictionaries(request)  // [["priority": .attribute(.integer(1))], …]
  /// ```
  ///
  /// - Throws: ``PersistenceError/unknownProperty(_:entity:suggestion:)`` for a name that is
  ///   not an attribute or to-one relationship of the entity, and what ``fetch(_:)`` throws.
  public func fetchDictionaries<Result: ManagedObject>(_ request: FetchRequest<Result>) throws
    -> [[String: FetchedValue]]
  {
    var unsliced = request
    if request.returnsDistinctResults {
      unsliced.fetchLimit = nil
      unsliced.fetchOffset = 0
    }
    let plan = try QueryPlan(request: unsliced, context: self)
    let layout = layouts[plan.entity]
    let names = request.propertiesToFetch ?? layout.persistentAttributeSlots.map { layout.attributes[$0].name }
    var properties: [DictionaryProperty] = []
    for name in names {
      if let slot = layout.attributeSlots[name], layout.attributes[slot].isPersistent,
        let column = plan.mapping.column(forAttribute: name)
      {
        properties.append(.attribute(name: name, slot: slot, column: column.column))
      } else if let slot = layout.relationshipSlots[name], !layout.relationships[slot].relationship.isToMany,
        let columns = plan.mapping.toOne(named: name)
      {
        properties.append(.toOne(name: name, slot: slot, columns: columns))
      } else {
        let candidates =
          layout.persistentAttributeSlots.map { layout.attributes[$0].name }
          + layout.relationships.filter { !$0.relationship.isToMany }.map(\.relationship.name)
        throw PersistenceError.unknownProperty(
          name, entity: layout.name, suggestion: EditDistance.suggestion(for: name, among: candidates))
      }
    }
    var rows: [[String: FetchedValue]]
    if plan.isFullyCompiled && !(request.includesPendingChanges && plan.hasPendingChanges(in: self)) {
      rows = try store.fetchDictionaries(plan, properties: properties, layout: layout)
    } else {
      rows = try fetchObjects(unsliced, plan: plan).map { object in
        var row: [String: FetchedValue] = [:]
        for property in properties {
          switch property {
          case .attribute(let name, let slot, _):
            if let value = object.attributeValue(at: slot) { row[name] = .attribute(value) }
          case .toOne(let name, let slot, _):
            if object.isFaultStorage { fulfillFault(object) }
            if let id = object.toOneValues[slot] { row[name] = .object(id) }
          }
        }
        return row
      }
    }
    guard request.returnsDistinctResults else { return rows }
    var seen = Set<[String: FetchedValue]>()
    rows = rows.filter { seen.insert($0).inserted }
    return Self.slice(rows, offset: request.fetchOffset, limit: request.fetchLimit)
  }
}

/// A property of a dictionary result and where it is stored.
enum DictionaryProperty {
  case attribute(name: String, slot: Int, column: String)
  case toOne(name: String, slot: Int, columns: ToOneColumns)
}

extension StoreConnection {
  /// The chosen columns of the rows a fully compiled plan selects, decoded.
  func fetchDictionaries(_ plan: QueryPlan, properties: [DictionaryProperty], layout: ObjectLayout) throws
    -> [[String: FetchedValue]]
  {
    var columns: [String] = []
    for property in properties {
      switch property {
      case .attribute(_, _, let column):
        columns.append("t.\(SQLiteIdentifier.quote(column))")
      case .toOne(_, _, let toOne):
        columns.append("t.\(SQLiteIdentifier.quote(toOne.foreignKeyColumn))")
        columns.append(toOne.entityColumn.map { "t.\(SQLiteIdentifier.quote($0))" } ?? "NULL")
      }
    }
    var sql = SQLiteSQL(
      verbatim:
        "SELECT \((["t.Z_PK"] + columns).joined(separator: ", ")) FROM \(SQLiteIdentifier.quote(plan.mapping.tableName)) AS t WHERE "
    )
    sql += plan.condition()
    sql += plan.orderAndSlice
    let connection = try connection()
    return try connection.mapRows(sql) { statement in
      var row: [String: FetchedValue] = [:]
      var position = 1
      for property in properties {
        switch property {
        case .attribute(let name, let slot, _):
          let attribute = layout.attributes[slot]
          do {
            if let value = try StoredValueCodec.decode(
              statement.value(at: position), for: attribute, externalDataDirectory: description.externalDataDirectory)
            {
              row[name] = .attribute(value)
            }
          } catch {
            throw PersistenceError.storeFailure(
              "\(layout.name) \(statement.int64(at: 0)): \(error) (table \(plan.mapping.tableName))")
          }
          position += 1
        case .toOne(let name, _, let toOne):
          if !statement.isNull(at: position) {
            var destination = toOne.destination
            if !statement.isNull(at: position + 1),
              let entity = description.entity(number: Int(statement.int64(at: position + 1)))
            {
              destination = entity
            }
            row[name] = .object(ObjectID(entity: destination, primaryKey: statement.int64(at: position)))
          }
          position += 2
        }
      }
      return row
    }
  }
}
