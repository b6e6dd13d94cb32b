import SQLite

extension StoreConnection {
  /// The destinations of one to-many relationship for many objects of an entity at once, in
  /// each object's order (as ``loadToMany(entity:primaryKey:relationship:)`` gives it), by
  /// primary key; objects without destinations are absent.
  func loadToMany(entity: EntityID, primaryKeys: [Int64], relationship slot: ObjectLayout.RelationshipSlot) throws
    -> [Int64: [ObjectID]]
  {
    guard let mapping = schema[entity].toMany(named: slot.relationship.name) else { return [:] }
    let destinationTable = SQLiteIdentifier.quote(schema[mapping.destination].tableName)
    var result: [Int64: [ObjectID]] = [:]
    let connection = try connection()
    for start in stride(from: 0, to: primaryKeys.count, by: 500) {
      let chunk = Array(primaryKeys[start..<min(start + 500, primaryKeys.count)])
      let placeholders = SQLiteSQL.placeholders(count: chunk.count)
      let text: String
      switch mapping.storage {
      case .inverseForeignKey(let key):
        let source = SQLiteIdentifier.quote(key.foreignKeyColumn)
        let order = key.orderColumn.map { "\(source), \(SQLiteIdentifier.quote($0)), Z_PK" } ?? "\(source), Z_PK"
        text =
          "SELECT \(source), Z_PK, Z_ENT FROM \(SQLiteIdentifier.quote(key.table)) WHERE \(source) IN (\(placeholders)) ORDER BY \(order)"
      case .joinTable(let join):
        let source = "j.\(SQLiteIdentifier.quote(join.sourceColumn))"
        let order = join.orderColumn.map { "\(source), j.\(SQLiteIdentifier.quote($0)), d.Z_PK" } ?? "\(source), d.Z_PK"
        text =
          "SELECT \(source), d.Z_PK, d.Z_ENT FROM \(SQLiteIdentifier.quote(join.table)) AS j JOIN \(destinationTable) AS d ON d.Z_PK = j.\(SQLiteIdentifier.quote(join.destinationColumn)) WHERE \(source) IN (\(placeholders)) ORDER BY \(order)"
      }
      try connection.forEachRow(SQLiteSQL(verbatim: text, arguments: chunk.map { .integer($0) })) { statement in
        let destination = description.entity(number: Int(statement.int64(at: 2))) ?? mapping.destination
        result[statement.int64(at: 0), default: []].append(
          ObjectID(entity: destination, primaryKey: statement.int64(at: 1)))
      }
    }
    return result
  }
}
