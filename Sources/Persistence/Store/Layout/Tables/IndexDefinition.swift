/// An index of a Core Data store, able to print the exact `CREATE INDEX` text Core Data writes.
public struct IndexDefinition: Sendable, Hashable {
  /// Why the index exists; this also decides its name.
  public enum Kind: Sendable, Hashable {
    /// On a to-one foreign-key column: `ZTASK_ZPROJECT_INDEX`.
    case foreignKey
    /// The secondary index of a join table: `Z_1FAVORITES_Z_1FAVORITES_INDEX`.
    case joinTable
    /// A property flagged as indexed (legacy `indexed="YES"`, or the only ascending element of a
    /// fetch index): `Z_<Entity>_<property>`.
    case indexedProperty
    /// A legacy compound index: `Z_<Entity>_<property>_<property>…`.
    case compound
    /// A fetch index: `Z_<Entity>_<indexName>`.
    case fetchIndex
    /// A uniqueness constraint: `Z_<Entity>_UNIQUE_<property>_<property>…`.
    case uniquenessConstraint
  }

  /// The index name.
  public let name: String
  /// The indexed table.
  public let table: String
  /// The indexed columns, in order.
  public let columns: [IndexColumn]
  /// Whether the index is `UNIQUE` (uniqueness constraints only).
  public let isUnique: Bool
  /// Why the index exists.
  public let kind: Kind

  /// Describes an index.
  public init(name: String, table: String, columns: [IndexColumn], isUnique: Bool = false, kind: Kind) {
    self.name = name
    self.table = table
    self.columns = columns
    self.isUnique = isUnique
    self.kind = kind
  }

  /// The `CREATE INDEX` statement, as Core Data writes it (no trailing semicolon).
  public func createStatement() -> String {
    let head = isUnique ? "CREATE UNIQUE INDEX" : "CREATE INDEX"
    let elements = columns.map(\.definitionText).joined(separator: ", ")
    return "\(head) \(StoreIdentifier.sql(name)) ON \(StoreIdentifier.sql(table)) (\(elements))"
  }
}
