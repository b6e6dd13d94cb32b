import DataModel

/// An index declared in the model that the layout does not create, with the reason.
///
/// Expression elements and R-tree fetch indexes need SQL this layout cannot derive yet, and a
/// second index with a name already taken would make SQLite reject the schema; such indexes are
/// listed here instead of being guessed at.
public struct UnsupportedIndex: Sendable, Hashable {
  /// The entity that declares the index.
  public let entity: EntityID
  /// The index name it would have had (`Z_Task_byTitle`).
  public let name: String
  /// Why it is left out.
  public let reason: String

  /// Describes a left-out index.
  public init(entity: EntityID, name: String, reason: String) {
    self.entity = entity
    self.name = name
    self.reason = reason
  }
}
