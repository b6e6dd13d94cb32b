/// Uniqueness constraints, checked before a save writes anything so that every violation is
/// reported together.
extension StoreConnection {
  /// One constraint of an entity hierarchy: the entity that declares it and its properties.
  struct ConstraintCheck {
    var entity: EntityID
    var properties: [String]
  }

  /// The constraints that apply to objects of an entity: its own and its ancestors'.
  func constraints(of entity: EntityID) -> [ConstraintCheck] {
    let model = description.model
    return ([entity] + model.ancestors(of: entity)).flatMap { owner in
      model[owner].uniquenessConstraints.map { ConstraintCheck(entity: owner, properties: $0.properties) }
    }
  }

  /// The key of an object for a constraint; nil when a part is nil (nil never conflicts, as in
  /// the store's UNIQUE index).
  func key(of object: ManagedObject, properties: [String]) -> [String]? {
    var parts: [String] = []
    for name in properties {
      if let slot = object.layout.attributeSlots[name] {
        guard let value = object.attributeValues[slot] else { return nil }
        parts.append("\(StoredValueCodec.encode(value, for: object.layout.attributes[slot]))")
      } else if let slot = object.layout.relationshipSlots[name] {
        guard let id = object.toOneValues[slot] else { return nil }
        parts.append("\(id)")
      } else {
        return nil
      }
    }
    return parts
  }

  func uniquenessFailures(inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject]) throws
    -> [ValidationFailure]
  {
    let candidates = inserted + updated
    guard !candidates.isEmpty else { return [] }
    var failures: [ValidationFailure] = []
    let model = description.model
    // Objects whose stored key may no longer hold: deleted, or updated (their new key is checked
    // in memory).
    let leaving = Set((deleted + updated).compactMap(\.objectID.primaryKey))
    var groups: [String: [(ConstraintCheck, ManagedObject)]] = [:]
    for object in candidates {
      for check in constraints(of: object.layout.entity) {
        // Updated objects only need checking when a constrained value changed.
        if !object.isInserted && !changesConstrainedValues(object, check) { continue }
        groups["\(check.entity.index):\(check.properties.joined(separator: ","))", default: []].append((check, object))
      }
    }
    for (_, members) in groups.sorted(by: { $0.key < $1.key }) {
      guard let check = members.first?.0 else { continue }
      var seen: [[String]: ManagedObject] = [:]
      var keyed: [(ManagedObject, [String])] = []
      for (_, object) in members {
        guard let key = key(of: object, properties: check.properties) else { continue }
        if seen[key] != nil {
          failures.append(failure(object, check: check, detail: "another pending object has the same value"))
        } else {
          seen[key] = object
          keyed.append((object, key))
        }
      }
      // Against the store: one query per chunk of keys.
      let mapping = schema[check.entity]
      var columns: [String] = []
      for name in check.properties {
        if let column = mapping.column(forAttribute: name)?.column {
          columns.append(column)
        } else if let toOne = mapping.toOne(named: name) {
          columns.append(toOne.foreignKeyColumn)
        }
      }
      guard columns.count == check.properties.count else { continue }
      let numbers = mapping.entityNumbersInHierarchy
      let connection = try connection()
      for chunk in stride(from: 0, to: keyed.count, by: 200).map({ Array(keyed[$0..<min($0 + 200, keyed.count)]) }) {
        var arguments: [SQLiteValue] = numbers.map { .integer(Int64($0)) }
        var tuples: [String] = []
        for (object, _) in chunk {
          var placeholders: [String] = []
          for name in check.properties {
            placeholders.append("?")
            if let slot = object.layout.attributeSlots[name] {
              arguments.append(
                StoredValueCodec.encode(object.attributeValues[slot], for: object.layout.attributes[slot]))
            } else if let slot = object.layout.relationshipSlots[name] {
              arguments.append(object.toOneValues[slot]?.primaryKey.map { .integer($0) } ?? .integer(-1))
            }
          }
          tuples.append("(\(placeholders.joined(separator: ", ")))")
        }
        let quoted = columns.map { SQLiteIdentifier.quote($0) }
        let sql = SQLiteSQL(
          verbatim:
            "SELECT Z_PK, \(quoted.joined(separator: ", ")) FROM \(SQLiteIdentifier.quote(mapping.tableName)) WHERE Z_ENT IN (\(numbers.map { _ in "?" }.joined(separator: ", "))) AND (\(quoted.joined(separator: ", "))) IN (VALUES \(tuples.joined(separator: ", ")))",
          arguments: arguments)
        var taken: [[String]: Int64] = [:]
        try connection.forEachRow(sql) { statement in
          let primaryKey = statement.int64(at: 0)
          guard !leaving.contains(primaryKey) else { return }
          var parts: [String] = []
          for index in columns.indices {
            parts.append("\(statement.value(at: index + 1))")
          }
          taken[parts] = primaryKey
        }
        guard !taken.isEmpty else { continue }
        for (object, _) in chunk {
          var parts: [String] = []
          for name in check.properties {
            if let slot = object.layout.attributeSlots[name] {
              parts.append(
                "\(StoredValueCodec.encode(object.attributeValues[slot], for: object.layout.attributes[slot]))")
            } else if let slot = object.layout.relationshipSlots[name] {
              parts.append("\(object.toOneValues[slot]?.primaryKey.map { SQLiteValue.integer($0) } ?? .integer(-1))")
            }
          }
          if let other = taken[parts], other != object.objectID.primaryKey {
            failures.append(
              failure(object, check: check, detail: "the store already has an object with this value (row \(other))"))
          }
        }
      }
      _ = model
    }
    return failures
  }

  /// Whether a saved object's values under a constraint changed since it was read.
  func changesConstrainedValues(_ object: ManagedObject, _ check: ConstraintCheck) -> Bool {
    check.properties.contains { name in
      if let slot = object.layout.attributeSlots[name] {
        return object.attributeValues[slot] != object.committedAttributeValues[slot]
      }
      if let slot = object.layout.relationshipSlots[name] {
        return object.toOneValues[slot] != object.committedToOneValues[slot]
      }
      return false
    }
  }

  /// Sets the constrained columns of rows that a save deletes, or moves to other constrained
  /// values, to NULL before anything else is written.
  ///
  /// SQLite checks a UNIQUE index after each statement, not at commit, so without this a save
  /// that swaps two objects' values, or gives a new object the value of one it deletes, fails
  /// in the store although the result is valid (and was validated as such). NULL never
  /// conflicts; the rows' later UPDATE (or DELETE) sets every column.
  func releaseUniqueValues(updated: [ManagedObject], deleted: [ManagedObject], connection: SQLiteConnection) throws {
    for (object, isDeleted) in deleted.map({ ($0, true) }) + updated.map({ ($0, false) }) {
      guard let key = object.objectID.primaryKey else { continue }
      let mapping = schema[object.layout.entity]
      var columns: [String] = []
      for check in constraints(of: object.layout.entity) where isDeleted || changesConstrainedValues(object, check) {
        for name in check.properties {
          if let column = mapping.column(forAttribute: name)?.column {
            columns.append(column)
          } else if let toOne = mapping.toOne(named: name) {
            columns.append(toOne.foreignKeyColumn)
          }
        }
      }
      guard !columns.isEmpty else { continue }
      let assignments = Set(columns).sorted().map { "\(SQLiteIdentifier.quote($0)) = NULL" }.joined(separator: ", ")
      try connection.execute(
        SQLiteSQL(
          verbatim: "UPDATE \(SQLiteIdentifier.quote(mapping.tableName)) SET \(assignments) WHERE Z_PK = ?",
          arguments: [.integer(key)]))
    }
  }

  private func failure(_ object: ManagedObject, check: ConstraintCheck, detail: String) -> ValidationFailure {
    let values = check.properties.map { name -> String in
      if let slot = object.layout.attributeSlots[name] { return object.attributeValues[slot].map { "\($0)" } ?? "nil" }
      if let slot = object.layout.relationshipSlots[name] { return object.toOneValues[slot].map { "\($0)" } ?? "nil" }
      return "?"
    }
    return ValidationFailure(
      rule: .uniqueness, entity: object.layout.name, property: check.properties.joined(separator: ", "),
      objectID: object.objectID, value: values.joined(separator: ", "), message: "must be unique; \(detail)")
  }
}
