/// One element of an index of a Core Data store: a column, with the collation and direction
/// Core Data writes for model-declared indexes.
///
/// Indexes Core Data adds on its own (foreign keys, join tables) name bare columns
/// (`(ZPARENT)`); indexes from the model (fetch indexes, uniqueness constraints, indexed
/// properties) write `COLLATE BINARY ASC` or `COLLATE BINARY DESC` after each column.
public struct IndexColumn: Sendable, Hashable {
  /// The sort direction of a model-declared index element.
  public enum Order: String, Sendable, Hashable {
    /// `COLLATE BINARY ASC`.
    case ascending = "ASC"
    /// `COLLATE BINARY DESC`.
    case descending = "DESC"
  }

  /// The indexed column.
  public let column: String
  /// The direction, written with `COLLATE BINARY`; nil for a bare column.
  public let order: Order?

  /// Describes an index element.
  public init(column: String, order: Order? = nil) {
    self.column = column
    self.order = order
  }

  /// The element's text in `CREATE INDEX`: `ZPARENT` or `ZUUID COLLATE BINARY ASC`.
  public var definitionText: String {
    guard let order else { return StoreIdentifier.sql(column) }
    return "\(StoreIdentifier.sql(column)) COLLATE BINARY \(order.rawValue)"
  }
}
