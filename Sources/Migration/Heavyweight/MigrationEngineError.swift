import Foundation

/// Why a heavyweight migration step stopped; the store is left as it was.
public enum MigrationEngineError: Error, Sendable, CustomStringConvertible {
  /// A mapping names a policy class the program did not register.
  case missingPolicy(className: String, entityMappings: [String], registered: [String])
  /// A `$entityPolicy` function the policy does not handle.
  case unhandledFunction(String, policy: String, entityMapping: String)
  /// An expression cannot be evaluated (a missing key, a function modelc does not know, …).
  case expression(entityMapping: String, property: String?, object: String?, detail: String)
  /// A value cannot be stored in the property it is mapped to.
  case value(entityMapping: String, entity: String, object: String, property: String, detail: String)
  /// A policy threw.
  case policy(entityMapping: String, policy: String, stage: String, object: String?, error: String)
  /// Destination objects break the destination model's rules.
  case validation([String], total: Int)
  /// The mapping does not fit the store or the model.
  case mapping(String)
  /// The finished file failed a check before it was swapped in.
  case verification(String)

  public var description: String {
    switch self {
    case .missingPolicy(let name, let mappings, let registered):
      let known = registered.isEmpty ? "none is registered" : "registered: \(registered.joined(separator: ", "))"
      return
        "entity mapping\(mappings.count == 1 ? "" : "s") \(mappings.map { "'\($0)'" }.joined(separator: ", ")) name\(mappings.count == 1 ? "s" : "") the migration policy class '\(name)', which this program does not provide (\(known)); register a subclass of EntityMigrationPolicy under that name with MigrationPolicies.register(_:as:) and migrate through the library (see docs/migrations.md)"
    case .unhandledFunction(let name, let policy, let mapping):
      return
        "entity mapping '\(mapping)' calls FUNCTION($entityPolicy, \"\(name)\"), which policy \(policy) does not handle; override evaluateFunction(named:arguments:manager:) and return its value for \"\(name)\""
    case .expression(let mapping, let property, let object, let detail):
      return
        "entity mapping '\(mapping)'\(property.map { ", property '\($0)'" } ?? "")\(object.map { ", source object \($0)" } ?? ""): \(detail)"
    case .value(let mapping, let entity, let object, let property, let detail):
      return "entity mapping '\(mapping)': \(entity).\(property) of \(object): \(detail)"
    case .policy(let mapping, let policy, let stage, let object, let error):
      return
        "the migration policy \(policy) of entity mapping '\(mapping)' failed in \(stage)\(object.map { " for \($0)" } ?? ""): \(error)"
    case .validation(let failures, let total):
      var text =
        "\(total) destination object\(total == 1 ? "" : "s") break\(total == 1 ? "s" : "") the model's rules; the migration was refused:\n"
      text += failures.map { "  \($0)" }.joined(separator: "\n")
      if total > failures.count { text += "\n  … and \(total - failures.count) more" }
      return text
    case .mapping(let detail):
      return detail
    case .verification(let detail):
      return "the migrated store failed its check before replacing the original (nothing was changed): \(detail)"
    }
  }
}
