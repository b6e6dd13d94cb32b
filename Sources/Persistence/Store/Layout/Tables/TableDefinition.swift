import DataModel

/// A table of a Core Data store, able to print the exact `CREATE TABLE` text Core Data writes.
///
/// Core Data writes two spellings: entity and join tables pad their parentheses
/// (`CREATE TABLE ZTASK ( Z_PK INTEGER PRIMARY KEY, … )`), while its bookkeeping tables do not
/// (`CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, …)`). ``kind`` selects the spelling,
/// so the text in `sqlite_master` equals Core Data's byte for byte.
public struct TableDefinition: Sendable, Hashable {
  /// What the table holds.
  public enum Kind: Sendable, Hashable {
    /// The table of one root entity and all its sub-entities (`ZTASK`).
    case entity(root: EntityID)
    /// A join table of a to-many relationship (`Z_1FAVORITES`).
    case join
    /// `Z_PRIMARYKEY`, `Z_METADATA` or `Z_MODELCACHE`.
    case bookkeeping
  }

  /// The table name.
  public let name: String
  /// What the table holds.
  public let kind: Kind
  /// The columns, in Core Data's order.
  public let columns: [ColumnDefinition]
  /// The primary key columns: `["Z_PK"]` for entity tables, the two key columns of a join table.
  public let primaryKey: [String]
  /// ``createStatement()``'s text, printed once: every open of a store compares it with the
  /// store's (``StoreSchema/isLaidOutAsDerived(tableStatements:)``).
  private let statement: String

  /// Describes a table. The primary key defaults to the columns flagged
  /// ``ColumnDefinition/isPrimaryKey``.
  public init(name: String, kind: Kind, columns: [ColumnDefinition], primaryKey: [String]? = nil) {
    self.name = name
    self.kind = kind
    self.columns = columns
    let primaryKey = primaryKey ?? columns.filter(\.isPrimaryKey).map(\.name)
    self.primaryKey = primaryKey
    self.statement = Self.printStatement(name: name, kind: kind, columns: columns, primaryKey: primaryKey)
  }

  /// The column with this name.
  public func column(named name: String) -> ColumnDefinition? {
    columns.first { $0.name == name }
  }

  /// The `CREATE TABLE` statement, as Core Data writes it (no trailing semicolon).
  public func createStatement() -> String { statement }

  private static func printStatement(name: String, kind: Kind, columns: [ColumnDefinition], primaryKey: [String])
    -> String
  {
    var parts = columns.map(\.definitionText)
    let hasInlineKey = columns.contains(where: \.isPrimaryKey)
    if !hasInlineKey && !primaryKey.isEmpty {
      parts.append("PRIMARY KEY (\(primaryKey.map(StoreIdentifier.sql).joined(separator: ", ")))")
    }
    let body = parts.joined(separator: ", ")
    switch kind {
    case .bookkeeping:
      return "CREATE TABLE \(StoreIdentifier.sql(name)) (\(body))"
    case .entity, .join:
      return "CREATE TABLE \(StoreIdentifier.sql(name)) ( \(body) )"
    }
  }
}
