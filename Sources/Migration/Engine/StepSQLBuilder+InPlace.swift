import DataModel
import Persistence
import SQLite

extension StepSQLBuilder {
  /// A destination table that the source table becomes with `ALTER TABLE` alone.
  struct InPlacePlan {
    var sourceTable: String
    var operations: [MigrationOperation]
  }

  /// The in-place plan for a destination entity table, when its rows need no rewriting: one
  /// source table, the same entity numbers and keys, every old column kept (or renamed) with
  /// its type, and new columns holding nil or a constant.
  func inPlacePlan(for table: TableDefinition, root: EntityID, feeds: [TableFeed]) -> InPlacePlan? {
    guard feeds.count == 1, let feed = feeds.first, feed.keyOffset == nil, !feed.needsWholeTable,
      feed.entityNumbers.allSatisfy({ $0.source == $0.destination }),
      let sourceTable = sourceSchema.table(named: feed.sourceTable)
    else { return nil }
    // Every entity stored in the source table either lands here or was removed.
    let fed = Set(feed.entityNumbers.map(\.source))
    var removedNumbers: [Int] = []
    for mapping in sourceSchema.entities where mapping.tableName == feed.sourceTable {
      if fed.contains(mapping.entityNumber) { continue }
      let isMappedElsewhere = sourceOf.values.contains(mapping.entity)
      if isMappedElsewhere { return nil }
      removedNumbers.append(mapping.entityNumber)
    }
    // The source table must not be needed by another destination table's rebuild.
    if sourceTables(feeding: table.name) != [feed.sourceTable] { return nil }

    let structural: Set<String> = ["Z_PK", "Z_ENT", "Z_OPT"]
    let sourceColumns = Dictionary(sourceTable.columns.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    let destinationNames = Set(table.columns.map(\.name))
    var accounted = Set<String>()
    var renames: [(from: String, to: String)] = []
    var additions: [(column: ColumnDefinition, constants: [(number: Int, value: SQLiteSQL)])] = []

    for column in table.columns where !structural.contains(column.name) {
      let values = feed.values[column.name] ?? [:]
      let distinct = Set(
        values.values.map { value -> String in
          switch value {
          case .null: return "null"
          case .column(let name): return "column:\(name)"
          case .sql(let sql): return "sql:\(sql.text)|\(sql.arguments)"
          }
        })
      if distinct.count == 1, case .column(let name)? = values.values.first {
        guard let sourceColumn = sourceColumns[name], sourceColumn.type == column.type else { return nil }
        // The column must belong to exactly the entities that read it.
        let owners = Set(
          sourceSchema.entities.filter { $0.tableName == feed.sourceTable && columnNames(of: $0).contains(name) }.map(
            \.entityNumber)
        ).intersection(fed)
        guard owners == Set(values.keys) else { return nil }
        if name != column.name {
          guard sourceColumns[column.name] == nil, !destinationNames.contains(name) else { return nil }
          renames.append((name, column.name))
        }
        accounted.insert(name)
        continue
      }
      // A new column: nil or constants only.
      guard sourceColumns[column.name] == nil else { return nil }
      var constants: [(number: Int, value: SQLiteSQL)] = []
      for (number, value) in values.sorted(by: { $0.key < $1.key }) {
        switch value {
        case .null: continue
        case .sql(let sql) where sql.text == "?" && sql.arguments.count == 1: constants.append((number, sql))
        default: return nil
        }
      }
      additions.append((column, constants))
    }
    for name in sourceColumns.keys where !structural.contains(name) && !accounted.contains(name) {
      return nil  // A column would be dropped: rebuild.
    }

    var operations: [MigrationOperation] = []
    let quotedTable = SQLiteIdentifier.quote(feed.sourceTable)
    if !removedNumbers.isEmpty {
      operations.append(
        MigrationOperation(
          kind: .check, summary: "delete the objects of removed entities from \(feed.sourceTable)",
          sql: SQLiteSQL(
            verbatim:
              "DELETE FROM \(quotedTable) WHERE Z_ENT IN (\(removedNumbers.map(String.init).joined(separator: ", ")))"))
      )
    }
    for rename in renames {
      operations.append(
        MigrationOperation(
          kind: .renameColumn, summary: "rename column \(feed.sourceTable).\(rename.from) to \(rename.to)",
          sql: SQLiteSQL(
            verbatim:
              "ALTER TABLE \(quotedTable) RENAME COLUMN \(SQLiteIdentifier.quote(rename.from)) TO \(SQLiteIdentifier.quote(rename.to))"
          )))
    }
    for addition in additions {
      operations.append(
        MigrationOperation(
          kind: .addColumn,
          summary: "add column \(table.name).\(addition.column.name) (\(addition.column.type.rawValue))",
          sql: SQLiteSQL(verbatim: "ALTER TABLE \(quotedTable) ADD COLUMN \(addition.column.definitionText)")))
      for constant in addition.constants {
        var sql = SQLiteSQL(verbatim: "UPDATE \(quotedTable) SET \(SQLiteIdentifier.quote(addition.column.name)) = ")
        sql += constant.value
        sql += SQLiteSQL(verbatim: " WHERE Z_ENT = \(constant.number)")
        operations.append(
          MigrationOperation(
            kind: .fillColumn, summary: "give existing objects the default of \(table.name).\(addition.column.name)",
            sql: sql))
      }
    }
    return InPlacePlan(sourceTable: feed.sourceTable, operations: operations)
  }

  /// The columns an entity mapping uses.
  func columnNames(of mapping: EntityStoreLayout) -> Set<String> {
    var names = Set(mapping.attributes.map(\.column))
    for toOne in mapping.toOneRelationships {
      names.insert(toOne.foreignKeyColumn)
      if let column = toOne.entityColumn { names.insert(column) }
      if let column = toOne.orderColumn { names.insert(column) }
    }
    return names
  }
}
