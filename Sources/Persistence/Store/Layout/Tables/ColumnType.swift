import DataModel

/// The declared type of a column in a Core Data SQLite store, spelled exactly as Core Data writes
/// it in `CREATE TABLE`.
///
/// SQLite only derives an affinity from these names (INTEGER, REAL for `FLOAT` and `TIMESTAMP`,
/// NUMERIC for `DECIMAL`, TEXT for `VARCHAR`, BLOB), but the spelling is part of the store's shape:
/// a store written here must read back with the same `sqlite_master` text as one Core Data wrote.
public enum ColumnType: String, Sendable, Hashable, CaseIterable {
  /// Integers, Booleans (0/1), primary keys, foreign keys, entity numbers and ordering keys.
  case integer = "INTEGER"
  /// `Double` and `Float` attributes (REAL affinity).
  case float = "FLOAT"
  /// `Date` attributes: seconds since 2001-01-01 00:00:00 UTC as a REAL.
  case timestamp = "TIMESTAMP"
  /// `String` and `URI` attributes, and `Z_PRIMARYKEY.Z_NAME`.
  case varchar = "VARCHAR"
  /// `Binary`, `UUID` and `Transformable` attributes, and the metadata and model-cache blobs.
  case blob = "BLOB"
  /// `Decimal` attributes (NUMERIC affinity).
  case decimal = "DECIMAL"
  /// Only `Z_METADATA.Z_UUID`, which Core Data declares with a length.
  case varchar255 = "VARCHAR(255)"

  /// The column type Core Data gives an attribute of this type, or nil when the type has no
  /// column (`Undefined`, `ObjectID`) or is stored as several columns (`Composite`).
  public init?(attributeType: AttributeType) {
    switch attributeType {
    case .integer16, .integer32, .integer64, .boolean: self = .integer
    case .double, .float: self = .float
    case .date: self = .timestamp
    case .decimal: self = .decimal
    case .string, .uri: self = .varchar
    case .binary, .uuid, .transformable: self = .blob
    case .undefined, .objectID, .composite: return nil
    }
  }
}
