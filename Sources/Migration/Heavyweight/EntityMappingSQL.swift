import DataModel
import Foundation
import Persistence
import SQLite

/// An entity mapping compiled to SQL: the fast path of a heavyweight migration, which never
/// materializes objects.
///
/// A mapping compiles when it names no policy class, and its expressions are all constants,
/// `$source` key paths (through to-one relationships), the conversions of
/// ``MappingExpression/Conversion``, and for relationships the two `destinationInstances…`
/// functions on one source relationship. Stage 1 is two `INSERT … SELECT` statements per range
/// of source keys: the associations (`destination.MODELC_ASSOCIATION`), and the destination
/// rows with their attributes. A destination object keeps its source object's key unless another
/// destination object has it already (then every key of the mapping is shifted past the table's
/// largest), so objects usually keep their URIs across the migration. Stage 2
/// writes each relationship where the destination layout keeps it (a foreign key, the inverse's
/// foreign key, a join table), from the source links translated through the associations at
/// both ends: so a relationship may point at objects another mapping made, by SQL or by a policy.
///
/// The statements run on a connection whose `main` database is the store being migrated (the
/// mapping's source filter compiles against its tables, alias `t`) and that has the new file
/// attached as `destination`.
struct EntityMappingSQL {
  let index: Int
  let mapping: MappingModel.EntityMapping
  let sourceEntity: EntityID
  let destinationEntity: EntityID
  /// The source table and the condition selecting the mapping's source objects (alias `t`).
  let sourceTable: String
  let condition: SQLiteSQL
  /// The destination table, entity number, and the hierarchy's entity numbers.
  let destinationTable: String
  let destinationNumber: Int
  let destinationHierarchy: [Int]
  /// Destination columns and their values over the source row `t`.
  let columns: [(name: String, value: SQLiteSQL)]
  /// Relationship statements of stage 2.
  let relationships: [RelationshipWrite]

  struct RelationshipWrite {
    var relationship: String
    var summary: String
    var sql: SQLiteSQL
  }

  /// Compiles an entity mapping, or says why it runs object by object.
  ///
  /// - Parameters:
  ///   - condition: The source filter compiled for the source entity without its sub-entities,
  ///     or nil when the predicate does not compile to SQL.
  /// - Throws: ``MigrationBuildError`` with the reason the mapping is not compiled.
  init(
    index: Int, mapping: MappingModel.EntityMapping, mappingModel: MappingModel, source: ModelVersion,
    destination: ModelVersion, builder: StepSQLBuilder, condition: SQLiteSQL?
  ) throws {
    self.index = index
    self.mapping = mapping
    if let policy = mapping.policyClassName {
      throw MigrationBuildError("it names the policy class \(policy)")
    }
    guard let sourceName = mapping.sourceEntity, let sourceEntity = source.entityID(named: sourceName),
      let destinationName = mapping.destinationEntity,
      let destinationEntity = destination.entityID(named: destinationName)
    else {
      throw MigrationBuildError("it has no source or destination entity in the two versions")
    }
    guard let condition else {
      throw MigrationBuildError("its source filter \(mapping.sourceFilter ?? "") does not compile to SQL")
    }
    if let expression = mapping.sourceExpression, !Self.isPlainSourceFetch(expression, entity: sourceName) {
      throw MigrationBuildError("its source expression is not a plain fetch of \(sourceName): \(expression)")
    }
    self.sourceEntity = sourceEntity
    self.destinationEntity = destinationEntity
    self.condition = condition
    let sourceSchema = builder.sourceSchema
    let destinationSchema = builder.destinationSchema
    self.sourceTable = sourceSchema[sourceEntity].tableName
    let layout = destinationSchema[destinationEntity]
    self.destinationTable = layout.tableName
    self.destinationNumber = layout.entityNumber
    self.destinationHierarchy = destinationSchema[layout.rootEntity].entityNumbersInHierarchy

    var columns: [(name: String, value: SQLiteSQL)] = []
    for column in layout.attributes {
      let attributeName = column.name.components(separatedBy: ".")[0]
      guard let attribute = destination.attribute(named: attributeName, in: destinationEntity) else { continue }
      guard let expression = mapping.propertyMapping(for: attributeName)?.value else {
        // As Core Data inserts a destination object: the attribute's default value.
        let encoded = StoredValueCodec.encode(column.name.contains(".") ? nil : attribute.defaultValue, for: attribute)
        if !encoded.isNull { columns.append((column.column, SQLiteSQL(verbatim: "?", arguments: [encoded]))) }
        continue
      }
      var value = expression
      if column.name.contains("."), let keyPath = expression.sourceKeyPath, !keyPath.contains(".") {
        // A member of a composite reads the same member of the source composite.
        value = .source("\(keyPath).\(column.name.split(separator: ".", maxSplits: 1)[1])")
        guard sourceSchema[sourceEntity].column(forAttribute: value.sourceKeyPath ?? "") != nil else { continue }
      }
      let compiled = try builder.value(
        of: value, for: attribute, destinationColumnType: column.columnType, sourceEntity: sourceEntity)
      switch compiled {
      case .null: continue
      case .column(let name): columns.append((column.column, SQLiteSQL(verbatim: "t.\(SQLiteIdentifier.quote(name))")))
      case .sql(let sql): columns.append((column.column, sql))
      }
    }
    self.columns = columns

    var writes: [RelationshipWrite] = []
    for property in mapping.relationshipMappings {
      guard let expression = property.value else { continue }
      writes.append(
        try Self.relationshipWrite(
          property.destinationProperty, expression: expression, mappingIndex: index, mappingModel: mappingModel,
          sourceEntity: sourceEntity, destinationEntity: destinationEntity, source: source, destination: destination,
          builder: builder))
    }
    for attribute in mapping.attributeMappings
    where destination.attribute(named: attribute.destinationProperty, in: destinationEntity) == nil {
      throw MigrationBuildError(
        "it maps attribute '\(attribute.destinationProperty)', which \(destinationName) does not have")
    }
    self.relationships = writes
  }

  /// Whether a source expression is `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "<entity>", …), $manager.sourceContext, NO)`,
  /// whose predicate is the mapping's source filter.
  static func isPlainSourceFetch(_ expression: MappingExpression, entity: String) -> Bool {
    guard case .fetch(_, _, false) = expression else { return false }
    return expression.sourceFetchRequest?.entity == entity
  }

  // MARK: - Stage 1

  /// The statements that create the destination objects of the source objects whose keys lie
  /// in `range`, with destination keys shifted by `offset`.
  func instanceStatements(offset: Int64, range: ClosedRange<Int64>) -> [SQLiteSQL] {
    var associations = SQLiteSQL(
      verbatim:
        "INSERT INTO \(AssociationTable.qualifiedName) (MAPPING, SOURCE, DESTINATION_ENT, DESTINATION) SELECT \(index), t.Z_PK, \(destinationNumber), t.Z_PK + ? FROM \(SQLiteIdentifier.quote(sourceTable)) AS t WHERE ",
      arguments: [.integer(offset)])
    associations += "("
    associations += condition
    associations += SQLiteSQL(
      verbatim: ") AND t.Z_PK BETWEEN ? AND ?", arguments: [.integer(range.lowerBound), .integer(range.upperBound)])

    let names = ["Z_PK", "Z_ENT", "Z_OPT"] + columns.map(\.name)
    var rows = SQLiteSQL(
      verbatim:
        "INSERT INTO destination.\(SQLiteIdentifier.quote(destinationTable)) (\(names.map(SQLiteIdentifier.quote).joined(separator: ", "))) SELECT t.Z_PK + ?, \(destinationNumber), 1",
      arguments: [.integer(offset)])
    for column in columns {
      rows += ", "
      rows += column.value
    }
    rows += SQLiteSQL(verbatim: " FROM \(SQLiteIdentifier.quote(sourceTable)) AS t WHERE (")
    rows += condition
    rows += SQLiteSQL(
      verbatim: ") AND t.Z_PK BETWEEN ? AND ?", arguments: [.integer(range.lowerBound), .integer(range.upperBound)])
    return [associations, rows]
  }

  // MARK: - Stage 2

  /// The statement writing one destination relationship from the source relationship its
  /// expression reads, translated through the associations.
  static func relationshipWrite(
    _ name: String, expression: MappingExpression, mappingIndex: Int, mappingModel: MappingModel,
    sourceEntity: EntityID, destinationEntity: EntityID, source: ModelVersion, destination: ModelVersion,
    builder: StepSQLBuilder
  ) throws -> RelationshipWrite {
    guard let call = expression.destinationInstances, let sourceRelationship = call.sourceRelationship else {
      throw MigrationBuildError(
        "relationship '\(name)' is mapped by \(expression), not by destinationInstances… on one $source relationship")
    }
    guard let relationship = destination.relationship(named: name, in: destinationEntity)?.relationship else {
      throw MigrationBuildError(
        "it maps relationship '\(name)', which \(destination[destinationEntity].name) does not have")
    }
    guard let sourceTarget = source.relationship(named: sourceRelationship, in: sourceEntity)?.relationship.destination
    else {
      throw MigrationBuildError(
        "relationship '\(name)' reads $source.\(sourceRelationship), which \(source[sourceEntity].name) does not have")
    }
    let targets: [Int]
    switch call.lookup {
    case .entityMapping(let mappingName):
      guard let target = mappingModel.entityMappings.firstIndex(where: { $0.name == mappingName }) else {
        throw MigrationBuildError(
          "relationship '\(name)' names the entity mapping '\(mappingName)', which does not exist")
      }
      targets = [target]
    case .sourceRelationship:
      let hierarchy = Set(([sourceTarget] + source.descendants(of: sourceTarget)).map { source[$0].name })
      targets = mappingModel.entityMappings.indices.filter {
        mappingModel.entityMappings[$0].sourceEntity.map(hierarchy.contains) ?? false
      }
    }
    guard let links = try builder.links(of: sourceRelationship, on: sourceEntity) else {
      throw MigrationBuildError("the links of $source.\(sourceRelationship) are not stored where modelc reads them")
    }
    // (s, d, dent, os, od) in destination keys.
    let association = AssociationTable.qualifiedName
    var translated = SQLiteSQL(
      verbatim:
        "SELECT a1.DESTINATION AS s, a2.DESTINATION AS d, a2.DESTINATION_ENT AS dent, COALESCE(l.os, ROW_NUMBER() OVER (PARTITION BY a1.DESTINATION ORDER BY a2.DESTINATION)) AS os, COALESCE(l.od, ROW_NUMBER() OVER (PARTITION BY a2.DESTINATION ORDER BY a1.DESTINATION)) AS od FROM ("
    )
    translated += links
    // CROSS JOIN keeps this order: each link is read once and its two ends looked up through
    // the associations' (MAPPING, SOURCE) index. Left to itself the planner may walk the
    // associations and probe the links for each, which is quadratic for a join table.
    translated += SQLiteSQL(
      verbatim:
        ") AS l CROSS JOIN \(association) AS a1 ON a1.MAPPING = \(mappingIndex) AND a1.SOURCE = l.s CROSS JOIN \(association) AS a2 ON a2.MAPPING IN (\(targets.map(String.init).joined(separator: ", "))) AND a2.SOURCE = l.d"
    )
    let layout = builder.destinationSchema[destinationEntity]
    let quote = SQLiteIdentifier.quote
    if let toOne = layout.toOne(named: name) {
      var assignments = ["\(quote(toOne.foreignKeyColumn)) = x.d"]
      if let column = toOne.entityColumn { assignments.append("\(quote(column)) = x.dent") }
      if let column = toOne.orderColumn { assignments.append("\(quote(column)) = x.od") }
      var sql = SQLiteSQL(
        verbatim:
          "UPDATE destination.\(quote(toOne.table)) AS u SET \(assignments.joined(separator: ", ")) FROM (")
      sql += translated
      sql += ") AS x WHERE u.Z_PK = x.s"
      return RelationshipWrite(relationship: name, summary: "set \(toOne.table).\(toOne.foreignKeyColumn)", sql: sql)
    }
    guard let toMany = layout.toMany(named: name) else {
      throw MigrationBuildError("relationship '\(name)' has no storage in the destination layout")
    }
    _ = relationship
    switch toMany.storage {
    case .inverseForeignKey(let key):
      var assignments = ["\(quote(key.foreignKeyColumn)) = x.s"]
      if let column = key.entityColumn { assignments.append("\(quote(column)) = \(layout.entityNumber)") }
      if let column = key.orderColumn { assignments.append("\(quote(column)) = x.os") }
      var sql = SQLiteSQL(
        verbatim: "UPDATE destination.\(quote(key.table)) AS u SET \(assignments.joined(separator: ", ")) FROM (")
      sql += translated
      sql += ") AS x WHERE u.Z_PK = x.d"
      return RelationshipWrite(relationship: name, summary: "set \(key.table).\(key.foreignKeyColumn)", sql: sql)
    case .joinTable(let join):
      var names = [join.sourceColumn, join.destinationColumn]
      var values = ["x.s", "x.d"]
      if let order = join.orderColumn {
        names.append(order)
        values.append("x.os")
      }
      if let table = builder.destinationSchema.joinTables.first(where: { $0.name == join.table }) {
        let isOwnerSide = join.sourceColumn == table.sourceColumn
        if let other = isOwnerSide ? table.sourceOrderColumn : table.destinationOrderColumn, !names.contains(other) {
          names.append(other)
          values.append("x.od")
        }
      }
      var sql = SQLiteSQL(
        verbatim:
          "INSERT OR IGNORE INTO destination.\(quote(join.table)) (\(names.map(quote).joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM ("
      )
      sql += translated
      sql += ") AS x"
      return RelationshipWrite(relationship: name, summary: "fill \(join.table)", sql: sql)
    }
  }
}
