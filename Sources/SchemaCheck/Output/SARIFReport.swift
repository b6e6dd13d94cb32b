import DataModel
import Foundation

/// SARIF 2.1.0 (OASIS Static Analysis Results Interchange Format), which GitHub code scanning
/// and other services read: one run whose tool lists every rule with its id, descriptions, help
/// and default level, and one result per finding with `ruleId`, `ruleIndex`, `level`,
/// `message.text` and its location — the file as a URI relative to the working directory
/// (`uriBaseId` `%SRCROOT%`) and the region's start line and column (Unicode code points).
public enum SARIFReport {
  /// The published JSON schema of SARIF 2.1.0.
  public static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

  public static func render(_ report: CheckReport, workingDirectory: String = FileManager.default.currentDirectoryPath)
    -> String
  {
    let rules = RuleCatalogue.all
    var driver = JSONObjectBuilder()
    driver.add("name", .string("modelc"))
    driver.add("fullName", .string("modelc check"))
    driver.add(
      "rules",
      .array(
        rules.map { rule in
          var descriptor = JSONObjectBuilder()
          descriptor.add("id", .string(rule.id))
          descriptor.add("name", .string(camelCase(rule.id)))
          descriptor.add("shortDescription", text(rule.shortDescription))
          descriptor.add("fullDescription", text(rule.shortDescription + " " + rule.help))
          descriptor.add("help", text(rule.help))
          var configuration = JSONObjectBuilder()
          configuration.add("level", .string(rule.defaultSeverity.rawValue))
          descriptor.add("defaultConfiguration", configuration.value)
          return descriptor.value
        }))
    var tool = JSONObjectBuilder()
    tool.add("driver", driver.value)
    let results: [JSONValue] = report.findings.map { finding in
      var result = JSONObjectBuilder()
      result.add("ruleId", .string(finding.rule))
      if let index = rules.firstIndex(where: { $0.id == finding.rule }) { result.add("ruleIndex", .integer(index)) }
      result.add("level", .string(finding.severity.rawValue))
      result.add("message", text("\(finding.message)\n\(finding.help)"))
      if let location = finding.location {
        var artifact = JSONObjectBuilder()
        let (uri, isRelative) = self.uri(location.file, workingDirectory: workingDirectory)
        artifact.add("uri", .string(uri))
        if isRelative { artifact.add("uriBaseId", .string("%SRCROOT%")) }
        var region = JSONObjectBuilder()
        region.add("startLine", .integer(location.line))
        region.add("startColumn", .integer(location.column))
        var physical = JSONObjectBuilder()
        physical.add("artifactLocation", artifact.value)
        physical.add("region", region.value)
        var wrapper = JSONObjectBuilder()
        wrapper.add("physicalLocation", physical.value)
        result.add("locations", .array([wrapper.value]))
      }
      var properties = JSONObjectBuilder()
      properties.add("model", finding.model)
      properties.add("fromVersion", finding.fromVersion)
      properties.add("toVersion", finding.toVersion)
      properties.add("entity", finding.entity)
      properties.add("property", finding.property)
      if !properties.pairs.isEmpty { result.add("properties", properties.value) }
      return result.value
    }
    var run = JSONObjectBuilder()
    run.add("tool", tool.value)
    run.add("columnKind", .string("unicodeCodePoints"))
    run.add("results", .array(results))
    var root = JSONObjectBuilder()
    root.add("$schema", .string(schemaURI))
    root.add("version", .string("2.1.0"))
    root.add("runs", .array([run.value]))
    return JSONWriter.prettyPrinted(root.value)
  }

  private static func text(_ string: String) -> JSONValue {
    .object([(key: "text", value: .string(string))])
  }

  /// `step-not-inferable` → `StepNotInferable`, SARIF's human-readable rule name.
  private static func camelCase(_ id: String) -> String {
    id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
  }

  /// A file as a URI: relative to the working directory when it is inside it (percent-encoded),
  /// else an absolute `file://` URI.
  static func uri(_ file: String, workingDirectory: String) -> (String, isRelative: Bool) {
    var path = file
    if path.hasPrefix("/") {
      let base = workingDirectory.hasSuffix("/") ? workingDirectory : workingDirectory + "/"
      guard path.hasPrefix(base) else { return ("file://" + encode(path), false) }
      path = String(path.dropFirst(base.count))
    }
    while path.hasPrefix("./") { path.removeFirst(2) }
    return (encode(path), true)
  }

  private static func encode(_ path: String) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~/!$&'()*+,;=:@")
    return path.addingPercentEncoding(withAllowedCharacters: allowed) ?? path
  }
}
