/// The output formats of `modelc check`.
public enum ReportFormat: String, Sendable, Hashable, CaseIterable {
  /// Compiler-style lines, then a summary.
  case text
  /// `{"findings": […], "summary": {…}}`.
  case json
  /// SARIF 2.1.0, for code-scanning services.
  case sarif
  /// GitHub Actions workflow commands, which annotate the pull request.
  case github
  /// A pull-request comment: a summary, the findings, and the diagram.
  case markdown

  /// Renders a report in this format.
  public func render(_ report: CheckReport, strict: Bool) -> String {
    switch self {
    case .text: TextReport.render(report, strict: strict)
    case .json: JSONReport.render(report, strict: strict)
    case .sarif: SARIFReport.render(report)
    case .github: GitHubReport.render(report, strict: strict)
    case .markdown: MarkdownReport.render(report, strict: strict)
    }
  }
}

extension CheckReport {
  /// `2 errors, 1 warning, 0 notes`.
  var countsSentence: String {
    func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    return [plural(count(.error), "error"), plural(count(.warning), "warning"), plural(count(.note), "note")]
      .joined(separator: ", ")
  }

  /// What was checked: `1 model, 2 steps, 1 store, against origin/main; 3 findings ignored`.
  var scopeSentence: String {
    func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
    var parts = [plural(models.count, "model"), plural(stepCount, "step")]
    if !stores.isEmpty { parts.append(plural(stores.count, "store")) }
    var sentence = parts.joined(separator: ", ")
    if let against { sentence += ", against \(against)" }
    if ignoredCount > 0 { sentence += "; \(plural(ignoredCount, "finding")) ignored by the configuration" }
    return sentence
  }

  /// `passed` or `failed`.
  func verdict(strict: Bool) -> String { fails(strict: strict) ? "failed" : "passed" }
}
