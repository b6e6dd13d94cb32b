import DataModel

/// The groups Core Data's column order is made of.
///
/// A root table lists `Z_PK, Z_ENT, Z_OPT`, then one group after the other; inside a group the
/// entities of the hierarchy follow in numbering order, and each entity's own properties are in
/// name order (ordinal, case-sensitive). The groups are not SQL types: `FLOAT` and `TIMESTAMP`
/// share one, and `URI` (a `VARCHAR`) sorts with the BLOB-backed types. Evidence: LoopKit and
/// Bookmarks stores, plus Apple's Contacts, CallHistory and MoneyWell schemas
/// (`docs/store-format.md`, rule 2).
enum StorageGroup: Int, Comparable, CaseIterable {
  /// Integer and Boolean attributes, then to-one foreign keys (each followed by its entity
  /// column), then the to-ones' `Z_FOK_` ordering columns.
  case integers
  /// Double, Float and Date attributes, interleaved by name.
  case reals
  /// Decimal attributes.
  case decimals
  /// String attributes.
  case strings
  /// Binary, Transformable, UUID and URI attributes, interleaved by name.
  case objects

  /// The group of an attribute type; nil for types without a column.
  init?(attributeType: AttributeType) {
    switch attributeType {
    case .integer16, .integer32, .integer64, .boolean: self = .integers
    case .double, .float, .date: self = .reals
    case .decimal: self = .decimals
    case .string: self = .strings
    case .binary, .transformable, .uuid, .uri: self = .objects
    case .undefined, .objectID, .composite: return nil
    }
  }

  static func < (lhs: StorageGroup, rhs: StorageGroup) -> Bool { lhs.rawValue < rhs.rawValue }
}
