/// The outcome of `modelc check`: the findings that remain after configuration, and what was
/// looked at.
public struct CheckReport: Sendable, Hashable {
  /// The findings, in report order (file, line, column).
  public var findings: [Finding]
  /// How many findings an `ignore` entry of the configuration suppressed.
  public var ignoredCount: Int
  /// The model bundles checked, as found or given.
  public var models: [String]
  /// How many consecutive version steps were checked.
  public var stepCount: Int
  /// The stores whose data was checked.
  public var stores: [String]
  /// The git ref compared against, when `--against` was given.
  public var against: String?
  /// The diagrams to show under a Markdown summary: per model, the Mermaid text of its latest
  /// step (or of the change since `against`).
  public var diagrams: [ReportDiagram]

  public init(
    findings: [Finding], ignoredCount: Int = 0, models: [String] = [], stepCount: Int = 0, stores: [String] = [],
    against: String? = nil, diagrams: [ReportDiagram] = []
  ) {
    self.findings = findings.sorted(by: Finding.reportOrder)
    self.ignoredCount = ignoredCount
    self.models = models
    self.stepCount = stepCount
    self.stores = stores
    self.against = against
    self.diagrams = diagrams
  }

  /// How many findings have this severity.
  public func count(_ severity: FindingSeverity) -> Int {
    findings.filter { $0.severity == severity }.count
  }

  /// Whether the check fails: any error, or with `strict` any warning.
  public func fails(strict: Bool) -> Bool {
    findings.contains { $0.severity == .error || (strict && $0.severity == .warning) }
  }
}

/// A diagram shown under a Markdown summary.
public struct ReportDiagram: Sendable, Hashable {
  /// The model bundle's path.
  public var model: String
  /// What the diagram shows (`'Tasks 2' → 'Tasks 3'`).
  public var title: String
  /// The Mermaid text.
  public var mermaid: String

  public init(model: String, title: String, mermaid: String) {
    self.model = model
    self.title = title
    self.mermaid = mermaid
  }
}
