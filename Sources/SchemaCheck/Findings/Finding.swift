import DataModel

/// One problem `modelc check` found: a rule, a severity, where it is and how to fix it.
///
/// The location is the XML element concerned: in a version's `contents` for model findings, in
/// a mapping's `xcmapping.xml` for mapping findings. Findings about a whole version point at its
/// `<model>` element; findings about a store's data point at the element of the later version
/// whose rule the data breaks.
public struct Finding: Sendable, Hashable, Codable {
  /// The rule's stable identifier (``CheckRule/id``).
  public var rule: String
  /// The severity after configuration.
  public var severity: FindingSeverity
  /// The file, line and column of the element concerned, when there is one.
  public var location: SourceLocation?
  /// One line saying what is wrong.
  public var message: String
  /// How to fix it.
  public var help: String
  /// The model bundle's path, as found or given.
  public var model: String?
  /// The older version of the step concerned (or the version concerned).
  public var fromVersion: String?
  /// The newer version of the step concerned.
  public var toVersion: String?
  /// The entity concerned.
  public var entity: String?
  /// The property concerned.
  public var property: String?

  public init(
    rule: CheckRule, message: String, help: String, location: SourceLocation?, model: String? = nil,
    fromVersion: String? = nil, toVersion: String? = nil, entity: String? = nil, property: String? = nil
  ) {
    self.rule = rule.id
    self.severity = rule.defaultSeverity
    self.location = location
    self.message = message
    self.help = help
    self.model = model
    self.fromVersion = fromVersion
    self.toVersion = toVersion
    self.entity = entity
    self.property = property
  }

  /// The order reports list findings in: by file, line and column (findings without a location
  /// last), then by every other field, so output is the same from run to run.
  static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
    let left = (lhs.location?.file ?? "\u{10FFFF}", lhs.location?.line ?? 0, lhs.location?.column ?? 0)
    let right = (rhs.location?.file ?? "\u{10FFFF}", rhs.location?.line ?? 0, rhs.location?.column ?? 0)
    if left != right { return left < right }
    return lhs.sortKey.lexicographicallyPrecedes(rhs.sortKey)
  }

  private var sortKey: [String] {
    [
      rule, message, help, model ?? "", fromVersion ?? "", toVersion ?? "", entity ?? "", property ?? "",
      severity.rawValue,
    ]
  }
}
