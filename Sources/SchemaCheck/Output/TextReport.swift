/// Compiler-style lines, one per finding with its rule id, its help as a `note:` line, then a
/// summary: what editors and CI logs turn into links.
///
///     Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents:9:9: error: attribute 'Task.due' … [required-without-default]
///     Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents:9:9: note: add defaultValueString="…" …
///     modelc check: failed: 1 error, 0 warnings, 0 notes (1 model, 2 steps)
public enum TextReport {
  public static func render(_ report: CheckReport, strict: Bool) -> String {
    var lines: [String] = []
    for finding in report.findings {
      let prefix = finding.location.map { "\($0): " } ?? ""
      lines.append("\(prefix)\(finding.severity.rawValue): \(finding.message) [\(finding.rule)]")
      for line in finding.help.split(separator: "\n") {
        lines.append("\(prefix)note: \(line)")
      }
    }
    lines.append("modelc check: \(report.verdict(strict: strict)): \(report.countsSentence) (\(report.scopeSentence))")
    return lines.joined(separator: "\n") + "\n"
  }
}
