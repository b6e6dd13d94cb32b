import DataModel

/// Works out a ``StoreSchema`` from a model version, step by step.
///
/// 1. number the entities; 2. give every stored property of each root table its column stem;
/// 3. lay out each root table's columns; 4. lay out the join tables; 5. describe each entity,
/// inherited properties included; 6. derive the indexes. The rules and their evidence are in
/// `docs/store-format.md`.
struct StoreSchemaBuilder {
  /// A property declared on an entity, by its declaring entity's index and its name (for a
  /// composite member, `attribute.member`).
  private struct PropertyKey: Hashable {
    var entity: Int
    var name: String
  }

  /// A stored attribute or composite member, before it gets its column.
  private struct StoredAttribute {
    var name: String
    var attribute: AttributeID
    var type: AttributeType
    var encoding: ValueEncoding
  }

  let model: ModelVersion
  let numbering: EntityNumbering

  private var stems: [PropertyKey: String] = [:]
  private var tableNames: [Int: String] = [:]  // by root entity index
  private var takenTableNames: Set<String> = []
  private var attributeColumns: [PropertyKey: AttributeColumn] = [:]
  private var toOneColumns: [PropertyKey: ToOneColumns] = [:]
  private var rootTables: [Int: TableDefinition] = [:]  // by root entity index
  private var joinTables: [JoinTableMapping] = []
  private var joinColumns: [PropertyKey: ToManyMapping.JoinColumns] = [:]
  /// The join-table column holding each join-table relationship's destinations.
  private var joinKeyColumns: [RelationshipID: String] = [:]
  /// The source column of each to-many without an inverse (`Z_<n><REL>INVERSE`).
  private var inverseKeyColumns: [RelationshipID: String] = [:]

  init(model: ModelVersion) {
    self.model = model
    self.numbering = EntityNumbering(model: model)
  }

  /// The roots in numbering order.
  private var roots: [EntityID] { numbering.roots }

  // MARK: - Building

  mutating func build() -> StoreSchema {
    for root in roots { allocateNames(root) }
    for root in roots { layOutTable(root) }
    layOutJoinTables()
    let entities = model.entities.map { describe($0.id) }
    var unsupported: [UnsupportedIndex] = []
    let structural = structuralIndexes()
    var taken = Set(structural.map { $0.name.uppercased() })
    var entityIndexes: [IndexDefinition] = []
    for id in numbering.order {
      var builder = IndexBuilder(model: model, entity: id, mapping: entities[id.index])
      for index in builder.indexes() {
        if taken.insert(index.name.uppercased()).inserted {
          entityIndexes.append(index)
        } else {
          unsupported.append(
            UnsupportedIndex(entity: id, name: index.name, reason: "another index of the store already has this name"))
        }
      }
      unsupported += builder.unsupported
    }
    var tables: [TableDefinition] = []
    for root in roots {
      guard let table = rootTables[root.index] else { continue }
      tables.append(table)
      let hierarchy = Set(numbering.hierarchy(of: root).map(\.index))
      let owned = joinTables.filter { hierarchy.contains($0.relationship.entity.index) }
      tables += owned.map(\.table)
    }
    let rows = numbering.order.map { id in
      PrimaryKeyRow(
        entityNumber: numbering.number(of: id), name: model[id].name,
        superEntityNumber: model[id].parent.map { numbering.number(of: $0) } ?? 0)
    }
    return StoreSchema(
      model: model, entities: entities, joinTables: joinTables, primaryKeyRows: rows,
      entityTables: tables, structuralIndexes: structural, entityIndexes: entityIndexes,
      unsupportedIndexes: unsupported)
  }

  // MARK: - Step 2: names

  /// The stored attributes an entity declares: composite attributes flattened into their
  /// leaves (``CompositeMembers``), named by key path (`address.street`).
  private func storedAttributes(of id: EntityID) -> [StoredAttribute] {
    var result: [StoredAttribute] = []
    for (index, attribute) in model[id].attributes.enumerated() where attribute.isPersistent {
      let attributeID = AttributeID(entity: id, index: index)
      let leaves =
        attribute.attributeType == .composite ? CompositeMembers.leaves(of: attribute, in: model) : [attribute]
      for leaf in leaves where leaf.isPersistent {
        guard let encoding = ValueEncoding(attribute: leaf) else { continue }
        result.append(
          StoredAttribute(name: leaf.name, attribute: attributeID, type: leaf.attributeType, encoding: encoding))
      }
    }
    return result
  }

  private static func byName(_ lhs: String, _ rhs: String) -> Bool {
    lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
  }

  private mutating func allocateNames(_ root: EntityID) {
    var tableName = "Z" + model[root].name.uppercased()
    var suffix = 0
    while takenTableNames.contains(tableName) {
      suffix += 1
      tableName = "Z" + model[root].name.uppercased() + String(suffix)
    }
    takenTableNames.insert(tableName)
    tableNames[root.index] = tableName

    var allocator = ColumnNameAllocator()
    for id in numbering.hierarchy(of: root) {
      var names = storedAttributes(of: id).map(\.name)
      names += model[id].relationships.filter(\.isPersistent).map(\.name)
      for name in names.sorted(by: Self.byName) {
        let key = PropertyKey(entity: id.index, name: name)
        guard stems[key] == nil else { continue }
        stems[key] = allocator.allocate(name.columnStemName)
      }
    }
  }

  private func stem(_ relationship: RelationshipID) -> String {
    stems[PropertyKey(entity: relationship.entity.index, name: model[relationship].name)]
      ?? model[relationship].name.uppercased()
  }

  // MARK: - Step 3: root tables

  /// Whether a to-one gets a `Z_FOK_` column: its inverse is an ordered to-many.
  private func hasOrderColumn(_ relationship: RelationshipDescription) -> Bool {
    guard let inverse = relationship.inverse else { return false }
    return model[inverse].isToMany && model[inverse].isOrdered && model[inverse].isPersistent
  }

  private mutating func layOutTable(_ root: EntityID) {
    guard let tableName = tableNames[root.index] else { return }
    var columns = [
      ColumnDefinition(name: "Z_PK", type: .integer, isPrimaryKey: true),
      ColumnDefinition(name: "Z_ENT", type: .integer),
      ColumnDefinition(name: "Z_OPT", type: .integer),
    ]
    let hierarchy = numbering.hierarchy(of: root)
    for group in StorageGroup.allCases {
      for id in hierarchy {
        let attributes = storedAttributes(of: id).filter { StorageGroup(attributeType: $0.type) == group }
        for stored in attributes.sorted(by: { Self.byName($0.name, $1.name) }) {
          let key = PropertyKey(entity: id.index, name: stored.name)
          guard let stem = stems[key], let type = ColumnType(attributeType: stored.type) else { continue }
          let column = AttributeColumn(
            name: stored.name, attribute: stored.attribute, column: "Z" + stem, columnType: type,
            attributeType: stored.type, encoding: stored.encoding)
          attributeColumns[key] = column
          columns.append(ColumnDefinition(name: column.column, type: type))
        }
        guard group == .integers else { continue }
        columns += toOneColumns(of: id, table: tableName)
      }
    }
    rootTables[root.index] = TableDefinition(name: tableName, kind: .entity(root: root), columns: columns)
  }

  /// Lays out an entity's own to-ones: foreign keys (each followed by its entity column) by
  /// name, then the ordering columns by name.
  private mutating func toOneColumns(of id: EntityID, table: String) -> [ColumnDefinition] {
    var keys: [ColumnDefinition] = []
    var orders: [ColumnDefinition] = []
    let toOnes = model[id].relationships.enumerated().filter { $0.element.isPersistent && !$0.element.isToMany }
    for (index, relationship) in toOnes.sorted(by: { Self.byName($0.element.name, $1.element.name) }) {
      let key = PropertyKey(entity: id.index, name: relationship.name)
      guard let destination = relationship.destination, let stem = stems[key] else { continue }
      let entityColumn =
        model[destination].subentities.isEmpty ? nil : "Z\(numbering.number(of: destination))_\(stem)"
      let orderColumn = hasOrderColumn(relationship) ? "Z_FOK_" + stem : nil
      toOneColumns[key] = ToOneColumns(
        name: relationship.name, relationship: RelationshipID(entity: id, index: index), destination: destination,
        table: table, foreignKeyColumn: "Z" + stem, entityColumn: entityColumn, orderColumn: orderColumn)
      keys.append(ColumnDefinition(name: "Z" + stem, type: .integer))
      if let entityColumn { keys.append(ColumnDefinition(name: entityColumn, type: .integer)) }
      if let orderColumn { orders.append(ColumnDefinition(name: orderColumn, type: .integer)) }
    }
    return keys + orders
  }

  // MARK: - Step 4: join tables

  /// Whether a to-many is stored in a join table: its inverse is missing or to-many.
  private func usesJoinTable(_ relationship: RelationshipDescription) -> Bool {
    guard relationship.isToMany, relationship.isPersistent, relationship.destination != nil else { return false }
    guard let inverse = relationship.inverse, model[inverse].isPersistent else { return true }
    return model[inverse].isToMany
  }

  /// The persistent inverse of a relationship, if any.
  private func persistentInverse(of relationship: RelationshipDescription) -> RelationshipID? {
    guard let inverse = relationship.inverse, model[inverse].isPersistent else { return nil }
    return inverse
  }

  /// Owners are found, and join columns named, in Core Data's visiting order: entities in
  /// numbering order, each entity's relationships in ``JoinTableOwnership/visitingOrder(of:in:)``.
  /// Tables are then created per owning entity in name order (`docs/store-format.md` §5).
  private mutating func layOutJoinTables() {
    var owners: [RelationshipID] = []
    var visits: [RelationshipID] = []
    for id in numbering.order {
      let order = JoinTableOwnership.visitingOrder(of: id, in: model)
      let relationships = model[id].relationships.enumerated().filter { usesJoinTable($0.element) }
      let visited = relationships.sorted {
        (order[$0.element.name] ?? Int.max, $0.offset) < (order[$1.element.name] ?? Int.max, $1.offset)
      }
      visits += visited.map { RelationshipID(entity: id, index: $0.offset) }
      for (index, relationship) in relationships.sorted(by: { Self.byName($0.element.name, $1.element.name) }) {
        let relationshipID = RelationshipID(entity: id, index: index)
        if let inverse = persistentInverse(of: relationship), inverse != relationshipID,
          !JoinTableOwnership.owns(relationshipID, over: inverse, in: model, visitingOrder: order)
        {
          continue
        }
        owners.append(relationshipID)
      }
    }
    nameJoinColumns(visits)
    for owner in owners { addJoinTable(owner) }
  }

  /// Names the key columns of every join table, unique across the store.
  ///
  /// A key column is named after the relationship whose destinations it holds:
  /// `Z_<destination number><stem>`. Core Data names the columns holding an entity's objects
  /// while it visits that entity's own relationships, and a name already given gets the next
  /// number: a `User` whose `reactions` and `systemMessages` both have an inverse `users` holds
  /// `Z_23USERS` in one join table and `Z_23USERS1` in the other (a real store; the index is
  /// `Z_15USERS_Z_23USERS1_INDEX`). A to-many without an inverse names both of its columns when
  /// it is visited.
  private mutating func nameJoinColumns(_ visits: [RelationshipID]) {
    var taken: Set<String> = []
    func allocate(_ base: String) -> String {
      var name = base
      var suffix = 0
      while taken.contains(name) {
        suffix += 1
        name = base + String(suffix)
      }
      taken.insert(name)
      return name
    }
    for visited in visits {
      let relationship = model[visited]
      if let inverse = persistentInverse(of: relationship), inverse != visited {
        guard joinKeyColumns[inverse] == nil, let destination = model[inverse].destination else { continue }
        joinKeyColumns[inverse] = allocate("Z_\(numbering.number(of: destination))\(stem(inverse))")
      } else if let destination = relationship.destination {
        if persistentInverse(of: relationship) == nil {
          inverseKeyColumns[visited] = allocate("Z_\(numbering.number(of: visited.entity))\(stem(visited))INVERSE")
        }
        if joinKeyColumns[visited] == nil {
          joinKeyColumns[visited] = allocate("Z_\(numbering.number(of: destination))\(stem(visited))")
        }
      }
    }
  }

  private mutating func addJoinTable(_ owner: RelationshipID) {
    let relationship = model[owner]
    guard let destination = relationship.destination else { return }
    let inverse = persistentInverse(of: relationship)
    let isReflexive = inverse == owner
    var name = "Z_\(numbering.number(of: owner.entity))\(relationship.name.uppercased())"
    var suffix = 0
    while takenTableNames.contains(name) {
      suffix += 1
      name = "Z_\(numbering.number(of: owner.entity))\(relationship.name.uppercased())\(suffix)"
    }
    takenTableNames.insert(name)

    let sourceColumn: String
    var destinationColumn = joinKeyColumns[owner] ?? "Z_\(numbering.number(of: destination))\(stem(owner))"
    var destinationOrder = relationship.isOrdered ? "Z_FOK_" + destinationColumn.dropFirst(2) : nil
    var sourceOrder: String?
    if isReflexive {
      sourceColumn = destinationColumn
      destinationColumn = "REFLEXIVE"
      destinationOrder = relationship.isOrdered ? "Z_FOK_REFLEXIVE" : nil
    } else if let inverse, let column = joinKeyColumns[inverse] {
      sourceColumn = column
      sourceOrder = model[inverse].isOrdered ? "Z_FOK_" + sourceColumn.dropFirst(2) : nil
    } else {
      sourceColumn = inverseKeyColumns[owner] ?? "Z_\(numbering.number(of: owner.entity))\(stem(owner))INVERSE"
    }

    var columns = [
      ColumnDefinition(name: sourceColumn, type: .integer),
      ColumnDefinition(name: destinationColumn, type: .integer),
    ]
    if let sourceOrder { columns.append(ColumnDefinition(name: sourceOrder, type: .integer)) }
    if let destinationOrder { columns.append(ColumnDefinition(name: destinationOrder, type: .integer)) }
    let table = TableDefinition(
      name: name, kind: .join, columns: columns, primaryKey: [sourceColumn, destinationColumn])
    let index = IndexDefinition(
      name: "\(name)_\(destinationColumn)_INDEX", table: name,
      columns: [IndexColumn(column: destinationColumn), IndexColumn(column: sourceColumn)], kind: .joinTable)
    joinTables.append(
      JoinTableMapping(
        name: name, relationship: owner, inverse: isReflexive ? nil : inverse, isReflexive: isReflexive,
        sourceColumn: sourceColumn, destinationColumn: destinationColumn, sourceOrderColumn: sourceOrder,
        destinationOrderColumn: destinationOrder, table: table, index: index))
    joinColumns[PropertyKey(entity: owner.entity.index, name: relationship.name)] = ToManyMapping.JoinColumns(
      table: name, sourceColumn: sourceColumn, destinationColumn: destinationColumn, orderColumn: destinationOrder)
    if let inverse, !isReflexive {
      joinColumns[PropertyKey(entity: inverse.entity.index, name: model[inverse].name)] = ToManyMapping.JoinColumns(
        table: name, sourceColumn: destinationColumn, destinationColumn: sourceColumn, orderColumn: sourceOrder)
    }
  }

  // MARK: - Step 5: entities

  private func describe(_ id: EntityID) -> EntityStoreLayout {
    let root = numbering.root(of: id)
    let lineage = model.ancestors(of: id).reversed() + [id]
    var attributes: [String: AttributeColumn] = [:]
    var toOnes: [String: ToOneColumns] = [:]
    var toManys: [String: ToManyMapping] = [:]
    for entity in lineage {
      for stored in storedAttributes(of: entity) {
        if let column = attributeColumns[PropertyKey(entity: entity.index, name: stored.name)] {
          attributes[stored.name] = column
        }
      }
      for (index, relationship) in model[entity].relationships.enumerated() where relationship.isPersistent {
        let key = PropertyKey(entity: entity.index, name: relationship.name)
        if !relationship.isToMany {
          toOnes[relationship.name] = toOneColumns[key]
        } else if let mapping = toMany(relationship, id: RelationshipID(entity: entity, index: index), key: key) {
          toManys[relationship.name] = mapping
        }
      }
    }
    let table = rootTables[root.index]
    let position = Dictionary(
      (table?.columns ?? []).enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { first, _ in first })
    let orderedAttributes = attributes.values.sorted {
      (position[$0.column] ?? Int.max, $0.name) < (position[$1.column] ?? Int.max, $1.name)
    }
    return EntityStoreLayout(
      entity: id, name: model[id].name, entityNumber: numbering.number(of: id),
      superEntityNumber: model[id].parent.map { numbering.number(of: $0) } ?? 0, rootEntity: root,
      tableName: tableNames[root.index] ?? "Z" + model[root].name.uppercased(), isAbstract: model[id].isAbstract,
      entityNumbersInHierarchy: numbering.hierarchy(of: id).map { numbering.number(of: $0) },
      attributes: orderedAttributes,
      toOneRelationships: toOnes.values.sorted { Self.byName($0.name, $1.name) },
      toManyRelationships: toManys.values.sorted { Self.byName($0.name, $1.name) })
  }

  private func toMany(_ relationship: RelationshipDescription, id: RelationshipID, key: PropertyKey) -> ToManyMapping? {
    guard let destination = relationship.destination else { return nil }
    let storage: ToManyMapping.Storage
    if let join = joinColumns[key] {
      storage = .joinTable(join)
    } else if let inverse = persistentInverse(of: relationship), !model[inverse].isToMany,
      let columns = toOneColumns[PropertyKey(entity: inverse.entity.index, name: model[inverse].name)]
    {
      storage = .inverseForeignKey(
        ToManyMapping.InverseForeignKey(
          table: columns.table, inverseName: columns.name, foreignKeyColumn: columns.foreignKeyColumn,
          entityColumn: columns.entityColumn, orderColumn: columns.orderColumn))
    } else {
      return nil
    }
    return ToManyMapping(
      name: relationship.name, relationship: id, destination: destination, isOrdered: relationship.isOrdered,
      storage: storage)
  }

  // MARK: - Step 6: indexes Core Data adds itself

  /// Per table, in table order: an index on each to-one foreign key of a root table (in column
  /// order; entity and ordering columns get none), and a join table's secondary index.
  private func structuralIndexes() -> [IndexDefinition] {
    var result: [IndexDefinition] = []
    for root in roots {
      guard let table = rootTables[root.index] else { continue }
      let foreignKeys = Set(toOneColumns.values.filter { $0.table == table.name }.map(\.foreignKeyColumn))
      for column in table.columns where foreignKeys.contains(column.name) {
        result.append(
          IndexDefinition(
            name: "\(table.name)_\(column.name)_INDEX", table: table.name, columns: [IndexColumn(column: column.name)],
            kind: .foreignKey))
      }
      let hierarchy = Set(numbering.hierarchy(of: root).map(\.index))
      result += joinTables.filter { hierarchy.contains($0.relationship.entity.index) }.map(\.index)
    }
    return result
  }
}

extension String {
  /// The name a property's column is named after: the property's own name, or for a composite
  /// leaf (`address.location.lat`) the leaf's name alone (`lat` → `ZLAT`), numbered like any
  /// other name when taken [unverified: reported from a decompilation of Core Data, not seen in
  /// a real store].
  fileprivate var columnStemName: String {
    guard let dot = lastIndex(of: ".") else { return self }
    return String(self[index(after: dot)...])
  }
}
