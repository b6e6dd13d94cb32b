import DataModel

/// Where one persistent attribute of an entity is stored: its column in the root entity's table.
public struct AttributeColumn: Sendable, Hashable {
  /// The attribute's name; for a member of a Composite attribute, the key path
  /// `attribute.member` (`address.street`).
  public let name: String
  /// The attribute as declared (on this entity or an ancestor); for a composite member, the
  /// Composite attribute that holds it.
  public let attribute: AttributeID
  /// The column name: `Z` + the uppercased name, with a numeric suffix when another property of
  /// the same table took the name first (`ZTITLE1`).
  public let column: String
  /// The column's declared type.
  public let columnType: ColumnType
  /// The attribute type (for a composite member, the member's type).
  public let attributeType: AttributeType
  /// How values are written into the column.
  public let encoding: ValueEncoding

  /// Describes an attribute's column.
  public init(
    name: String, attribute: AttributeID, column: String, columnType: ColumnType, attributeType: AttributeType,
    encoding: ValueEncoding
  ) {
    self.name = name
    self.attribute = attribute
    self.column = column
    self.columnType = columnType
    self.attributeType = attributeType
    self.encoding = encoding
  }
}
