/// One column of a table in a Core Data store: its name, declared type, and whether it is the
/// table's single-column `INTEGER PRIMARY KEY` (`Z_PK`, `Z_ENT` of `Z_PRIMARYKEY`, `Z_VERSION`).
public struct ColumnDefinition: Sendable, Hashable {
  /// The column name (`ZTITLE`, `Z_FOK_PARENT`, `Z_1FAVORITES`).
  public let name: String
  /// The declared type.
  public let type: ColumnType
  /// Whether the column is declared `PRIMARY KEY` on its own (rowid alias). Join tables declare a
  /// composite key instead, see ``TableDefinition/primaryKey``.
  public let isPrimaryKey: Bool

  /// Describes a column.
  public init(name: String, type: ColumnType, isPrimaryKey: Bool = false) {
    self.name = name
    self.type = type
    self.isPrimaryKey = isPrimaryKey
  }

  /// The column's text in `CREATE TABLE`: `Z_PK INTEGER PRIMARY KEY`, `ZTITLE VARCHAR`.
  public var definitionText: String {
    let text = "\(StoreIdentifier.sql(name)) \(type.rawValue)"
    return isPrimaryKey ? text + " PRIMARY KEY" : text
  }
}
