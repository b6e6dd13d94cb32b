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

  /// The key of an object for a constraint, as the store would hold it; nil when a part is nil
  /// (nil never conflicts, as in the store's UNIQUE index).
  func key(of object: ManagedObject, properties: [String]) -> [SQLiteValue]? {
    var parts: [SQLiteValue] = []
    parts.reserveCapacity(properties.count)
    for name in properties {
      if let slot = object.layout.attributeSlots[name] {
        guard let value = object.attributeValues[slot] else { return nil }
        parts.append(StoredValueCodec.encode(value, for: object.layout.attributes[slot]))
      } else if let slot = object.layout.relationshipSlots[name] {
        guard let id = object.toOneValues[slot] else { return nil }
        // Unsaved destinations cannot clash with stored rows; tell them apart from keys.
        parts.append(id.primaryKey.map { .integer($0) } ?? .text("temporary \(id)"))
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
    // Objects whose stored key may no longer hold: deleted, or updated (their new key is checked
    // in memory).
    let leaving = Set((deleted + updated).compactMap(\.objectID.primaryKey))
    var groups: [String: [(ConstraintCheck, ManagedObject)]] = [:]
    for object in candidates {
      for check in constraints(of: object.layout.entity) {
        // Updated objects only need checking when a constrained value changed.
        if !object.isInserted {
          let changed = check.properties.contains { name in
            if let slot = object.layout.attributeSlots[name] {
              return object.attributeValues[slot] != object.committedAttributeValues[slot]
            }
            if let slot = object.layout.relationshipSlots[name] {
              return object.toOneValues[slot] != object.committedToOneValues[slot]
            }
            return false
          }
          if !changed { continue }
        }
        groups["\(check.entity.index):\(check.properties.joined(separator: ","))", default: []].append((check, object))
      }
    }
    for (_, members) in groups.sorted(by: { $0.key < $1.key }) {
      guard let check = members.first?.0 else { continue }
      var seen: [[SQLiteValue]: ManagedObject] = [:]
      var keyed: [(ManagedObject, [SQLiteValue])] = []
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
        let placeholders = "(" + Array(repeating: "?", count: check.properties.count).joined(separator: ", ") + ")"
        for (_, key) in chunk {
          arguments += key
          tuples.append(placeholders)
        }
        let quoted = columns.map { SQLiteIdentifier.quote($0) }
        let sql = SQLiteSQL(
          verbatim:
            "SELECT Z_PK, \(quoted.joined(separator: ", ")) FROM \(SQLiteIdentifier.quote(mapping.tableName)) WHERE Z_ENT IN (\(numbers.map { _ in "?" }.joined(separator: ", "))) AND (\(quoted.joined(separator: ", "))) IN (VALUES \(tuples.joined(separator: ", ")))",
          arguments: arguments)
        var taken: [[SQLiteValue]: Int64] = [:]
        try connection.forEachRow(sql) { statement in
          let primaryKey = statement.int64(at: 0)
          guard !leaving.contains(primaryKey) else { return }
          taken[columns.indices.map { statement.value(at: $0 + 1) }] = primaryKey
        }
        guard !taken.isEmpty else { continue }
        for (object, key) in chunk {
          if let other = taken[key], other != object.objectID.primaryKey {
            failures.append(
              failure(object, check: check, detail: "the store already has an object with this value (row \(other))"))
          }
        }
      }
    }
    return failures
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
