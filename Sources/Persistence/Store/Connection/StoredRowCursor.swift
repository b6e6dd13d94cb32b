import DataModel

/// A statement positioned on a row of an entity's table (its `selectPrefix` columns), with the
/// row's identity and version read and its values left in the statement until ``decode()``.
///
/// One cursor serves every row of a query: ``readIdentity()`` moves it to the statement's
/// current row, so walking a large result makes no value per row and retains nothing. Valid
/// only during the callback that receives it: the statement moves on to the next row.
struct StoredRowCursor {
  let statement: SQLiteStatement
  let store: StoreConnection
  let tableName: String
  /// The row's object (its entity from `Z_ENT`, its key from `Z_PK`).
  private(set) var objectID = ObjectID(entity: EntityID(0), primaryKey: 0)
  /// `Z_OPT`.
  private(set) var version: Int64 = 0

  /// A cursor over the rows `statement` steps through; call ``readIdentity()`` on each.
  init(_ statement: SQLiteStatement, store: StoreConnection, tableName: String) {
    self.statement = statement
    self.store = store
    self.tableName = tableName
  }

  /// Reads the current row's `Z_PK`, `Z_ENT` and `Z_OPT`; a `Z_ENT` that names no entity of the
  /// model is an error.
  mutating func readIdentity() throws {
    let primaryKey = statement.column(at: 0).int64
    let entityNumber = Int(statement.column(at: 1).int64)
    guard let entity = store.description.entity(number: entityNumber) else {
      throw PersistenceError.storeFailure(
        "row \(primaryKey) of \(tableName) has Z_ENT \(entityNumber), which is no entity of the model")
    }
    objectID = ObjectID(entity: entity, primaryKey: primaryKey)
    version = statement.column(at: 2).int64
  }

  /// The row's values.
  func decode() throws -> StoredRow {
    let entity = objectID.entity
    return try store.description.statements[entity.index].decoder.decode(
      statement, objectID: objectID, version: version, layout: store.layouts[entity], description: store.description,
      tableName: tableName)
  }
}
