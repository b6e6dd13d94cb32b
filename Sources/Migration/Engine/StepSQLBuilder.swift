import DataModel
import Foundation
import Persistence
import SQLite

/// Turns one migration step (a mapping model between two versions) into the SQL that moves a
/// store in Core Data's layout from the source layout to the destination layout.
///
/// Tables whose rows need no rewriting change in place with `ALTER TABLE` (new columns, renamed
/// columns or tables); every other table is rebuilt with SQLite's documented procedure — a new
/// table, `INSERT INTO … SELECT` from the old one(s), drop, rename — keeping every primary key
/// (shifted only when two old tables merge into one hierarchy) and every relationship: links are
/// read from wherever the old layout kept them (a foreign key, the inverse's foreign key, a join
/// table) and written where the new layout keeps them. Indexes are dropped and created only
/// where they differ.
struct StepSQLBuilder {
  let source: ModelVersion
  let destination: ModelVersion
  let mapping: MappingModel
  let sourceSchema: StoreSchema
  let destinationSchema: StoreSchema
  /// Indexes present in the store: name → SQL text.
  let existingIndexes: [String: String]

  /// Source entity feeding each destination entity (by index).
  let sourceOf: [Int: EntityID]
  /// The entity mapping of each destination entity (by index).
  let mappingOf: [Int: MappingModel.EntityMapping]

  init(
    source: ModelVersion, destination: ModelVersion, mapping: MappingModel, existingIndexes: [String: String]
  ) {
    self.source = source
    self.destination = destination
    self.mapping = mapping
    self.sourceSchema = StoreSchema(model: source)
    self.destinationSchema = StoreSchema(model: destination)
    self.existingIndexes = existingIndexes
    var sourceOf: [Int: EntityID] = [:]
    var mappingOf: [Int: MappingModel.EntityMapping] = [:]
    for entityMapping in mapping.entityMappings {
      guard let destinationName = entityMapping.destinationEntity,
        let destinationID = destination.entityID(named: destinationName)
      else { continue }
      mappingOf[destinationID.index] = entityMapping
      if let sourceName = entityMapping.sourceEntity, let sourceID = source.entityID(named: sourceName),
        entityMapping.kind == .copy || entityMapping.kind == .transform
      {
        sourceOf[destinationID.index] = sourceID
      }
    }
    self.sourceOf = sourceOf
    self.mappingOf = mappingOf
  }

  // MARK: - Expressions

  /// A column value for the rows of one source entity.
  enum ColumnValue: Equatable {
    case null
    /// A column of the source row, unchanged.
    case column(String)
    /// Any other SQL (may reference the source row as `t`).
    case sql(SQLiteSQL)

    var isPlainColumn: Bool {
      if case .column = self { return true }
      return false
    }
  }

  /// How one destination table is filled from one source table.
  struct TableFeed {
    var sourceTable: String
    /// Source entity number → destination entity number, for the rows copied.
    var entityNumbers: [(source: Int, destination: Int)]
    /// The primary-key shift of these rows (SQL), nil for none.
    var keyOffset: SQLiteSQL?
    /// Per destination column: value per source entity number.
    var values: [String: [Int: ColumnValue]]
    /// Whether some value needs the whole table at once (window functions).
    var needsWholeTable: Bool
  }

  /// Source root table of an entity.
  func sourceTable(of entity: EntityID) -> String { sourceSchema[entity].tableName }

  /// The SQL that shifts primary keys of rows coming from `table` into destination table
  /// `destinationTable` (nil when there is nothing to shift).
  func keyOffset(sourceTable table: String, destinationTable: String) -> SQLiteSQL? {
    let feeding = sourceTables(feeding: destinationTable)
    guard let position = feeding.firstIndex(of: table), position > 0 else { return nil }
    let parts = feeding[..<position].map { "(SELECT IFNULL(MAX(Z_PK), 0) FROM \(SQLiteIdentifier.quote($0)))" }
    return SQLiteSQL(verbatim: "(" + parts.joined(separator: " + ") + ")")
  }

  /// The source tables whose rows end up in a destination table, in a stable order.
  func sourceTables(feeding destinationTable: String) -> [String] {
    var tables: [String] = []
    for (index, entity) in destination.entities.enumerated()
    where destinationSchema[EntityID(index)].tableName == destinationTable {
      _ = entity
      if let sourceEntity = sourceOf[index] {
        let table = sourceTable(of: sourceEntity)
        if !tables.contains(table) { tables.append(table) }
      }
    }
    // Keep the destination's own-named source first, so the common case shifts nothing.
    if let own = tables.firstIndex(of: destinationTable), own > 0 {
      tables.insert(tables.remove(at: own), at: 0)
    }
    return tables
  }

  /// `expression + offset`, or the expression alone.
  func shifted(_ expression: String, by offset: SQLiteSQL?) -> SQLiteSQL {
    guard let offset else { return SQLiteSQL(verbatim: expression) }
    var sql = SQLiteSQL(verbatim: "(\(expression) + ")
    sql += offset
    sql += ")"
    return sql
  }

  /// The offset applied to keys of rows of `sourceEntity` (any entity of a source hierarchy)
  /// once they land in the destination table of `destinationEntity`'s hierarchy.
  func offset(forRowsOf sourceEntity: EntityID, landingIn destinationEntity: EntityID) -> SQLiteSQL? {
    keyOffset(
      sourceTable: sourceTable(of: sourceEntity), destinationTable: destinationSchema[destinationEntity].tableName)
  }

  // MARK: - Links

  /// The links of a source relationship as a subquery yielding (s, d, os, od): source key,
  /// destination key, order of d among s's objects, order of s among d's objects.
  func links(of relationshipName: String, on sourceEntity: EntityID) throws -> SQLiteSQL? {
    let mapping = sourceSchema[sourceEntity]
    let numbers = mapping.entityNumbersInHierarchy.map(String.init).joined(separator: ", ")
    if let toOne = mapping.toOne(named: relationshipName) {
      let order = toOne.orderColumn.map { "x.\(SQLiteIdentifier.quote($0))" } ?? "NULL"
      return SQLiteSQL(
        verbatim:
          "SELECT x.Z_PK AS s, x.\(SQLiteIdentifier.quote(toOne.foreignKeyColumn)) AS d, NULL AS os, \(order) AS od FROM \(SQLiteIdentifier.quote(toOne.table)) AS x WHERE x.\(SQLiteIdentifier.quote(toOne.foreignKeyColumn)) IS NOT NULL AND x.Z_ENT IN (\(numbers))"
      )
    }
    guard let toMany = mapping.toMany(named: relationshipName) else { return nil }
    switch toMany.storage {
    case .inverseForeignKey(let key):
      let order = key.orderColumn.map { "x.\(SQLiteIdentifier.quote($0))" } ?? "NULL"
      return SQLiteSQL(
        verbatim:
          "SELECT x.\(SQLiteIdentifier.quote(key.foreignKeyColumn)) AS s, x.Z_PK AS d, \(order) AS os, NULL AS od FROM \(SQLiteIdentifier.quote(key.table)) AS x WHERE x.\(SQLiteIdentifier.quote(key.foreignKeyColumn)) IS NOT NULL"
      )
    case .joinTable(let join):
      guard let table = sourceSchema.joinTables.first(where: { $0.name == join.table }) else { return nil }
      let ownOrder = join.orderColumn.map { "j.\(SQLiteIdentifier.quote($0))" } ?? "NULL"
      let isOwnerSide = join.sourceColumn == table.sourceColumn
      let otherOrderColumn = isOwnerSide ? table.sourceOrderColumn : table.destinationOrderColumn
      let otherOrder = otherOrderColumn.map { "j.\(SQLiteIdentifier.quote($0))" } ?? "NULL"
      return SQLiteSQL(
        verbatim:
          "SELECT j.\(SQLiteIdentifier.quote(join.sourceColumn)) AS s, j.\(SQLiteIdentifier.quote(join.destinationColumn)) AS d, \(ownOrder) AS os, \(otherOrder) AS od FROM \(SQLiteIdentifier.quote(join.table)) AS j"
      )
    }
  }

  /// The source relationship a destination relationship is mapped from, if any.
  func sourceRelationship(of relationshipName: String, on destinationEntity: EntityID) -> (EntityID, String)? {
    guard let entityMapping = mappingOf[destinationEntity.index], let sourceEntity = sourceOf[destinationEntity.index]
    else { return nil }
    // A sub-entity's mapping carries the inherited relationships too.
    guard let call = entityMapping.propertyMapping(for: relationshipName)?.value?.destinationInstances,
      let sourceName = call.sourceRelationship
    else { return nil }
    return (sourceEntity, sourceName)
  }

  /// Links of a destination relationship as (s, d, os, od) in destination terms, with keys
  /// shifted, from its own mapping or reversed from its inverse's.
  func destinationLinks(of relationship: RelationshipDescription, on entity: EntityID) throws -> SQLiteSQL? {
    guard let destinationEntity = relationship.destination else { return nil }
    if let (sourceEntity, sourceName) = sourceRelationship(of: relationship.name, on: entity),
      let raw = try links(of: sourceName, on: sourceEntity),
      let sourceDestination = source.relationship(named: sourceName, in: sourceEntity)?.relationship.destination
    {
      return shiftLinks(
        raw, sOffset: offset(forRowsOf: sourceEntity, landingIn: entity),
        dOffset: offset(forRowsOf: sourceDestination, landingIn: destinationEntity), reversed: false)
    }
    if let inverseName = relationship.inverseName,
      let (sourceEntity, sourceName) = sourceRelationship(of: inverseName, on: destinationEntity),
      let raw = try links(of: sourceName, on: sourceEntity),
      let sourceDestination = source.relationship(named: sourceName, in: sourceEntity)?.relationship.destination
    {
      return shiftLinks(
        raw, sOffset: offset(forRowsOf: sourceDestination, landingIn: entity),
        dOffset: offset(forRowsOf: sourceEntity, landingIn: destinationEntity), reversed: true)
    }
    return nil
  }

  func shiftLinks(_ raw: SQLiteSQL, sOffset: SQLiteSQL?, dOffset: SQLiteSQL?, reversed: Bool) -> SQLiteSQL {
    var sql: SQLiteSQL = "SELECT "
    let (s, d, os, od) = reversed ? ("l.d", "l.s", "l.od", "l.os") : ("l.s", "l.d", "l.os", "l.od")
    sql += shifted(s, by: sOffset)
    sql += " AS s, "
    sql += shifted(d, by: dOffset)
    sql += SQLiteSQL(verbatim: " AS d, \(os) AS os, \(od) AS od FROM (")
    sql += raw
    sql += ") AS l"
    return sql
  }
}
