import DataModel
import Foundation
import Persistence
import SQLite

extension StepSQLBuilder {
  /// The value of a destination attribute column for rows of one destination entity.
  func attributeValue(
    _ attribute: AttributeDescription, column: AttributeColumn, destinationEntity: EntityID, sourceEntity: EntityID
  ) throws -> ColumnValue {
    guard let entityMapping = mappingOf[destinationEntity.index],
      var expression = entityMapping.propertyMapping(for: attribute.name)?.value
    else {
      return .null
    }
    // A member of a composite (`address.street`) reads the same member of the source composite.
    if let dot = column.name.firstIndex(of: "."), let keyPath = expression.sourceKeyPath, !keyPath.contains(".") {
      let member = column.name[column.name.index(after: dot)...]
      guard sourceSchema[sourceEntity].column(forAttribute: "\(keyPath).\(member)") != nil else { return .null }
      expression = .source("\(keyPath).\(member)")
      if let sourceColumn = sourceSchema[sourceEntity].column(forAttribute: "\(keyPath).\(member)") {
        return sourceColumn.columnType == column.columnType ? .column(sourceColumn.column) : .null
      }
    }
    return try value(
      of: expression, for: attribute, destinationColumnType: column.columnType, sourceEntity: sourceEntity)
  }

  func value(
    of expression: MappingExpression, for attribute: AttributeDescription, destinationColumnType: ColumnType,
    sourceEntity: EntityID
  ) throws -> ColumnValue {
    if case .constant(let constant) = expression {
      let value: AttributeValue?
      do {
        value = try constant.attributeValue(for: attribute.attributeType)
      } catch {
        throw MigrationBuildError("the mapping of '\(attribute.name)': \(error)")
      }
      let encoded = StoredValueCodec.encode(value, for: attribute)
      return encoded.isNull ? .null : .sql(SQLiteSQL(verbatim: "?", arguments: [encoded]))
    }
    if let keyPath = expression.sourceKeyPath {
      let components = keyPath.split(separator: ".").map(String.init)
      let sourceMapping = sourceSchema[sourceEntity]
      if components.count == 1 {
        guard let column = sourceMapping.column(forAttribute: components[0]),
          let sourceAttribute = source.attribute(named: components[0], in: sourceEntity)
        else {
          throw MigrationBuildError(
            "the mapping of '\(attribute.name)' reads '\(keyPath)', which entity '\(source[sourceEntity].name)' does not store"
          )
        }
        let plain = "t.\(SQLiteIdentifier.quote(column.column))"
        if sourceAttribute.allowsExternalBinaryDataStorage != attribute.allowsExternalBinaryDataStorage
          && attribute.attributeType == .binary
        {
          if attribute.allowsExternalBinaryDataStorage {
            return .sql(
              SQLiteSQL(verbatim: "CASE WHEN \(plain) IS NULL THEN NULL ELSE CAST(X'01' || \(plain) AS BLOB) END"))
          }
          return .sql(
            SQLiteSQL(
              verbatim:
                "CASE WHEN \(plain) IS NULL THEN NULL WHEN substr(\(plain), 1, 1) = X'01' THEN substr(\(plain), 2) ELSE \(plain) END"
            ))
        }
        if column.columnType != destinationColumnType {
          let type: String
          switch destinationColumnType {
          case .integer: type = "INTEGER"
          case .float, .timestamp: type = "REAL"
          case .varchar, .varchar255: type = "TEXT"
          case .decimal: type = "NUMERIC"
          case .blob: type = "BLOB"
          }
          return .sql(SQLiteSQL(verbatim: "CAST(\(plain) AS \(type))"))
        }
        return .column(column.column)
      }
      // Through to-one relationships: nested subqueries.
      var current = sourceEntity
      var rowReference = "t"
      var joins: [String] = []
      for (position, component) in components.dropLast().enumerated() {
        guard let toOne = sourceSchema[current].toOne(named: component),
          let next = source.relationship(named: component, in: current)?.relationship.destination
        else {
          throw MigrationBuildError(
            "the mapping of '\(attribute.name)' follows '\(component)', which is not a to-one relationship")
        }
        let alias = "r\(position)"
        joins.append(
          "\(SQLiteIdentifier.quote(sourceSchema[next].tableName)) AS \(alias) ON \(alias).Z_PK = \(rowReference).\(SQLiteIdentifier.quote(toOne.foreignKeyColumn))"
        )
        rowReference = alias
        current = next
      }
      guard let last = components.last, let column = sourceSchema[current].column(forAttribute: last) else {
        throw MigrationBuildError("the mapping of '\(attribute.name)' reads '\(keyPath)', which does not exist")
      }
      let first = joins.removeFirst()
      let parts = first.components(separatedBy: " ON ")
      var sql = "(SELECT \(rowReference).\(SQLiteIdentifier.quote(column.column)) FROM \(parts[0])"
      for join in joins { sql += " JOIN \(join)" }
      sql += " WHERE \(parts[1]))"
      return .sql(SQLiteSQL(verbatim: sql))
    }
    if let (conversion, operands) = expression.conversion {
      var parts: [SQLiteSQL] = []
      for argument in operands {
        switch try value(
          of: argument, for: attribute, destinationColumnType: destinationColumnType, sourceEntity: sourceEntity)
        {
        case .null: parts.append("NULL")
        case .column(let column): parts.append(SQLiteSQL(verbatim: "t.\(SQLiteIdentifier.quote(column))"))
        case .sql(let sql): parts.append(sql)
        }
      }
      let sqlName: String
      switch conversion {
      case .coalesce: sqlName = "COALESCE"
      case .lowercase: sqlName = "lower"
      case .uppercase: sqlName = "upper"
      case .trim: sqlName = "trim"
      case .string: sqlName = "CAST_TEXT"
      case .integer: sqlName = "CAST_INTEGER"
      case .double: sqlName = "CAST_REAL"
      }
      if sqlName.hasPrefix("CAST_") {
        var sql: SQLiteSQL = "CAST("
        sql += parts[0]
        sql += SQLiteSQL(verbatim: " AS \(sqlName.dropFirst(5)))")
        return .sql(sql)
      }
      var sql = SQLiteSQL(verbatim: "\(sqlName)(")
      sql += parts.joined(separator: ", ")
      sql += ")"
      return .sql(sql)
    }
    if expression.destinationInstances != nil {
      throw MigrationBuildError("attribute '\(attribute.name)' is mapped from a relationship")
    }
    let known = MappingExpression.Conversion.allCases.map { "FUNCTION(x, \"\($0.selector)\")" }.joined(separator: ", ")
    throw MigrationBuildError(
      "the mapping of '\(attribute.name)' is \(expression), which modelc cannot run in SQL; it runs constants, $source key paths through to-one relationships, and the conversions \(known)"
    )
  }

  /// How a destination entity table is filled, one feed per source table.
  func feeds(for table: TableDefinition, root: EntityID) throws -> [TableFeed] {
    let hierarchy = [root] + destination.descendants(of: root)
    var feeds: [String: TableFeed] = [:]
    var order: [String] = []
    for destinationEntity in hierarchy {
      guard let sourceEntity = sourceOf[destinationEntity.index] else { continue }
      let sourceMapping = sourceSchema[sourceEntity]
      let destinationMapping = destinationSchema[destinationEntity]
      let sourceTableName = sourceMapping.tableName
      if feeds[sourceTableName] == nil {
        order.append(sourceTableName)
        feeds[sourceTableName] = TableFeed(
          sourceTable: sourceTableName, entityNumbers: [],
          keyOffset: keyOffset(sourceTable: sourceTableName, destinationTable: table.name), values: [:],
          needsWholeTable: false)
      }
      var feed = feeds[sourceTableName]!
      let sourceNumber = sourceMapping.entityNumber
      feed.entityNumbers.append((sourceNumber, destinationMapping.entityNumber))
      feed.values["Z_PK", default: [:]][sourceNumber] =
        feed.keyOffset == nil ? ColumnValue.column("Z_PK") : ColumnValue.sql(shifted("t.Z_PK", by: feed.keyOffset))
      feed.values["Z_OPT", default: [:]][sourceNumber] = ColumnValue.column("Z_OPT")
      for column in destinationMapping.attributes {
        guard
          let attribute = destination.attribute(
            named: column.name.components(separatedBy: ".")[0], in: destinationEntity)
        else { continue }
        let value = try attributeValue(
          attribute, column: column, destinationEntity: destinationEntity, sourceEntity: sourceEntity)
        feed.values[column.column, default: [:]][sourceNumber] = value
      }
      for toOne in destinationMapping.toOneRelationships {
        guard let relationship = destination.relationship(named: toOne.name, in: destinationEntity)?.relationship else {
          continue
        }
        let (key, order, wholeTable) = try toOneValues(
          relationship, columns: toOne, destinationEntity: destinationEntity, sourceEntity: sourceEntity)
        feed.values[toOne.foreignKeyColumn, default: [:]][sourceNumber] = key
        if let entityColumn = toOne.entityColumn {
          // Filled afterwards from the destination rows (see `entityColumnFixes`).
          feed.values[entityColumn, default: [:]][sourceNumber] = sourceEntityColumnValue(
            relationship: relationship, sourceEntity: sourceEntity, destinationEntity: destinationEntity,
            entityColumn: entityColumn)
        }
        if let orderColumn = toOne.orderColumn {
          feed.values[orderColumn, default: [:]][sourceNumber] = order
        }
        if wholeTable { feed.needsWholeTable = true }
      }
      feeds[sourceTableName] = feed
    }
    return order.compactMap { feeds[$0] }
  }

  /// The foreign key and ordering key of a destination to-one, for rows of one source entity.
  func toOneValues(
    _ relationship: RelationshipDescription, columns: ToOneColumns, destinationEntity: EntityID, sourceEntity: EntityID
  ) throws -> (key: ColumnValue, order: ColumnValue, needsWholeTable: Bool) {
    guard let destinationTarget = relationship.destination else { return (.null, .null, false) }
    // Mapped from a source to-one: the same foreign key column, shifted.
    if let (mappedEntity, sourceName) = sourceRelationship(of: relationship.name, on: destinationEntity),
      let sourceToOne = sourceSchema[mappedEntity].toOne(named: sourceName),
      let sourceTarget = source.relationship(named: sourceName, in: mappedEntity)?.relationship.destination
    {
      let offset = self.offset(forRowsOf: sourceTarget, landingIn: destinationTarget)
      let plain = "t.\(SQLiteIdentifier.quote(sourceToOne.foreignKeyColumn))"
      let key: ColumnValue = offset == nil ? .column(sourceToOne.foreignKeyColumn) : .sql(shifted(plain, by: offset))
      if columns.orderColumn != nil {
        if let sourceOrder = sourceToOne.orderColumn {
          return (key, .column(sourceOrder), false)
        }
        return (
          key,
          .sql(
            SQLiteSQL(
              verbatim:
                "CASE WHEN \(plain) IS NULL THEN NULL ELSE ROW_NUMBER() OVER (PARTITION BY \(plain) ORDER BY t.Z_PK) END"
            )),
          true
        )
      }
      return (key, .null, false)
    }
    if sourceRelationship(of: relationship.name, on: destinationEntity) != nil {
      throw MigrationBuildError(
        "to-one relationship '\(relationship.name)' of '\(destination[destinationEntity].name)' is mapped from a to-many relationship"
      )
    }
    // Otherwise from the inverse's links (a to-many that now has this to-one as inverse).
    guard let links = try destinationLinks(of: relationship, on: destinationEntity) else {
      return (.null, .null, false)
    }
    var key: SQLiteSQL = "(SELECT l2.d FROM ("
    key += links
    key += ") AS l2 WHERE l2.s = "
    key += shifted("t.Z_PK", by: offset(forRowsOf: sourceEntity, landingIn: destinationEntity))
    key += " LIMIT 1)"
    var order: SQLiteSQL = "(SELECT l3.od FROM ("
    order += links
    order += ") AS l3 WHERE l3.s = "
    order += shifted("t.Z_PK", by: offset(forRowsOf: sourceEntity, landingIn: destinationEntity))
    order += " LIMIT 1)"
    return (.sql(key), columns.orderColumn == nil ? .null : .sql(order), false)
  }

  /// The entity-number column of a to-one for rows of one source entity: the source's own
  /// entity column, remapped, when it had one; otherwise NULL (fixed up afterwards).
  func sourceEntityColumnValue(
    relationship: RelationshipDescription, sourceEntity: EntityID, destinationEntity: EntityID, entityColumn: String
  ) -> ColumnValue {
    guard let (mappedEntity, sourceName) = sourceRelationship(of: relationship.name, on: destinationEntity),
      let sourceToOne = sourceSchema[mappedEntity].toOne(named: sourceName),
      let sourceColumn = sourceToOne.entityColumn, let target = relationship.destination,
      entityNumbersUnchanged(inHierarchyOf: target)
    else { return .null }
    return .column(sourceColumn)
  }

  /// Whether every entity of a destination hierarchy keeps its entity number.
  func entityNumbersUnchanged(inHierarchyOf entity: EntityID) -> Bool {
    let root = destination.root(of: entity)
    for member in [root] + destination.descendants(of: root) {
      guard let sourceEntity = sourceOf[member.index],
        sourceSchema[sourceEntity].entityNumber == destinationSchema[member].entityNumber
      else { return false }
    }
    return true
  }
}
