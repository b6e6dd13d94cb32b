import SQLite

/// The columns of an entity's row that an update writes: one bit per column of
/// ``EntityStatements/columns``.
///
/// An update writes only what changed, so that SQLite neither encodes nor compares the other
/// columns and leaves the indexes on them alone (an `UPDATE` that names an indexed column
/// rewrites its index entry even when the value is the same). Entities of up to 64 columns, most
/// of them, need no allocation.
struct ColumnSet: Hashable {
  private var low: UInt64 = 0
  private var high: [UInt64] = []

  /// No column.
  init() {}

  /// Whether no column is in the set.
  var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

  /// Adds column `index`.
  mutating func insert(_ index: Int) {
    if index < 64 {
      low |= 1 << UInt64(index)
      return
    }
    let word = index / 64 - 1
    if word >= high.count { high.append(contentsOf: repeatElement(0, count: word - high.count + 1)) }
    high[word] |= 1 << UInt64(index % 64)
  }

  /// Whether column `index` is in the set.
  func contains(_ index: Int) -> Bool {
    if index < 64 { return low & (1 << UInt64(index)) != 0 }
    let word = index / 64 - 1
    return word < high.count && high[word] & (1 << UInt64(index % 64)) != 0
  }
}

extension EntityStatements {
  /// The columns of `object`'s row whose values differ from what it last read or wrote: an
  /// attribute whose value changed, and every column of a to-one relationship whose
  /// destination changed (its key, its entity number and its ordering key).
  func changedColumns(of object: ManagedObject) -> ColumnSet {
    var changed = ColumnSet()
    // Each slot compared once; an object whose committed values are kept as one changed slot
    // compares that slot alone.
    switch object.committedAttributes {
    case .unchanged:
      break
    case .slot(let record):
      if record.differs {
        for column in attributeColumns where column.slot == record.slot { changed.insert(column.index) }
      }
    case .values:
      for (index, slot) in attributeColumns where object.attributeDiffers(at: slot) {
        changed.insert(index)
      }
    }
    if object.toOneValues != object.committedToOneValues {
      for (index, slot) in toOneColumns where object.toOneValues[slot] != object.committedToOneValues[slot] {
        changed.insert(index)
      }
    }
    return changed
  }

  /// Every column.
  var allColumns: ColumnSet {
    var all = ColumnSet()
    for index in columns.indices { all.insert(index) }
    return all
  }

  /// `UPDATE` of the columns in `changed` and `Z_OPT`, for the row `Z_PK = ?`; with `checked`,
  /// only while its `Z_OPT` is still the one read (`AND Z_OPT = ?`), which is how a save finds
  /// rows changed since without reading them first.
  func updateSQL(of changed: ColumnSet, checked: Bool) -> SQLiteSQL {
    var assignments: [String] = []
    for (index, column) in columns.enumerated() where changed.contains(index) {
      assignments.append("\(SQLiteIdentifier.quote(column.name)) = ?")
    }
    assignments.append("Z_OPT = Z_OPT + 1")
    let table = SQLiteIdentifier.quote(tableName)
    return SQLiteSQL(
      verbatim:
        "UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?\(checked ? " AND Z_OPT = ?" : "")")
  }
}

/// The checked `UPDATE` statements of one save, by entity and changed columns.
///
/// Objects of a bulk edit change the same columns, so the statement of the previous object is
/// checked first; the others are found by their key here, and the connection's statement cache
/// keeps them prepared from one save to the next.
struct UpdateStatements {
  private struct Key: Hashable {
    var entity: Int
    var changed: ColumnSet
  }

  private var statements: [Key: SQLiteStatement] = [:]
  private var last: (key: Key, statement: SQLiteStatement)?

  /// The statement updating `changed` of a row of entity `entity`.
  mutating func statement(
    for entity: Int, changed: ColumnSet, statements entityStatements: EntityStatements, connection: SQLiteConnection
  ) throws -> SQLiteStatement {
    let key = Key(entity: entity, changed: changed)
    if let last, last.key == key { return last.statement }
    let statement: SQLiteStatement
    if let known = statements[key] {
      statement = known
    } else {
      statement = try connection.cachedStatement(entityStatements.updateSQL(of: changed, checked: true))
      statements[key] = statement
    }
    last = (key, statement)
    return statement
  }
}
