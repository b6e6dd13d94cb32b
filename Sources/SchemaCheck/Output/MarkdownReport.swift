/// A summary for a pull-request comment: the verdict and counts, a table of the findings, and
/// the diagram of each model's change below it (Mermaid, which GitHub and GitLab draw).
public enum MarkdownReport {
  public static func render(_ report: CheckReport, strict: Bool) -> String {
    let passed = !report.fails(strict: strict)
    var lines = [
      "## modelc check: \(passed ? "passed" : "failed")",
      "",
      "\(report.countsSentence) (\(report.scopeSentence)).",
    ]
    if !report.findings.isEmpty {
      lines += ["", "| Severity | Rule | Where | Finding |", "|---|---|---|---|"]
      for finding in report.findings {
        let place = finding.location.map { "`\(cell($0.file)):\($0.line):\($0.column)`" } ?? ""
        lines.append(
          "| \(finding.severity.rawValue) | `\(finding.rule)` | \(place) | \(cell(finding.message))<br>*Fix:* \(cell(finding.help)) |"
        )
      }
    }
    for diagram in report.diagrams {
      lines += [
        "", "<details open><summary>\(cell(diagram.model)): \(cell(diagram.title))</summary>", "", "```mermaid",
      ]
      lines.append(diagram.mermaid.hasSuffix("\n") ? String(diagram.mermaid.dropLast()) : diagram.mermaid)
      lines += ["```", "", "</details>"]
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// Text safe inside a table cell.
  private static func cell(_ text: String) -> String {
    text.replacingOccurrences(of: "|", with: "\\|").replacingOccurrences(of: "\n", with: " ")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
  }
}
