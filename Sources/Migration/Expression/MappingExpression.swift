import DataModel
import Persistence

/// The value of a destination property, computed from the source object.
///
/// These are the expressions Core Data's mapping models use (`$source.title`, a constant,
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:", …)`), as a
/// closed set the engine can run in SQL, and printed in NSExpression syntax for people.
public indirect enum MappingExpression: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The value of a source attribute, or of an attribute reached through to-one relationships
  /// (`$source.name`, `$source.project.name`).
  case sourceValue(keyPath: String)
  /// A constant; nil is NULL.
  case constant(AttributeValue?)
  /// The destination objects made by another entity mapping from the source objects of a
  /// relationship: how relationships are carried over.
  case destinationInstances(entityMapping: String, sourceRelationship: String)
  /// A named conversion applied to arguments (`FUNCTION(…)`), for hand-written mappings:
  /// `coalesce`, `string`, `integer`, `double`, `lowercase`, `uppercase`, `trim`.
  case function(name: String, arguments: [MappingExpression])

  public var description: String {
    switch self {
    case .sourceValue(let keyPath):
      return "$source.\(keyPath)"
    case .constant(let value):
      guard let value else { return "nil" }
      switch value {
      case .string(let string): return "\"\(string.replacingOccurrences(of: "\"", with: "\\\""))\""
      default: return value.description
      }
    case .destinationInstances(let mapping, let relationship):
      return
        "FUNCTION($manager, \"destinationInstancesForEntityMappingNamed:sourceInstances:\", \"\(mapping)\", $source.\(relationship))"
    case .function(let name, let arguments):
      return "FUNCTION(\"\(name)\"\(arguments.map { ", \($0)" }.joined()))"
    }
  }
}
