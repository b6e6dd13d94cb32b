/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=RULE::message`, which
/// annotate the lines of the pull request, then the summary as a plain line.
///
/// Errors are `::error`, warnings `::warning`, notes `::notice`. Values are escaped as the
/// runner expects (`%`, carriage return and newline everywhere; `:` and `,` in properties).
public enum GitHubReport {
  public static func render(_ report: CheckReport, strict: Bool) -> String {
    var lines: [String] = []
    for finding in report.findings {
      let command =
        switch finding.severity {
        case .error: "error"
        case .warning: "warning"
        case .note: "notice"
        }
      var properties: [String] = []
      if let location = finding.location {
        properties.append("file=\(property(location.file))")
        properties.append("line=\(location.line)")
        properties.append("col=\(location.column)")
      }
      properties.append("title=\(property(finding.rule))")
      lines.append("::\(command) \(properties.joined(separator: ","))::\(data("\(finding.message)\n\(finding.help)"))")
    }
    lines.append("modelc check: \(report.verdict(strict: strict)): \(report.countsSentence) (\(report.scopeSentence))")
    return lines.joined(separator: "\n") + "\n"
  }

  /// A message, escaped.
  public static func data(_ text: String) -> String {
    text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D")
      .replacingOccurrences(of: "\n", with: "%0A")
  }

  /// A property value, escaped.
  public static func property(_ text: String) -> String {
    data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
  }
}
