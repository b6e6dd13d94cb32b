/// One kind of problem `modelc check` finds, with a stable identifier that configuration files,
/// SARIF consumers and CI annotations refer to.
///
/// Every rule is documented in `docs/rules.md` with a change that triggers it and the fix; a test
/// keeps that page and ``RuleCatalogue/all`` in agreement.
public struct CheckRule: Sendable, Hashable, Codable {
  /// The stable identifier (`step-not-inferable`); never renamed once released.
  public var id: String
  /// The severity findings of this rule have unless the configuration changes it.
  public var defaultSeverity: FindingSeverity
  /// One sentence: what the rule finds.
  public var shortDescription: String
  /// Why it matters and how to fix it, in general terms (each finding carries its own help).
  public var help: String

  public init(id: String, defaultSeverity: FindingSeverity, shortDescription: String, help: String) {
    self.id = id
    self.defaultSeverity = defaultSeverity
    self.shortDescription = shortDescription
    self.help = help
  }
}
