import DataModel

/// The layout of a model version, with the names an existing store actually uses.
public struct StoreSchemaAdoption: Sendable {
  /// The layout to read and write the store with.
  public let schema: StoreSchema
  /// Every place where the store differs from the derived layout, in table order.
  public let differences: [StoreLayoutDifference]
  /// Whether `schema` uses a name of the store's instead of a derived one.
  public let adoptsStoreNames: Bool
}

extension StoreSchema {
  /// Tables modelc and Core Data keep besides the model's: never reported as extra.
  static let knownExtraTables: Set<String> = [
    MigrationHistory.tableName, "ACHANGE", "ATRANSACTION", "ATRANSACTIONSTRING", "Z_MODELCACHE",
  ]

  /// This layout with the join-table names of an existing store, and every difference between
  /// the two.
  ///
  /// Core Data's naming of join tables and their columns is derived from rules read off real
  /// stores (`docs/store-format.md` §5), and a store may still name one differently — a rule not
  /// yet known, or a store written by an older modelc. Rather than fail on a name it did not
  /// predict (`no such column: j.Z_23USERS`), the store's own name is used wherever it is
  /// unambiguous: a join table found under its owner's or its inverse's name (`Z_<n><NAME>`,
  /// with or without a number after it), and a key column that is the only one of the table
  /// with the same name up to a number at its end (`Z_23USERS1` for `Z_23USERS`). Everything
  /// else that differs is reported, never guessed.
  ///
  /// `existingTables` maps each table of the store to its columns in order (SQLite's own
  /// `sqlite_…` tables left out). Names compare case-insensitively, as SQLite compares them.
  public func adopting(existingTables: [String: [String]]) -> StoreSchemaAdoption {
    var adopter = SchemaAdopter(schema: self, existing: existingTables)
    return adopter.adopt()
  }

  /// Whether a store whose tables were made by `tableStatements` — each table's `CREATE TABLE`
  /// text by name, as `SQLiteConnection.tableStatements()` reads it — is laid out exactly as
  /// derived: every table of this layout is there under its own name with the text this layout
  /// writes for it (``TableDefinition/createStatement()``), and any other table is one modelc
  /// or Core Data keeps besides the model's.
  ///
  /// SQLite reads a table's columns from that text, so such a store has exactly this layout's
  /// columns: ``adopting(existingTables:)`` would adopt nothing and find no difference, and
  /// ``derivedAdoption`` is its result. A store's open checks this first, and reads every
  /// table's columns only when it is false (a store laid out otherwise, or changed by
  /// `ALTER TABLE`), which says nothing more than that the columns must be compared.
  public func isLaidOutAsDerived(tableStatements: [String: String]) -> Bool {
    guard tableStatements.count >= tables.count else { return false }
    for table in tables where tableStatements[table.name] != table.createStatement() { return false }
    guard tableStatements.count > tables.count else { return true }
    let names = Set(tables.map(\.name))
    return tableStatements.keys.allSatisfy { names.contains($0) || Self.knownExtraTables.contains($0.uppercased()) }
  }

  /// The adoption of a store laid out exactly as derived (``isLaidOutAsDerived(tableStatements:)``):
  /// this layout, with no difference.
  public var derivedAdoption: StoreSchemaAdoption {
    StoreSchemaAdoption(schema: self, differences: [], adoptsStoreNames: false)
  }
}

/// The work of ``StoreSchema/adopting(existingTables:)``.
private struct SchemaAdopter {
  let schema: StoreSchema
  /// The store's tables by uppercased name: the store's spelling and its columns.
  let existing: [String: (name: String, columns: [String])]
  var claimed: Set<String> = []
  var differences: [StoreLayoutDifference] = []
  var adopted = false

  init(schema: StoreSchema, existing: [String: [String]]) {
    self.schema = schema
    var tables: [String: (name: String, columns: [String])] = [:]
    for (name, columns) in existing { tables[name.uppercased()] = (name, columns) }
    self.existing = tables
  }

  mutating func adopt() -> StoreSchemaAdoption {
    for table in schema.tables where existing[table.name.uppercased()] != nil {
      claimed.insert(table.name.uppercased())
    }
    var renamedJoins: [String: JoinTableMapping] = [:]
    var tableDifferences: [String: [StoreLayoutDifference]] = [:]
    for join in schema.joinTables {
      let (mapping, found) = adopt(join)
      tableDifferences[join.name] = found
      if mapping != join { renamedJoins[join.name] = mapping }
    }
    for table in schema.tables {
      if table.kind == .join {
        differences += tableDifferences[table.name] ?? []
      } else {
        differences += compare(table)
      }
    }
    for key in existing.keys.sorted() where !claimed.contains(key) {
      let name = existing[key]!.name
      guard !StoreSchema.knownExtraTables.contains(key) else { continue }
      differences.append(StoreLayoutDifference(kind: .extraTable, table: name))
    }
    guard !renamedJoins.isEmpty else {
      return StoreSchemaAdoption(schema: schema, differences: differences, adoptsStoreNames: false)
    }
    return StoreSchemaAdoption(
      schema: rebuilt(renamedJoins), differences: differences, adoptsStoreNames: adopted)
  }

  // MARK: - Entity and bookkeeping tables: compared only

  private mutating func compare(_ table: TableDefinition) -> [StoreLayoutDifference] {
    guard let stored = existing[table.name.uppercased()] else {
      return [StoreLayoutDifference(kind: .missingTable, table: table.name)]
    }
    let have = Set(stored.columns.map { $0.uppercased() })
    let want = Set(table.columns.map { $0.name.uppercased() })
    var result: [StoreLayoutDifference] = []
    for column in table.columns where !have.contains(column.name.uppercased()) {
      result.append(StoreLayoutDifference(kind: .missingColumn, table: table.name, column: column.name))
    }
    for column in stored.columns where !want.contains(column.uppercased()) {
      result.append(StoreLayoutDifference(kind: .extraColumn, table: table.name, column: column))
    }
    return result
  }

  // MARK: - Join tables: adopted where unambiguous

  private func context(of join: JoinTableMapping) -> String {
    let model = schema.model
    let owner = "\(model[join.relationship.entity].name).\(model[join.relationship].name)"
    if join.isReflexive { return "join table of \(owner), its own inverse" }
    guard let inverse = join.inverse else { return "join table of \(owner), which has no inverse" }
    return "join table of \(owner) ⇄ \(model[inverse.entity].name).\(model[inverse].name)"
  }

  /// The store's table for a join table: its own name, else the one unclaimed table named
  /// after its owner or its inverse.
  private mutating func storeTable(for join: JoinTableMapping) -> String? {
    if let found = existing[join.name.uppercased()] { return found.name }
    let model = schema.model
    var stems: [String] = []
    for relationship in [join.relationship] + (join.inverse.map { [$0] } ?? []) {
      guard let number = schema.mapping(forEntityNamed: model[relationship.entity].name)?.entityNumber else {
        continue
      }
      stems.append("Z_\(number)\(model[relationship].name.uppercased())")
    }
    let candidates = existing.keys.filter { key in
      !claimed.contains(key) && stems.contains { Self.sameUpToNumber(key, $0) }
    }
    guard candidates.count == 1, let key = candidates.first else { return nil }
    claimed.insert(key)
    return existing[key]!.name
  }

  private mutating func adopt(_ join: JoinTableMapping) -> (JoinTableMapping, [StoreLayoutDifference]) {
    let about = context(of: join)
    guard let tableName = storeTable(for: join), let stored = existing[tableName.uppercased()] else {
      return (join, [StoreLayoutDifference(kind: .missingTable, table: join.name, context: about)])
    }
    var found: [StoreLayoutDifference] = []
    if tableName != join.name {
      found.append(StoreLayoutDifference(kind: .adoptedTable, table: join.name, storeName: tableName, context: about))
      adopted = true
    }
    let keys = stored.columns.filter { !$0.uppercased().hasPrefix("Z_FOK_") }
    var used: Set<String> = []
    // Exact names first, so that a renamed column can only take what is left.
    for column in [join.sourceColumn, join.destinationColumn] {
      if let exact = keys.first(where: { $0.uppercased() == column.uppercased() }) { used.insert(exact) }
    }
    func resolve(_ column: String) -> String? {
      if let exact = keys.first(where: { $0.uppercased() == column.uppercased() }) { return exact }
      let candidates = keys.filter { !used.contains($0) && Self.sameUpToNumber($0.uppercased(), column.uppercased()) }
      guard candidates.count == 1 else { return nil }
      used.insert(candidates[0])
      return candidates[0]
    }
    var names: [String: String] = [:]
    for column in [join.sourceColumn, join.destinationColumn] {
      if let storeName = resolve(column) {
        names[column] = storeName
        if storeName != column {
          found.append(
            StoreLayoutDifference(
              kind: .adoptedColumn, table: join.name, column: column, storeName: storeName, context: about))
          adopted = true
        }
      } else {
        found.append(StoreLayoutDifference(kind: .missingColumn, table: join.name, column: column, context: about))
      }
    }
    let source = names[join.sourceColumn] ?? join.sourceColumn
    let destination = names[join.destinationColumn] ?? join.destinationColumn
    func order(_ derived: String?, key: String) -> String? {
      guard let derived else { return nil }
      let expected = join.isReflexive && key == destination ? derived : "Z_FOK_" + key.dropFirst(2)
      for candidate in [expected, derived] {
        if let exact = stored.columns.first(where: { $0.uppercased() == candidate.uppercased() }) {
          if exact != derived {
            found.append(
              StoreLayoutDifference(
                kind: .adoptedColumn, table: join.name, column: derived, storeName: exact, context: about))
            adopted = true
          }
          names[derived] = exact
          return exact
        }
      }
      found.append(StoreLayoutDifference(kind: .missingColumn, table: join.name, column: derived, context: about))
      return derived
    }
    let sourceOrder = order(join.sourceOrderColumn, key: source)
    let destinationOrder = order(join.destinationOrderColumn, key: destination)
    let known = Set(names.values.map { $0.uppercased() })
    for column in stored.columns where !known.contains(column.uppercased()) {
      found.append(StoreLayoutDifference(kind: .extraColumn, table: join.name, column: column, context: about))
    }
    let columns = join.table.columns.map { ColumnDefinition(name: names[$0.name] ?? $0.name, type: $0.type) }
    let table = TableDefinition(name: tableName, kind: .join, columns: columns, primaryKey: [source, destination])
    let index = IndexDefinition(
      name: "\(tableName)_\(destination)_INDEX", table: tableName,
      columns: [IndexColumn(column: destination), IndexColumn(column: source)], kind: .joinTable)
    return (
      JoinTableMapping(
        name: tableName, relationship: join.relationship, inverse: join.inverse, isReflexive: join.isReflexive,
        sourceColumn: source, destinationColumn: destination, sourceOrderColumn: sourceOrder,
        destinationOrderColumn: destinationOrder, table: table, index: index),
      found
    )
  }

  /// Whether `name` is `base`, or `base` with a number after it, or the other way round
  /// (`Z_23USERS1` and `Z_23USERS`).
  static func sameUpToNumber(_ name: String, _ base: String) -> Bool {
    func stripped(_ text: String) -> Substring {
      var end = text.endIndex
      while end > text.startIndex, text[text.index(before: end)].isASCII, text[text.index(before: end)].isNumber {
        end = text.index(before: end)
      }
      return text[..<end]
    }
    return stripped(name) == stripped(base) && !stripped(name).isEmpty
  }

  // MARK: - The layout with the store's names

  private func rebuilt(_ renamed: [String: JoinTableMapping]) -> StoreSchema {
    let joinTables = schema.joinTables.map { renamed[$0.name] ?? $0 }
    let entityTables = schema.entityTables.map { table in
      table.kind == .join ? (renamed[table.name]?.table ?? table) : table
    }
    let indexes = schema.indexes.map { index in
      index.kind == .joinTable ? (renamed[index.table]?.index ?? index) : index
    }
    let entities = schema.entities.map { mapping in
      EntityStoreLayout(
        entity: mapping.entity, name: mapping.name, entityNumber: mapping.entityNumber,
        superEntityNumber: mapping.superEntityNumber, rootEntity: mapping.rootEntity, tableName: mapping.tableName,
        isAbstract: mapping.isAbstract, entityNumbersInHierarchy: mapping.entityNumbersInHierarchy,
        attributes: mapping.attributes, toOneRelationships: mapping.toOneRelationships,
        toManyRelationships: mapping.toManyRelationships.map { toMany in
          guard case .joinTable(let columns) = toMany.storage, let join = renamed[columns.table] else { return toMany }
          let old = schema.joinTables.first { $0.name == columns.table }
          func translate(_ name: String) -> String {
            guard let old else { return name }
            if name == old.sourceColumn { return join.sourceColumn }
            if name == old.destinationColumn { return join.destinationColumn }
            if name == old.sourceOrderColumn { return join.sourceOrderColumn ?? name }
            if name == old.destinationOrderColumn { return join.destinationOrderColumn ?? name }
            return name
          }
          return ToManyMapping(
            name: toMany.name, relationship: toMany.relationship, destination: toMany.destination,
            isOrdered: toMany.isOrdered,
            storage: .joinTable(
              .init(
                table: join.name, sourceColumn: translate(columns.sourceColumn),
                destinationColumn: translate(columns.destinationColumn),
                orderColumn: columns.orderColumn.map(translate))))
        })
    }
    return StoreSchema(
      model: schema.model, entities: entities, joinTables: joinTables, primaryKeyRows: schema.primaryKeyRows,
      entityTables: entityTables, structuralIndexes: indexes, entityIndexes: [],
      unsupportedIndexes: schema.unsupportedIndexes)
  }
}
