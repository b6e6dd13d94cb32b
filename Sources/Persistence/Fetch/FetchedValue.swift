/// One value of a dictionary result (``ObjectContext/fetchDictionaries(_:)``): an attribute's
/// value, or the ID of a to-one relationship's destination.
///
/// As in Core Data's dictionary results, a property whose value is nil has no key at all.
public enum FetchedValue: Sendable, Hashable, CustomStringConvertible {
  /// An attribute's value.
  case attribute(AttributeValue)
  /// A to-one relationship's destination.
  case object(ObjectID)

  /// The attribute value, or nil for an object ID.
  public var attributeValue: AttributeValue? {
    if case .attribute(let value) = self { return value }
    return nil
  }

  /// The object ID, or nil for an attribute value.
  public var objectID: ObjectID? {
    if case .object(let id) = self { return id }
    return nil
  }

  public var description: String {
    switch self {
    case .attribute(let value): "\(value)"
    case .object(let id): "\(id)"
    }
  }
}
