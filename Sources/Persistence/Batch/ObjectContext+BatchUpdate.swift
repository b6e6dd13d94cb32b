import SQLite

/// The SQL of a batch update.
extension ObjectContext {
  /// Updates the selected rows; returns their IDs and the external-data files of the values it
  /// replaced (to remove once the transaction commits). Runs inside the caller's transaction.
  ///
  /// New values of attributes that allow external storage are written inline (one value for
  /// many rows cannot share one file: deleting a row removes its file).
  func batchUpdate(_ request: BatchUpdateRequest) throws -> (ids: [ObjectID], obsoleteFiles: [String]) {
    let entity = try batchEntity(named: request.entityName)
    let layout = layouts[entity]
    let mapping = store.schema[entity]
    let (ids, plan) = try batchSelection(
      entityName: request.entityName, predicate: request.predicate, includesSubentities: request.includesSubentities)
    let failureID = ids.first ?? ObjectID(entity: entity, temporary: 1)
    var assignments: [(String, SQLiteValue)] = []
    var externalAttributes: Set<String> = []
    var failures: [ValidationFailure] = []
    var validator = ObjectValidator()
    for (name, value) in request.propertiesToUpdate.sorted(by: { $0.key < $1.key }) {
      if let slot = layout.attributeSlots[name], layout.attributes[slot].isPersistent,
        let column = mapping.column(forAttribute: name)
      {
        guard case .attribute(let attributeValue) = value else {
          throw BatchRequestError.unsupported(
            "'\(name)' of '\(layout.name)' is an attribute: give it an attribute value")
        }
        let attribute = layout.attributes[slot]
        failures += validator.validate(attributeValue, slot: slot, of: layout, objectID: failureID)
        assignments.append((column.column, StoredValueCodec.encode(attributeValue, for: attribute)))
        if column.encoding == .externalBinary { externalAttributes.insert(name) }
      } else if let slot = layout.relationshipSlots[name], !layout.relationships[slot].relationship.isToMany {
        guard case .object(let destination) = value else {
          throw BatchRequestError.unsupported(
            "'\(name)' of '\(layout.name)' is a to-one relationship: give it an object ID")
        }
        let (columns, failure) = try toOneAssignment(slot, of: entity, to: destination, failureID: failureID)
        if let failure { failures.append(failure) }
        assignments += columns
      } else if layout.relationshipSlots[name] != nil {
        throw BatchRequestError.unsupported(
          "'\(name)' of '\(layout.name)' is a to-many relationship, which batch updates cannot set")
      } else {
        throw unknownProperty(name, of: entity)
      }
    }
    if !failures.isEmpty { throw BatchRequestError.validation(failures) }
    guard !ids.isEmpty, !assignments.isEmpty else { return (ids, []) }

    let table = SQLiteIdentifier.quote(mapping.tableName)
    var set = SQLiteSQL(
      verbatim: assignments.map { "\(SQLiteIdentifier.quote($0.0)) = ?" }.joined(separator: ", ")
        + ", Z_OPT = Z_OPT + 1",
      arguments: assignments.map(\.1))
    set = SQLiteSQL(verbatim: "UPDATE \(table) AS t SET ") + set
    let connection = try store.connection()
    let obsoleteFiles =
      externalAttributes.isEmpty
      ? [] : try store.externalFileNames(of: ids, attributeNames: externalAttributes, connection: connection)
    do {
      if plan.isFilterCompiled && plan.conditionReadsOnlyItsRow {
        // The selection's own condition, in the same transaction as the selection: the same
        // rows, as each is tested on its own values alone. `WHERE Z_PK IN (SELECT …)` cost
        // SQLite an index of the selected keys and a lookup of each, half as much again as the
        // update itself.
        try connection.execute(set + " WHERE " + plan.condition())
      } else if plan.isFilterCompiled {
        // A condition that reads other rows (through a relationship) is evaluated for every row
        // before any changes: SQLite tests and updates rows in turn, so an update could
        // otherwise make later rows match (a raise that qualifies the raised's reports).
        var sql = set + SQLiteSQL(verbatim: " WHERE Z_PK IN (SELECT t.Z_PK FROM \(table) AS t WHERE ")
        sql += plan.condition()
        sql += ")"
        try connection.execute(sql)
      } else {
        for start in stride(from: 0, to: ids.count, by: 500) {
          let chunk = ids[start..<min(start + 500, ids.count)]
          try connection.execute(
            set
              + SQLiteSQL(
                verbatim: " WHERE Z_PK IN (\(SQLiteSQL.placeholders(count: chunk.count)))",
                arguments: chunk.map { .integer($0.key) }))
        }
      }
    } catch let error as SQLiteError where error.isConstraintViolation {
      throw uniquenessFailure(error, entity: entity, objectID: failureID)
    }
    return (ids, obsoleteFiles)
  }
}
