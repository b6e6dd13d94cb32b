import SQLite

/// Uniqueness constraints, checked before a save writes anything so that every violation is
/// reported together.
extension StoreConnection {
  /// One constraint of an entity hierarchy: the entity that declares it and its properties.
  struct ConstraintCheck: Hashable {
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

  /// The key of an object for a constraint, as the store holds it (``comparable(_:)``); nil
  /// when a part is nil (nil never conflicts, as in the store's UNIQUE index). A to-one part is
  /// the destination's key — negative while temporary, so never one of the store's.
  func key(of object: ManagedObject, properties: [String]) -> [SQLiteValue]? {
    var parts: [SQLiteValue] = []
    parts.reserveCapacity(properties.count)
    for name in properties {
      if let slot = object.layout.attributeSlots[name] {
        guard let value = object.attributeValues[slot] else { return nil }
        parts.append(Self.comparable(StoredValueCodec.encode(value, for: object.layout.attributes[slot])))
      } else if let slot = object.layout.relationshipSlots[name] {
        guard let id = object.toOneValues[slot] else { return nil }
        parts.append(.integer(id.key))
      } else {
        return nil
      }
    }
    return parts
  }

  /// A column value in the form SQLite gives it back: a REAL without a fraction is an INTEGER
  /// in columns of NUMERIC affinity (`TIMESTAMP`, `DECIMAL`), so both compare as the integer.
  static func comparable(_ value: SQLiteValue) -> SQLiteValue {
    if case .real(let real) = value, let integer = Int64(exactly: real) { return .integer(integer) }
    return value
  }

  /// The uniqueness constraints the pending objects break, against each other and the store.
  ///
  /// With `skippingStoreEnforced`, constraints that a `UNIQUE` index of the store enforces are
  /// left to the index: the save's `INSERT`s and `UPDATE`s fail on a violation, and the save
  /// then runs the full check to name the objects (see `ObjectContext.save()`). A save that
  /// breaks no constraint so reads nothing for them.
  func uniquenessFailures(
    inserted: [ManagedObject], updated: [ManagedObject], deleted: [ManagedObject], skippingStoreEnforced: Bool = false
  ) throws -> [ValidationFailure] {
    guard !inserted.isEmpty || !updated.isEmpty else { return [] }
    // A model with no constraint to check here (none, or each one left to a store index)
    // costs no pass over the objects.
    guard try hasConstraintsToCheck(skippingStoreEnforced: skippingStoreEnforced) else { return [] }
    var failures: [ValidationFailure] = []
    // Per entity of the objects: the constraints to check, each with its properties' slots and
    // its group, found once (a constraint a store index enforces is left out here when skipped,
    // so the objects it covers cost nothing).
    var constraintsByEntity: [Int: [(parts: [ConstrainedPart], group: Int)]] = [:]
    var groupIndexes: [ConstraintCheck: Int] = [:]
    var groups: [(check: ConstraintCheck, members: [ManagedObject])] = []
    for objects in [inserted, updated] {
      // The objects come by entity (sorted by ID): each run's constraints are looked up once.
      var runEntity = -1
      var checks: [(parts: [ConstrainedPart], group: Int)] = []
      for object in objects {
        let entity = object.layout.entity
        if entity.index != runEntity {
          runEntity = entity.index
          if let known = constraintsByEntity[entity.index] {
            checks = known
          } else {
            checks = []
            for check in constraints(of: entity) {
              if skippingStoreEnforced, try isEnforcedByStore(check) { continue }
              let group: Int
              if let known = groupIndexes[check] {
                group = known
              } else {
                group = groups.count
                groupIndexes[check] = group
                groups.append((check, []))
              }
              checks.append((constrainedParts(check, of: object.layout), group))
            }
            constraintsByEntity[entity.index] = checks
          }
        }
        for (parts, group) in checks {
          // Updated objects only need checking when a constrained value changed.
          if !object.isInserted && !changesConstrainedValues(object, parts) { continue }
          groups[group].members.append(object)
        }
      }
    }
    groups.removeAll { $0.members.isEmpty }
    guard !groups.isEmpty else { return [] }
    // Rows whose stored key for a constraint may no longer hold: deleted ones, and for each
    // constraint the updated objects that changed its values (their new key is checked in
    // memory, as a member). An updated object that kept its values still holds them in its row,
    // which the new keys are checked against like any other.
    let deletedKeys = Set(deleted.compactMap(\.objectID.primaryKey))
    let ordered = groups.sorted {
      ($0.check.entity.index, $0.check.properties.joined(separator: ",")) < (
        $1.check.entity.index,
        $1.check.properties.joined(separator: ",")
      )
    }
    let connection = try connection()
    for (check, members) in ordered {
      let leaving = deletedKeys.union(members.lazy.filter { !$0.isInserted }.compactMap(\.objectID.primaryKey))
      var seen = Set<[SQLiteValue]>(minimumCapacity: members.count)
      var keyed: [(ManagedObject, [SQLiteValue])] = []
      keyed.reserveCapacity(members.count)
      for object in members {
        guard let key = key(of: object, properties: check.properties) else { continue }
        if seen.insert(key).inserted {
          keyed.append((object, key))
        } else {
          failures.append(failure(object, check: check, detail: "another pending object has the same value"))
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
      let quoted = columns.map { SQLiteIdentifier.quote($0) }.joined(separator: ", ")
      let tuple = "(" + SQLiteSQL.placeholders(count: columns.count) + ")"
      let prefix =
        "SELECT Z_PK, \(quoted) FROM \(SQLiteIdentifier.quote(mapping.tableName)) WHERE Z_ENT IN (\(SQLiteSQL.placeholders(count: numbers.count))) AND (\(quoted)) IN (VALUES "
      for start in stride(from: 0, to: keyed.count, by: 200) {
        let chunk = keyed[start..<min(start + 200, keyed.count)]
        var arguments: [SQLiteValue] = numbers.map { .integer(Int64($0)) }
        arguments.reserveCapacity(numbers.count + chunk.count * columns.count)
        for (_, key) in chunk { arguments += key }
        let sql = SQLiteSQL(
          verbatim: prefix + Array(repeating: tuple, count: chunk.count).joined(separator: ", ") + ")",
          arguments: arguments)
        var taken: [[SQLiteValue]: Int64] = [:]
        try connection.forEachRow(sql) { statement in
          let primaryKey = statement.int64(at: 0)
          guard !leaving.contains(primaryKey) else { return }
          taken[columns.indices.map { Self.comparable(statement.value(at: $0 + 1)) }] = primaryKey
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

  /// Whether any entity of the model has a uniqueness constraint that ``uniquenessFailures(inserted:updated:deleted:skippingStoreEnforced:)``
  /// checks: with `skippingStoreEnforced`, one that no `UNIQUE` index of the store enforces.
  /// Worked out once per connection and mode (``isEnforcedByStore(_:)`` reads the store's
  /// indexes once per constraint).
  func hasConstraintsToCheck(skippingStoreEnforced: Bool) throws -> Bool {
    if let known = constraintsToCheck[skippingStoreEnforced] { return known }
    var found = false
    for entity in description.model.entities.indices where !found {
      for check in constraints(of: EntityID(entity)) where !found {
        found = try !skippingStoreEnforced || !isEnforcedByStore(check)
      }
    }
    constraintsToCheck[skippingStoreEnforced] = found
    return found
  }

  /// Whether a `UNIQUE` index of the store enforces a constraint: a complete (not partial)
  /// unique index of the hierarchy's table on exactly the constraint's columns. The index
  /// covers the whole table, so it refuses at least every value the check refuses. Stores laid
  /// out here always have one (`Z_<Entity>_UNIQUE_…`); a store written elsewhere may not, and
  /// its constraints are then always checked before writing. Looked up once per constraint.
  func isEnforcedByStore(_ check: ConstraintCheck) throws -> Bool {
    if let known = storeEnforcedConstraints[check] { return known }
    let mapping = schema[check.entity]
    var columns = Set<String>()
    for name in check.properties {
      if let column = mapping.column(forAttribute: name)?.column {
        columns.insert(column)
      } else if let toOne = mapping.toOne(named: name) {
        columns.insert(toOne.foreignKeyColumn)
      }
    }
    var enforced = false
    if columns.count == check.properties.count {
      let connection = try connection()
      var uniqueIndexes: [String] = []
      try connection.forEachRow(
        SQLiteSQL(
          verbatim: "SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1 AND partial = 0",
          arguments: [.text(mapping.tableName)])
      ) { uniqueIndexes.append($0.text(at: 0)) }
      for index in uniqueIndexes where !enforced {
        var indexed: [String] = []
        try connection.forEachRow(
          SQLiteSQL(verbatim: "SELECT name FROM pragma_index_info(?)", arguments: [.text(index)])
        ) { indexed.append($0.text(at: 0)) }
        enforced = indexed.count == columns.count && Set(indexed) == columns
      }
    }
    storeEnforcedConstraints[check] = enforced
    return enforced
  }

  /// A property of a constraint as a slot of one entity's objects (an attribute's, or a to-one
  /// relationship's) and the column of the entity's table that stores it.
  struct ConstrainedPart {
    var isAttribute: Bool
    var slot: Int
    /// Nil when the store's layout has no column for the property.
    var column: String?
  }

  /// The slots and columns of a constraint's properties in objects of `layout` (a property the
  /// entity does not have is left out: it never changes).
  func constrainedParts(_ check: ConstraintCheck, of layout: ObjectLayout) -> [ConstrainedPart] {
    let mapping = schema[layout.entity]
    return check.properties.compactMap { name in
      if let slot = layout.attributeSlots[name] {
        return ConstrainedPart(isAttribute: true, slot: slot, column: mapping.column(forAttribute: name)?.column)
      }
      if let slot = layout.relationshipSlots[name] {
        return ConstrainedPart(isAttribute: false, slot: slot, column: mapping.toOne(named: name)?.foreignKeyColumn)
      }
      return nil
    }
  }

  /// Whether a saved object's value of a constrained property changed since it was read.
  func changesConstrainedValue(_ object: ManagedObject, _ part: ConstrainedPart) -> Bool {
    part.isAttribute
      ? object.attributeDiffers(at: part.slot)
      : object.toOneValues[part.slot] != object.committedToOneValues[part.slot]
  }

  /// Whether a saved object's values under a constraint changed since it was read.
  func changesConstrainedValues(_ object: ManagedObject, _ parts: [ConstrainedPart]) -> Bool {
    parts.contains { changesConstrainedValue(object, $0) }
  }

  /// Sets the constrained columns that updated rows move to other values to NULL before new
  /// and updated rows are written (deleted rows are gone by then).
  ///
  /// SQLite checks a UNIQUE index after each statement, not at commit, so without this a save
  /// that swaps two objects' values, or gives a new object the value an updated one leaves,
  /// fails in the store although the result is valid (and was validated as such). NULL never
  /// conflicts; each row's later UPDATE writes every column that changed, these included. The
  /// statement checks the row's version too: a row changed since it was read is a conflict
  /// (under ``MergePolicy/contextWins`` its values are released anyway, to be overwritten).
  ///
  /// A save passes the updated objects that moved a constrained value
  /// (``StoreChanges/constrainedUpdates``), not every updated object: the others have nothing
  /// to release, and asking each would be one more pass over all of them.
  func releaseUniqueValues(
    updated: [ManagedObject], connection: SQLiteConnection, conflicts: inout ConflictLedger
  ) throws {
    // Per entity: the parts of all its constraints that the store has a column for.
    // The objects come by entity (sorted by ID): each run's parts are looked up once.
    var partsByEntity: [Int: [ConstrainedPart]] = [:]
    var runEntity = -1
    var parts: [ConstrainedPart] = []
    for object in updated {
      guard let key = object.objectID.primaryKey else { continue }
      let entity = object.layout.entity
      if entity.index != runEntity {
        runEntity = entity.index
        if let known = partsByEntity[entity.index] {
          parts = known
        } else {
          parts = constraints(of: entity).flatMap { constrainedParts($0, of: object.layout) }.filter {
            $0.column != nil
          }
          partsByEntity[entity.index] = parts
        }
      }
      guard !parts.isEmpty else { continue }
      var columns: Set<String> = []
      for part in parts where changesConstrainedValue(object, part) {
        if let column = part.column { columns.insert(column) }
      }
      guard !columns.isEmpty else { continue }
      let assignments = columns.sorted().map { "\(SQLiteIdentifier.quote($0)) = NULL" }.joined(separator: ", ")
      let table = SQLiteIdentifier.quote(schema[entity].tableName)
      try connection.execute(
        SQLiteSQL(
          verbatim: "UPDATE \(table) SET \(assignments) WHERE Z_PK = ? AND Z_OPT = ?",
          arguments: [.integer(key), .integer(object.storedVersion)]))
      guard connection.changes == 0 else { continue }
      if conflicts.policy == .contextWins {
        // The row changed elsewhere and is overwritten: its values are released all the same.
        try connection.execute(
          SQLiteSQL(verbatim: "UPDATE \(table) SET \(assignments) WHERE Z_PK = ?", arguments: [.integer(key)]))
      } else {
        conflicts.record(object, storeVersion: try storedVersion(of: object, connection: connection))
      }
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

extension ManagedObject {
  /// Whether a value that a uniqueness constraint of the object's entity names (an attribute,
  /// or a to-one relationship's destination) differs from the one last read or saved.
  var changesConstrainedValue: Bool {
    unmanagedLayout._withUnsafeGuaranteedRef { layout in
      layout.constrainedSlots.attributes.contains { attributeDiffers(at: $0) }
        || layout.constrainedSlots.relationships.contains { toOneValues[$0] != committedToOneValues[$0] }
    }
  }
}
