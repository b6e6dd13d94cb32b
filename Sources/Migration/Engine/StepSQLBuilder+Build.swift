import DataModel
import Foundation
import Persistence
import SQLite

extension StepSQLBuilder {
  /// The SQL of a step and what to verify afterwards.
  struct StepSQL {
    var operations: [MigrationOperation]
    /// Destination tables whose rows were copied (their integrity and counts are checked).
    var rebuiltTables: Set<String>
    /// For the rows copied: source table and entity number → destination entity number.
    var copiedEntities: [(sourceTable: String, sourceNumber: Int, destinationTable: String, destinationNumber: Int)]
  }

  /// The operations of the step, in the order they must run.
  func build() throws -> StepSQL {
    var early: [MigrationOperation] = []  // index drops
    var copies: [MigrationOperation] = []  // reads of the old tables
    var drops: [MigrationOperation] = []
    var inPlace: [MigrationOperation] = []
    var renames: [MigrationOperation] = []
    var late: [MigrationOperation] = []

    var keptTables = Set<String>()  // source tables changed in place (their final names below)
    var finalNameOfKept: [String: String] = [:]
    var rebuiltTables = Set<String>()
    var copied: [(sourceTable: String, sourceNumber: Int, destinationTable: String, destinationNumber: Int)] = []

    // Entity tables.
    for mapping in destinationSchema.entities where mapping.isRoot {
      guard let table = destinationSchema.table(named: mapping.tableName) else { continue }
      let feeds = try feeds(for: table, root: mapping.entity)
      if let plan = inPlacePlan(for: table, root: mapping.entity, feeds: feeds) {
        keptTables.insert(plan.sourceTable)
        finalNameOfKept[plan.sourceTable] = table.name
        inPlace += plan.operations
        if plan.sourceTable != table.name {
          renames.append(
            MigrationOperation(
              kind: .renameTable, summary: "rename table \(plan.sourceTable) to \(table.name)",
              sql: SQLiteSQL(
                verbatim:
                  "ALTER TABLE \(SQLiteIdentifier.quote(plan.sourceTable)) RENAME TO \(SQLiteIdentifier.quote(table.name))"
              ))
          )
        }
        late += entityColumnFixes(for: mapping.entity, table: table, onlyWhereNeeded: feeds)
        continue
      }
      rebuiltTables.insert(table.name)
      let temporary = "_MODELC_NEW_\(table.name)"
      let temporaryTable = TableDefinition(
        name: temporary, kind: table.kind, columns: table.columns, primaryKey: table.primaryKey)
      copies.append(
        MigrationOperation(
          kind: .createTable, summary: "create table \(table.name) in the new layout",
          sql: SQLiteSQL(verbatim: temporaryTable.createStatement())))
      for feed in feeds {
        copies.append(copyOperation(feed, into: temporary, table: table))
        for pair in feed.entityNumbers {
          copied.append((feed.sourceTable, pair.source, table.name, pair.destination))
        }
      }
      renames.append(
        MigrationOperation(
          kind: .renameTable, summary: "put the new \(table.name) in place",
          sql: SQLiteSQL(
            verbatim: "ALTER TABLE \(SQLiteIdentifier.quote(temporary)) RENAME TO \(SQLiteIdentifier.quote(table.name))"
          )))
      late += entityColumnFixes(for: mapping.entity, table: table, onlyWhereNeeded: nil)
    }

    // Join tables.
    for join in destinationSchema.joinTables {
      if let kept = unchangedJoinTable(join) {
        keptTables.insert(kept)
        finalNameOfKept[kept] = join.name
        continue
      }
      rebuiltTables.insert(join.name)
      let temporary = "_MODELC_NEW_\(join.name)"
      let table = join.table
      copies.append(
        MigrationOperation(
          kind: .createTable, summary: "create join table \(join.name)",
          sql: SQLiteSQL(
            verbatim: TableDefinition(
              name: temporary, kind: table.kind, columns: table.columns, primaryKey: table.primaryKey
            )
            .createStatement())))
      if let copy = try joinCopyOperation(join, into: temporary) { copies.append(copy) }
      renames.append(
        MigrationOperation(
          kind: .renameTable, summary: "put the new \(join.name) in place",
          sql: SQLiteSQL(
            verbatim: "ALTER TABLE \(SQLiteIdentifier.quote(temporary)) RENAME TO \(SQLiteIdentifier.quote(join.name))")
        ))
      late.append(danglingLinkCleanup(join))
    }

    // Old tables not kept in place.
    var oldTables: [String] = []
    for mapping in sourceSchema.entities where mapping.isRoot { oldTables.append(mapping.tableName) }
    for join in sourceSchema.joinTables { oldTables.append(join.name) }
    for table in oldTables where !keptTables.contains(table) {
      drops.append(
        MigrationOperation(
          kind: .dropTable, summary: "drop the old table \(table)",
          sql: SQLiteSQL(verbatim: "DROP TABLE IF EXISTS \(SQLiteIdentifier.quote(table))")))
    }

    // Indexes: keep those that are identical on tables changed in place, drop the rest first,
    // create what is missing last.
    let wanted = Dictionary(
      destinationSchema.indexes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var kept = Set<String>()
    for (name, sql) in existingIndexes.sorted(by: { $0.key < $1.key }) {
      if let index = wanted[name], !rebuiltTables.contains(index.table),
        Self.normalize(index.createStatement()) == Self.normalize(sql)
      {
        kept.insert(name)
        continue
      }
      early.append(
        MigrationOperation(
          kind: .dropIndex, summary: "drop index \(name)",
          sql: SQLiteSQL(verbatim: "DROP INDEX IF EXISTS \(SQLiteIdentifier.quote(name))")))
    }
    for index in destinationSchema.indexes where !kept.contains(index.name) {
      late.append(
        MigrationOperation(
          kind: .createIndex, summary: "create index \(index.name)", sql: SQLiteSQL(verbatim: index.createStatement())))
    }
    return StepSQL(
      operations: early + copies + drops + inPlace + renames + late, rebuiltTables: rebuiltTables,
      copiedEntities: copied)
  }

  static func normalize(_ sql: String) -> String {
    sql.lowercased().split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).joined(separator: " ")
      .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
  }

  // MARK: - Copies

  func copyOperation(_ feed: TableFeed, into temporary: String, table: TableDefinition) -> MigrationOperation {
    var columns: [String] = []
    var selects: [SQLiteSQL] = []
    for column in table.columns {
      columns.append(SQLiteIdentifier.quote(column.name))
      if column.name == "Z_ENT" {
        let cases = feed.entityNumbers.map { "WHEN \($0.source) THEN \($0.destination)" }.joined(separator: " ")
        selects.append(SQLiteSQL(verbatim: "CASE t.Z_ENT \(cases) END"))
        continue
      }
      selects.append(expression(for: feed.values[column.name] ?? [:], entityNumbers: feed.entityNumbers.map(\.source)))
    }
    var sql = SQLiteSQL(
      verbatim: "INSERT INTO \(SQLiteIdentifier.quote(temporary)) (\(columns.joined(separator: ", "))) SELECT ")
    sql += selects.joined(separator: ", ")
    sql += SQLiteSQL(
      verbatim:
        " FROM \(SQLiteIdentifier.quote(feed.sourceTable)) AS t WHERE t.Z_ENT IN (\(feed.entityNumbers.map { String($0.source) }.joined(separator: ", ")))"
    )
    return MigrationOperation(
      kind: .copyRows, summary: "copy the rows of \(feed.sourceTable) into the new \(table.name)", sql: sql,
      chunkedSourceTable: feed.needsWholeTable ? nil : feed.sourceTable)
  }

  /// One SELECT expression from per-entity values: the value itself when all entities agree,
  /// else a CASE on the source entity.
  func expression(for values: [Int: ColumnValue], entityNumbers: [Int]) -> SQLiteSQL {
    func render(_ value: ColumnValue) -> SQLiteSQL {
      switch value {
      case .null: return "NULL"
      case .column(let name): return SQLiteSQL(verbatim: "t.\(SQLiteIdentifier.quote(name))")
      case .sql(let sql): return sql
      }
    }
    let defined = entityNumbers.compactMap { number in values[number].map { (number, $0) } }
    if defined.count == entityNumbers.count, let first = defined.first?.1, defined.allSatisfy({ $0.1 == first }) {
      return render(first)
    }
    if defined.isEmpty { return "NULL" }
    var sql: SQLiteSQL = "CASE t.Z_ENT"
    for (number, value) in defined {
      sql += SQLiteSQL(verbatim: " WHEN \(number) THEN ")
      sql += render(value)
    }
    sql += " ELSE NULL END"
    return sql
  }

  func joinCopyOperation(_ join: JoinTableMapping, into temporary: String) throws -> MigrationOperation? {
    let owner = destination[join.relationship]
    guard let links = try destinationLinks(of: owner, on: join.relationship.entity) else { return nil }
    var columns = [join.sourceColumn, join.destinationColumn]
    var selects = ["l.s", "l.d"]
    if let order = join.destinationOrderColumn {
      columns.append(order)
      selects.append("COALESCE(l.os, ROW_NUMBER() OVER (PARTITION BY l.s ORDER BY l.d))")
    }
    if let order = join.sourceOrderColumn {
      columns.append(order)
      selects.append("COALESCE(l.od, ROW_NUMBER() OVER (PARTITION BY l.d ORDER BY l.s))")
    }
    var sql = SQLiteSQL(
      verbatim:
        "INSERT OR IGNORE INTO \(SQLiteIdentifier.quote(temporary)) (\(columns.map(SQLiteIdentifier.quote).joined(separator: ", "))) SELECT \(selects.joined(separator: ", ")) FROM ("
    )
    sql += links
    sql += ") AS l WHERE l.s IS NOT NULL AND l.d IS NOT NULL"
    return MigrationOperation(kind: .copyRows, summary: "copy the links of \(join.name)", sql: sql)
  }

  /// Removes links whose objects did not survive (their entity was removed).
  func danglingLinkCleanup(_ join: JoinTableMapping) -> MigrationOperation {
    let owner = destinationSchema[join.relationship.entity]
    let target = destination[join.relationship].destination.map { destinationSchema[$0] } ?? owner
    return MigrationOperation(
      kind: .check, summary: "drop links of \(join.name) to objects that no longer exist",
      sql: SQLiteSQL(
        verbatim:
          "DELETE FROM \(SQLiteIdentifier.quote(join.name)) WHERE \(SQLiteIdentifier.quote(join.sourceColumn)) NOT IN (SELECT Z_PK FROM \(SQLiteIdentifier.quote(owner.tableName))) OR \(SQLiteIdentifier.quote(join.destinationColumn)) NOT IN (SELECT Z_PK FROM \(SQLiteIdentifier.quote(target.tableName)))"
      ))
  }

  /// Sets entity-number columns of to-ones from the destination rows they point at.
  func entityColumnFixes(for root: EntityID, table: TableDefinition, onlyWhereNeeded feeds: [TableFeed]?)
    -> [MigrationOperation]
  {
    var operations: [MigrationOperation] = []
    var done = Set<String>()
    for entity in [root] + destination.descendants(of: root) {
      for toOne in destinationSchema[entity].toOneRelationships {
        guard let entityColumn = toOne.entityColumn, done.insert(entityColumn).inserted else { continue }
        if let feeds,
          feeds.allSatisfy({ feed in
            (feed.values[entityColumn] ?? [:]).values.allSatisfy { $0 == .column(entityColumn) }
          })
        {
          continue
        }
        let target = destinationSchema[toOne.destination].tableName
        operations.append(
          MigrationOperation(
            kind: .fixEntityColumn, summary: "set \(table.name).\(entityColumn) from the objects it points at",
            sql: SQLiteSQL(
              verbatim:
                "UPDATE \(SQLiteIdentifier.quote(table.name)) SET \(SQLiteIdentifier.quote(entityColumn)) = (SELECT x.Z_ENT FROM \(SQLiteIdentifier.quote(target)) AS x WHERE x.Z_PK = \(SQLiteIdentifier.quote(table.name)).\(SQLiteIdentifier.quote(toOne.foreignKeyColumn)))"
            )))
      }
    }
    return operations
  }

  /// The source join table that can stay as it is for a destination join table, if any.
  func unchangedJoinTable(_ join: JoinTableMapping) -> String? {
    guard let old = sourceSchema.joinTables.first(where: { $0.name == join.name }),
      old.table.columns == join.table.columns,
      let (sourceEntity, sourceName) = sourceRelationship(
        of: destination[join.relationship].name, on: join.relationship.entity),
      let oldOwner = source.relationship(named: sourceName, in: sourceEntity)?.id, oldOwner == old.relationship,
      keyOffset(
        sourceTable: sourceTable(of: sourceEntity),
        destinationTable: destinationSchema[join.relationship.entity].tableName)
        == nil,
      let target = destination[join.relationship].destination,
      let sourceTarget = source[oldOwner].destination,
      offset(forRowsOf: sourceTarget, landingIn: target) == nil
    else { return nil }
    return old.name
  }
}
