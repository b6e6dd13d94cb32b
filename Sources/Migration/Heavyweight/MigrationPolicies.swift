/// The migration policy classes a program provides, looked up by the class names its mapping
/// models write (`entityMigrationPolicyClassName`).
///
/// Xcode writes the name with the app's module (`MyApp.TaskPolicy`), sometimes with a
/// placeholder module (`REPLACE_AT_RUNTIME.TaskPolicy`), sometimes bare: a registered type is
/// found under its own name by each of them.
///
/// ```swift
/// var policies = MigrationPolicies()
/// policies.register(TaskPolicy.self)               // "TaskPolicy", "MyApp.TaskPolicy", …
/// policies.register(LegacyPolicy.self, as: "OldNameOfThePolicy")
/// ```
public struct MigrationPolicies: @unchecked Sendable {
  // Metatypes of an open class are immutable values; the dictionary is only mutated through
  // `register`, on a value the caller owns.
  private var types: [String: EntityMigrationPolicy.Type] = [:]

  public init() {}

  /// Registers a policy class under its own name (the name without its module).
  public mutating func register(_ type: EntityMigrationPolicy.Type) {
    types[Self.unqualified(String(describing: type))] = type
  }

  /// Registers a policy class under `name` (with or without a module prefix).
  public mutating func register(_ type: EntityMigrationPolicy.Type, as name: String) {
    types[Self.unqualified(name)] = type
  }

  /// The names registered, sorted.
  public var registeredNames: [String] { types.keys.sorted() }

  /// The policy class for a class name as a mapping model writes it, or nil.
  public func policyType(forClassName name: String) -> EntityMigrationPolicy.Type? {
    types[name] ?? types[Self.unqualified(name)]
  }

  /// `Module.Name` → `Name`; a nested name keeps its last component.
  static func unqualified(_ name: String) -> String {
    String(name.split(separator: ".").last ?? Substring(name))
  }
}
