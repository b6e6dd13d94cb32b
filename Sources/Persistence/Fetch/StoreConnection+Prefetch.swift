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
    func rows(where condition: String, _ arguments: [SQLiteValue], keeping wanted: (Int64) -> Bool) throws {
      let text: String
      switch mapping.storage {
      case .inverseForeignKey(let key):
        let source = SQLiteIdentifier.quote(key.foreignKeyColumn)
        let order = key.orderColumn.map { "\(source), \(SQLiteIdentifier.quote($0)), Z_PK" } ?? "\(source), Z_PK"
        text =
          "SELECT \(source), Z_PK, Z_ENT FROM \(SQLiteIdentifier.quote(key.table)) WHERE \(source) \(condition) ORDER BY \(order)"
      case .joinTable(let join):
        let source = "j.\(SQLiteIdentifier.quote(join.sourceColumn))"
        let order = join.orderColumn.map { "\(source), j.\(SQLiteIdentifier.quote($0)), d.Z_PK" } ?? "\(source), d.Z_PK"
        text =
          "SELECT \(source), d.Z_PK, d.Z_ENT FROM \(SQLiteIdentifier.quote(join.table)) AS j JOIN \(destinationTable) AS d ON d.Z_PK = j.\(SQLiteIdentifier.quote(join.destinationColumn)) WHERE \(source) \(condition) ORDER BY \(order)"
      }
      try connection.forEachRow(SQLiteSQL(verbatim: text, arguments: arguments)) { statement in
        let source = statement.int64(at: 0)
        guard wanted(source) else { return }
        let destination = description.entity(number: Int(statement.int64(at: 2))) ?? mapping.destination
        result[source, default: []].append(ObjectID(entity: destination, primaryKey: statement.int64(at: 1)))
      }
    }
    // Keys that fill most of their range (a fetch of all or most of an entity's objects, as a
    // list shows them) are read in one statement over the range, through the source column's
    // index; the rows of keys in the range that were not asked for are skipped. A list of 500
    // keys costs SQLite the parse of 500 placeholders and an index of the list for every chunk:
    // about 5,000 instructions a key, a tenth of listing 1,000 tasks with their tags.
    if let low = primaryKeys.min(), let high = primaryKeys.max() {
      let (span, overflow) = high.subtractingReportingOverflow(low)
      if !overflow && span < 2 * Int64(primaryKeys.count) {
        var asked = [Bool](repeating: false, count: Int(span) + 1)
        for key in primaryKeys { asked[Int(key - low)] = true }
        try rows(where: "BETWEEN ? AND ?", [.integer(low), .integer(high)]) { key in
          key >= low && key <= high && asked[Int(key - low)]
        }
        return result
      }
    }
    for start in stride(from: 0, to: primaryKeys.count, by: 500) {
      let chunk = primaryKeys[start..<min(start + 500, primaryKeys.count)]
      try rows(where: "IN (\(SQLiteSQL.placeholders(count: chunk.count)))", chunk.map { .integer($0) }) { _ in true }
    }
    return result
  }
}
