import DataModel
import Foundation
import Persistence
import SQLite

/// Checks that a store's rows hold together the way Core Data's layout relies on, where SQLite
/// cannot: the layout declares no foreign keys, so `PRAGMA foreign_key_check` never fails on it.
///
/// After every migration step, before the commit:
/// - each table's `Z_ENT` values belong to the entities stored in that table;
/// - `Z_PRIMARYKEY.Z_MAX` of each hierarchy is at least the highest `Z_PK` of its table (else the
///   next insert reuses a key);
/// - each to-one column holds NULL or the `Z_PK` of a row of an entity the relationship allows
///   (its destination or a sub-entity), and its entity column, when there is one, that row's
///   `Z_ENT`;
/// - each join row's two keys name existing rows of the relationship's two entities.
///
/// Every problem is listed with a count and examples, so a refused migration says what to repair.
///
/// A step checks the tables it rewrote and every reference into or out of them (`tables`); a
/// step that only adds columns in place reads nothing, so its cost does not grow with the store.
package enum LayoutVerification {
  /// The problems of the store on `connection` laid out as `schema`; empty when it holds together.
  ///
  /// - Parameter tables: the tables to check, with the references into and out of them; nil
  ///   checks the whole store.
  package static func problems(
    of schema: StoreSchema, on connection: SQLiteConnection, tables: Set<String>? = nil
  ) throws -> [String] {
    func concerns(_ names: String...) -> Bool { tables.map { !$0.isDisjoint(with: names) } ?? true }
    var problems: [String] = []
    let roots = schema.entities.filter(\.isRoot)
    for root in roots where concerns(root.tableName) {
      let table = SQLiteIdentifier.quote(root.tableName)
      let numbers = root.entityNumbersInHierarchy.map(String.init).joined(separator: ", ")
      let strays = try connection.mapRows(
        SQLiteSQL(
          verbatim:
            "SELECT Z_ENT, COUNT(*) FROM \(table) WHERE Z_ENT IS NULL OR Z_ENT NOT IN (\(numbers)) GROUP BY Z_ENT")
      ) { ($0.value(at: 0), $0.int64(at: 1)) }
      for (entity, count) in strays {
        problems.append(
          "\(root.tableName): \(count) row(s) with Z_ENT \(entity.sqlLiteral), which is not an entity stored in this table (\(numbers))"
        )
      }
      let highest =
        try connection.firstRow(SQLiteSQL(verbatim: "SELECT IFNULL(MAX(Z_PK), 0) FROM \(table)")) { $0.int64(at: 0) }
        ?? 0
      let counter =
        try connection.firstRow(
          SQLiteSQL(verbatim: "SELECT IFNULL(MAX(Z_MAX), 0) FROM Z_PRIMARYKEY WHERE Z_ENT IN (\(numbers))")
        ) { $0.int64(at: 0) } ?? 0
      if counter < highest {
        problems.append(
          "Z_PRIMARYKEY: Z_MAX of \(root.name)'s entities is \(counter), below the highest Z_PK \(highest) of \(root.tableName): new objects would reuse keys"
        )
      }
    }
    var checkedColumns: Set<String> = []
    for entity in schema.entities {
      for toOne in entity.toOneRelationships
      where concerns(toOne.table, schema[toOne.destination].tableName)
        && checkedColumns.insert("\(toOne.table).\(toOne.foreignKeyColumn)").inserted
      {
        let destination = schema[toOne.destination]
        let allowed = destination.entityNumbersInHierarchy.map(String.init).joined(separator: ", ")
        let source = SQLiteIdentifier.quote(toOne.table)
        let column = SQLiteIdentifier.quote(toOne.foreignKeyColumn)
        var matches = "d.Z_PK = s.\(column) AND d.Z_ENT IN (\(allowed))"
        if let entityColumn = toOne.entityColumn {
          matches += " AND d.Z_ENT = s.\(SQLiteIdentifier.quote(entityColumn))"
        }
        let dangling = try connection.mapRows(
          SQLiteSQL(
            verbatim:
              "SELECT s.Z_PK, s.\(column) FROM \(source) s WHERE s.\(column) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(SQLiteIdentifier.quote(destination.tableName)) d WHERE \(matches)) ORDER BY s.Z_PK"
          )
        ) { "\($0.int64(at: 0)) → \($0.int64(at: 1))" }
        if !dangling.isEmpty {
          problems.append(
            "\(toOne.table).\(toOne.foreignKeyColumn) (\(entity.name).\(toOne.name)): \(dangling.count) row(s) point at no \(destination.name) (\(dangling.prefix(5).joined(separator: ", ")))"
          )
        }
      }
    }
    for join in schema.joinTables {
      let sourceID = join.relationship.entity
      guard let destinationID = schema.model[join.relationship].destination else { continue }
      guard concerns(join.name, schema[sourceID].tableName, schema[destinationID].tableName) else { continue }
      let sourceTable = SQLiteIdentifier.quote(schema[sourceID].tableName)
      let destinationTable = SQLiteIdentifier.quote(schema[destinationID].tableName)
      let table = SQLiteIdentifier.quote(join.name)
      let sourceColumn = SQLiteIdentifier.quote(join.sourceColumn)
      let destinationColumn = SQLiteIdentifier.quote(join.destinationColumn)
      let dangling =
        try connection.firstRow(
          SQLiteSQL(
            verbatim:
              "SELECT COUNT(*) FROM \(table) j WHERE NOT EXISTS (SELECT 1 FROM \(sourceTable) s WHERE s.Z_PK = j.\(sourceColumn)) OR NOT EXISTS (SELECT 1 FROM \(destinationTable) d WHERE d.Z_PK = j.\(destinationColumn))"
          )
        ) { $0.int64(at: 0) } ?? 0
      if dangling > 0 {
        problems.append("\(join.name): \(dangling) join row(s) name an object that does not exist")
      }
    }
    return problems
  }
}
