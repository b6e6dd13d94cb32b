import DataModel
import Foundation
import Persistence

/// What a mapping expression evaluates to in the object path of a heavyweight migration, and
/// what a migration policy's functions take and return.
///
/// Core Data's expressions yield any object (`NSString`, `NSSet` of managed objects, …); a
/// migration here yields one of these cases, which say what the value can be used for: an
/// attribute's value, a to-one relationship's object, or a to-many relationship's objects.
public enum MigrationValue: CustomStringConvertible {
  /// No value (`nil`).
  case null
  /// An attribute value.
  case attribute(AttributeValue)
  /// One object (of the source or the destination store).
  case object(ManagedObject)
  /// Objects, in order (a to-many relationship, or what `destinationInstances…` returns).
  case objects([ManagedObject])
  /// Several values that are not objects (a collection operator's operands, an aggregate).
  case list([MigrationValue])

  /// The value as an optional attribute value (an object is not one).
  public var attributeValue: AttributeValue? {
    if case .attribute(let value) = self { return value }
    return nil
  }

  /// The objects the value holds: none, one, or all of them.
  public var managedObjects: [ManagedObject] {
    switch self {
    case .object(let object): [object]
    case .objects(let objects): objects
    case .list(let values): values.flatMap(\.managedObjects)
    case .null, .attribute: []
    }
  }

  /// Whether the value is `nil`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// A string, when the value is one.
  public var string: String? {
    if case .attribute(.string(let text)) = self { return text }
    return nil
  }

  /// A Boolean: a Boolean attribute value, or a number (non-zero is true); nil otherwise.
  public var bool: Bool? {
    switch self {
    case .attribute(.boolean(let flag)): flag
    case .attribute(let value): value.numericValue.map { $0 != 0 }
    default: nil
    }
  }

  public var description: String {
    switch self {
    case .null: "nil"
    case .attribute(let value): value.description
    case .object(let object): "\(object.entityName) \(object.objectID)"
    case .objects(let objects): "[\(objects.map { "\($0.entityName) \($0.objectID)" }.joined(separator: ", "))]"
    case .list(let values): "[\(values.map(\.description).joined(separator: ", "))]"
    }
  }
}

extension AttributeValue {
  /// The value converted to store in an attribute of `type`, with the conversions a constant
  /// of a mapping gets (numbers ↔ Booleans, text → numbers, …); the value itself when it is of
  /// that type already.
  ///
  /// - Throws: ``MappingConstantError`` when it cannot be stored in such an attribute.
  public func converted(to type: AttributeType) throws(MappingConstantError) -> AttributeValue? {
    switch (self, type) {
    case (.integer, .integer16), (.integer, .integer32), (.integer, .integer64), (.decimal, .decimal),
      (.double, .double), (.float, .float), (.string, .string), (.boolean, .boolean), (.date, .date),
      (.binary, .binary), (.uuid, .uuid), (.uri, .uri), (_, .transformable), (_, .undefined), (_, .objectID),
      (_, .composite):
      return self
    default:
      break
    }
    let constant: MappingExpression.Constant
    switch self {
    case .integer(let value): constant = .integer(value)
    case .decimal(let value): constant = .string(value.description)
    case .double(let value): constant = .double(value)
    case .float(let value): constant = .double(Double(value))
    case .string(let text): constant = .string(text)
    case .boolean(let flag): constant = .bool(flag)
    case .date(let date): constant = .date(date)
    case .binary(let data): constant = .data(data)
    case .uuid(let uuid): constant = .string(uuid.uuidString)
    case .uri(let url): constant = .string(url.absoluteString)
    }
    return try constant.attributeValue(for: type)
  }
}
