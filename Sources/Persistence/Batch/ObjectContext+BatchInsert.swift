import SQLite

/// The SQL of a batch insert.
extension ObjectContext {
  /// Inserts the rows; returns their new IDs. Runs inside the caller's transaction.
  func batchInsert(_ request: BatchInsertRequest) throws -> [ObjectID] {
    let entity = try batchEntity(named: request.entityName)
    guard !model[entity].isAbstract else { throw PersistenceError.abstractEntity(request.entityName) }
    let layout = layouts[entity]
    let statements = store.description.statements[entity.index]
    var validator = ObjectValidator()
    var failures: [ValidationFailure] = []
    var rows: [[SQLiteValue]] = []
    rows.reserveCapacity(request.objects.count)
    for (index, values) in request.objects.enumerated() {
      let failureID = ObjectID(entity: entity, temporary: Int64(index + 1))
      for name in values.keys.sorted() where layout.attributeSlots[name] == nil && layout.relationshipSlots[name] == nil
      {
        throw unknownProperty(name, of: entity)
      }
      var attributes = layout.attributes.map(\.defaultValue)
      var toOne: [Int: [(String, SQLiteValue)]] = [:]
      for (name, value) in values.sorted(by: { $0.key < $1.key }) {
        if let slot = layout.attributeSlots[name] {
          guard case .attribute(let attributeValue) = value else {
            throw BatchRequestError.unsupported(
              "'\(name)' of '\(layout.name)' is an attribute: give it an attribute value")
          }
          attributes[slot] = attributeValue
        } else if let slot = layout.relationshipSlots[name] {
          guard !layout.relationships[slot].relationship.isToMany, case .object(let destination) = value else {
            throw BatchRequestError.unsupported(
              "'\(name)' of '\(layout.name)': batch inserts set attributes and to-one relationships (as object IDs)")
          }
          let (assignments, failure) = try toOneAssignment(slot, of: entity, to: destination, failureID: failureID)
          if let failure { failures.append(failure) }
          toOne[slot] = assignments
        }
      }
      for (slot, attribute) in layout.attributes.enumerated() where attribute.isPersistent {
        failures += validator.validate(attributes[slot], slot: slot, of: layout, objectID: failureID)
      }
      for (slot, item) in layout.relationships.enumerated()
      where !item.relationship.isOptional && !item.relationship.isTransient && toOne[slot] == nil {
        failures.append(
          ValidationFailure(
            rule: .required, entity: layout.name, property: item.relationship.name, objectID: failureID, value: nil,
            message: item.relationship.isToMany
              ? "at least one object is required, which a batch insert cannot give" : "a destination object is required"
          ))
      }
      var row: [SQLiteValue] = []
      row.reserveCapacity(statements.columns.count)
      for column in statements.columns {
        switch column.source {
        case .attribute(let slot, let kind):
          row.append(StoredValueCodec.encode(attributes[slot], kind: kind))
        case .toOneKey(let slot), .toOneEntity(let slot):
          row.append(toOne[slot]?.first { $0.0 == column.name }?.1 ?? .null)
        case .toOneOrder:
          row.append(.null)
        }
      }
      rows.append(row)
    }
    if !failures.isEmpty { throw BatchRequestError.validation(failures) }
    guard !rows.isEmpty else { return [] }

    let first = try allocateKeys(count: rows.count, for: entity)
    let connection = try store.connection()
    let insert = try connection.cachedStatement(SQLiteSQL(verbatim: statements.insertSQL))
    let entityNumber = SQLiteValue.integer(Int64(store.schema[entity].entityNumber))
    var ids: [ObjectID] = []
    ids.reserveCapacity(rows.count)
    for (offset, row) in rows.enumerated() {
      let key = first + Int64(offset)
      do {
        try insert.execute([.integer(key), entityNumber, .integer(1)] + row)
      } catch let error as SQLiteError where error.isConstraintViolation {
        throw uniquenessFailure(error, entity: entity, objectID: ObjectID(entity: entity, temporary: Int64(offset + 1)))
      }
      ids.append(ObjectID(entity: entity, primaryKey: key))
    }
    return ids
  }

  /// Reserves `count` primary keys for new rows of an entity's hierarchy, as a save does:
  /// after both `Z_PRIMARYKEY`'s counter and the largest key in the table. Returns the first.
  private func allocateKeys(count: Int, for entity: EntityID) throws -> Int64 {
    try store.connection().reservePrimaryKeys(count, forHierarchyOf: store.schema[store.schema[entity].rootEntity])
  }
}
