/// A dotted key path such as `project.name`: the names of the keys to follow, in order.
///
/// Key paths name attributes and relationships of the entity being fetched. A key path is
/// written in a format string as identifiers joined by dots; a key that is a reserved word of the
/// predicate grammar (such as `size` or `first`; see ``PredicateKeywords``) is written with a `#`
/// in front (`#size`), exactly as NSPredicate requires, and ``description`` adds that escape.
///
/// It can be written as a string literal: `let path: PredicateKeyPath = "project.name"`.
public struct PredicateKeyPath: Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
  /// The keys, in the order they are followed (`["project", "name"]`).
  public var components: [String]

  /// Creates a key path from its keys.
  public init(_ components: [String]) {
    self.components = components
  }

  /// Creates a key path by splitting a dotted string (`"project.name"`) at its dots.
  public init(_ dotted: String) {
    self.components = dotted.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
  }

  /// Creates a key path from a dotted string literal.
  public init(stringLiteral value: String) {
    self.init(value)
  }

  /// The key path with its keys joined by dots and no escaping (`project.name`), as KVC spells it.
  public var dotted: String { components.joined(separator: ".") }

  /// This key path followed by the keys of another one.
  public func appending(_ other: PredicateKeyPath) -> PredicateKeyPath {
    PredicateKeyPath(components + other.components)
  }

  /// The key path as it is written in a format string: dotted, with reserved words escaped by `#`.
  public var description: String {
    components.map(PredicateKeywords.escapedIdentifier).joined(separator: ".")
  }
}
