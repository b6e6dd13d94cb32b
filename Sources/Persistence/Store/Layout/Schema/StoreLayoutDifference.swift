/// One place where an existing store's schema differs from the layout derived from its model.
///
/// Opening a store reads its tables and columns (``StoreSchema/adopting(existingTables:)``).
/// Where the store names a join table or a join column differently from the derivation and the
/// store's name is unambiguous, the store's name is used (``Kind/adoptedTable``,
/// ``Kind/adoptedColumn``); anything else that differs is reported as it is. `modelc store info`
/// lists them all.
public struct StoreLayoutDifference: Sendable, Hashable, Codable, CustomStringConvertible {
  /// What differs.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// A join table has another name in the store; the store's name is used.
    case adoptedTable
    /// A join-table column has another name in the store; the store's name is used.
    case adoptedColumn
    /// A derived table is not in the store.
    case missingTable
    /// A derived column is not in its table in the store.
    case missingColumn
    /// A table of the store is not in the derived layout.
    case extraTable
    /// A column of the store is not in the derived layout of its table.
    case extraColumn
  }

  /// What differs.
  public let kind: Kind
  /// The table: the derived name, or the store's for an extra table.
  public let table: String
  /// The column, for column differences: the derived name, or the store's for an extra column.
  public let column: String?
  /// The name the store uses instead, for adopted tables and columns.
  public let storeName: String?
  /// What the table is for (`join table of UserClient.trustedClients ⇄ trustedByClients`), when
  /// the layout knows.
  public let context: String?

  /// Describes a difference.
  public init(kind: Kind, table: String, column: String? = nil, storeName: String? = nil, context: String? = nil) {
    self.kind = kind
    self.table = table
    self.column = column
    self.storeName = storeName
    self.context = context
  }

  /// One line, naming the table and column and what modelc does about it.
  public var description: String {
    let about = context.map { " (\($0))" } ?? ""
    switch kind {
    case .adoptedTable:
      return "table \(table)\(about) is \(storeName ?? "?") in the store; the store's name is used"
    case .adoptedColumn:
      return "column \(column ?? "?") of \(table)\(about) is \(storeName ?? "?") in the store; the store's name is used"
    case .missingTable:
      return "table \(table)\(about) is not in the store"
    case .missingColumn:
      return "column \(column ?? "?") of \(table)\(about) is not in the store"
    case .extraTable:
      return "table \(table) of the store is not in the layout derived from the model"
    case .extraColumn:
      return "column \(column ?? "?") of \(table) in the store is not in the layout derived from the model"
    }
  }
}
