/// A statement positioned on a row of an entity's table (its `selectPrefix` columns), with the
/// row's identity and version read and its values left in the statement until ``decode()``.
///
/// Valid only during the callback that receives it: the statement moves on to the next row.
struct StoredRowCursor {
  let statement: SQLiteStatement
  let store: StoreConnection
  let tableName: String
  /// The row's object (its entity from `Z_ENT`, its key from `Z_PK`).
  let objectID: ObjectID
  /// `Z_OPT`.
  let version: Int64

  /// Reads the row's `Z_PK`, `Z_ENT` and `Z_OPT`; a `Z_ENT` that names no entity of the model is
  /// an error.
  init(_ statement: SQLiteStatement, store: StoreConnection, tableName: String) throws {
    let primaryKey = statement.int64(at: 0)
    let entityNumber = Int(statement.int64(at: 1))
    guard let entity = store.description.entity(number: entityNumber) else {
      throw PersistenceError.storeFailure(
        "row \(primaryKey) of \(tableName) has Z_ENT \(entityNumber), which is no entity of the model")
    }
    self.statement = statement
    self.store = store
    self.tableName = tableName
    self.objectID = ObjectID(entity: entity, primaryKey: primaryKey)
    self.version = statement.int64(at: 2)
  }

  /// The row's values.
  func decode() throws -> StoredRow {
    let entity = objectID.entity
    return try store.description.statements[entity.index].decoder.decode(
      statement, objectID: objectID, version: version, layout: store.layouts[entity], description: store.description,
      tableName: tableName)
  }
}
