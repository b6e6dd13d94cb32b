import DataModel
import SQLite

/// A statement positioned on a row of an entity's table (its `selectPrefix` columns), with the
/// row's identity and version read and its values left in the statement until ``decode()``.
///
/// One cursor serves every row of a query: ``readIdentity()`` moves it to the statement's
/// current row, so walking a large result makes no value per row and retains nothing. Valid
/// only during the callback that receives it: the statement moves on to the next row.
///
/// A class, so that handing it to the callback for each row passes one reference: as a struct
/// held in a variable the loop mutates, every row paid a copy of it (a retain and a release of
/// each of the six references it holds), about 7% of a fetch of 100,000 objects.
final class StoredRowCursor {
  let statement: SQLiteStatement
  let tableName: String
  /// The store's description, held here so that decoding a row borrows it instead of
  /// retaining it through the store.
  private let description: StoreDescription
  /// The entity whose rows the query mostly returns, with its decoder and layout resolved once:
  /// a row of another entity of the table (a sub-entity) looks its own up.
  private let commonEntity: EntityID
  private let commonDecoder: RowDecoder
  private let commonLayout: ObjectLayout
  /// The row's object (its entity from `Z_ENT`, its key from `Z_PK`).
  private(set) var objectID = ObjectID(entity: EntityID(0), primaryKey: 0)
  /// `Z_OPT`.
  private(set) var version: Int64 = 0
  /// The storages the rows' values are decoded into, several rows each.
  @exclusivity(unchecked) private var valueRows = AttributeValueRows()

  /// A cursor over the rows `statement` steps through, most of them of `entity`; call
  /// ``readIdentity()`` on each.
  init(_ statement: SQLiteStatement, store: StoreConnection, entity: EntityID, tableName: String) {
    self.statement = statement
    self.tableName = tableName
    let description = store.description
    self.description = description
    self.commonEntity = entity
    self.commonDecoder = description.statements[entity.index].decoder
    self.commonLayout = description.layouts[entity]
  }

  /// Reads the current row's `Z_PK`, `Z_ENT` and `Z_OPT`; a `Z_ENT` that names no entity of the
  /// model, or an entity stored in another table, is an error (decoding the row as that
  /// entity would read the wrong columns and give it another row's identity).
  func readIdentity() throws {
    // One call each (`sqlite3_column_int64`): a column value found and then read is two.
    let primaryKey = statement.int64(at: 0)
    let entityNumber = Int(statement.int64(at: 1))
    guard let entity = description.entity(number: entityNumber) else {
      throw PersistenceError.storeFailure(
        "row \(primaryKey) of \(tableName) has Z_ENT \(entityNumber), which is no entity of the model")
    }
    guard entity == commonEntity || description.statements[entity.index].tableName == tableName else {
      throw PersistenceError.storeFailure(
        "row \(primaryKey) of \(tableName) has Z_ENT \(entityNumber), the number of "
          + "\(description.layouts[entity].name), whose rows are in \(description.statements[entity.index].tableName): "
          + "the row is damaged; correct its Z_ENT or remove it")
    }
    objectID = ObjectID(entity: entity, primaryKey: primaryKey)
    version = statement.int64(at: 2)
  }

  /// The row's values.
  func decode() throws -> StoredRow {
    let entity = objectID.entity
    if entity == commonEntity {
      return try commonDecoder.decode(
        statement, objectID: objectID, version: version, layout: commonLayout, description: description,
        tableName: tableName, into: &valueRows)
    }
    return try description.statements[entity.index].decoder.decode(
      statement, objectID: objectID, version: version, layout: description.layouts[entity], description: description,
      tableName: tableName, into: &valueRows)
  }
}
