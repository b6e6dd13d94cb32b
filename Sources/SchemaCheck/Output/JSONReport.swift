import DataModel

/// `{"findings": [...], "summary": {...}}`, keys in a fixed order, for scripts.
public enum JSONReport {
  public static func render(_ report: CheckReport, strict: Bool) -> String {
    var root = JSONObjectBuilder()
    root.add(
      "findings",
      .array(
        report.findings.map { finding in
          var item = JSONObjectBuilder()
          item.add("rule", .string(finding.rule))
          item.add("severity", .string(finding.severity.rawValue))
          item.add("file", finding.location.map { .string($0.file) } ?? .null)
          item.add("line", finding.location.map { .integer($0.line) } ?? .null)
          item.add("column", finding.location.map { .integer($0.column) } ?? .null)
          item.add("message", .string(finding.message))
          item.add("help", .string(finding.help))
          item.add("model", finding.model.map(JSONValue.string) ?? .null)
          item.add("fromVersion", finding.fromVersion.map(JSONValue.string) ?? .null)
          item.add("toVersion", finding.toVersion.map(JSONValue.string) ?? .null)
          item.add("entity", finding.entity.map(JSONValue.string) ?? .null)
          item.add("property", finding.property.map(JSONValue.string) ?? .null)
          return item.value
        }))
    var summary = JSONObjectBuilder()
    summary.add("passed", .bool(!report.fails(strict: strict)))
    summary.add("errors", .integer(report.count(.error)))
    summary.add("warnings", .integer(report.count(.warning)))
    summary.add("notes", .integer(report.count(.note)))
    summary.add("ignored", .integer(report.ignoredCount))
    summary.add("models", .array(report.models.map(JSONValue.string)))
    summary.add("steps", .integer(report.stepCount))
    summary.add("stores", .array(report.stores.map(JSONValue.string)))
    summary.add("against", report.against.map(JSONValue.string) ?? .null)
    root.add("summary", summary.value)
    return JSONWriter.prettyPrinted(root.value)
  }
}
