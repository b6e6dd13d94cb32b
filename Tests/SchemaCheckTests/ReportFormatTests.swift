import DataModel
import Foundation
import SchemaCheck
import Testing

/// The output formats: SARIF 2.1.0's required structure, GitHub workflow commands, the JSON
/// keys, compiler-style text, and Markdown.
struct ReportFormatTests {
  /// A report with a finding of each severity, one without a location, one in a path with a
  /// space and characters workflow commands must escape.
  static let report: CheckReport = {
    var note = Finding(
      rule: RuleCatalogue.notDowngradable, message: "cannot go back", help: "plan the rollback",
      location: SourceLocation(file: "Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents", line: 4, column: 9),
      model: "Models/Tasks.xcdatamodeld", fromVersion: "Tasks 2", toVersion: "Tasks 3", entity: "Task")
    note.severity = .note
    let error = Finding(
      rule: RuleCatalogue.requiredWithoutDefault, message: "attribute 'Task.due' was added, 100% required, a: b",
      help: "add a default\nor make it optional",
      location: SourceLocation(file: "Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents", line: 9, column: 9),
      model: "Models/Tasks.xcdatamodeld", fromVersion: "Tasks 2", toVersion: "Tasks 3", entity: "Task",
      property: "due")
    let warning = Finding(
      rule: RuleCatalogue.dataLoss, message: "entity 'Old' removed", help: "check it is not needed", location: nil,
      model: "Models/Tasks.xcdatamodeld")
    return CheckReport(
      findings: [warning, error, note], ignoredCount: 1, models: ["Models/Tasks.xcdatamodeld"], stepCount: 2,
      diagrams: [
        ReportDiagram(model: "Models/Tasks.xcdatamodeld", title: "'Tasks 2' → 'Tasks 3'", mermaid: "classDiagram\n")
      ])
  }()

  @Test func findingsAreInFileOrderWithUnlocatedLast() {
    #expect(Self.report.findings.map(\.rule) == ["not-downgradable", "required-without-default", "data-loss"])
  }

  @Test func sarifHasTheRequiredStructure() throws {
    let text = SARIFReport.render(Self.report, workingDirectory: "/work")
    let root = try JSONParser.parse(text)
    #expect(root["version"]?.stringValue == "2.1.0")
    #expect(root["$schema"]?.stringValue == SARIFReport.schemaURI)
    let runs = try #require(root["runs"]?.arrayValue)
    #expect(runs.count == 1)
    let driver = try #require(runs[0]["tool"]?["driver"])
    #expect(driver["name"]?.stringValue == "modelc")
    let rules = try #require(driver["rules"]?.arrayValue)
    let ruleIDs = rules.compactMap { $0["id"]?.stringValue }
    #expect(ruleIDs == RuleCatalogue.all.map(\.id))
    for rule in rules {
      #expect(rule["shortDescription"]?["text"]?.stringValue?.isEmpty == false)
      #expect(rule["help"]?["text"]?.stringValue?.isEmpty == false)
      #expect(["error", "warning", "note"].contains(rule["defaultConfiguration"]?["level"]?.stringValue ?? ""))
    }
    let results = try #require(runs[0]["results"]?.arrayValue)
    #expect(results.count == 3)
    for result in results {
      let id = try #require(result["ruleId"]?.stringValue)
      #expect(ruleIDs.contains(id))
      let index = try #require(result["ruleIndex"].flatMap { Int(JSONWriter.compact($0)) })
      #expect(ruleIDs[index] == id)
      #expect(["error", "warning", "note"].contains(result["level"]?.stringValue ?? ""))
      #expect(result["message"]?["text"]?.stringValue?.isEmpty == false)
    }
    let located = results[1]
    let physical = try #require(located["locations"]?.arrayValue?.first?["physicalLocation"])
    #expect(
      physical["artifactLocation"]?["uri"]?.stringValue == "Models/Tasks.xcdatamodeld/Tasks%203.xcdatamodel/contents")
    #expect(physical["artifactLocation"]?["uriBaseId"]?.stringValue == "%SRCROOT%")
    #expect(physical["region"]?["startLine"].map(JSONWriter.compact) == "9")
    #expect(physical["region"]?["startColumn"].map(JSONWriter.compact) == "9")
    #expect(results[2]["locations"] == nil)
  }

  @Test func sarifURIsAreRelativeToTheWorkingDirectory() throws {
    var finding = Self.report.findings[1]
    finding.location?.file = "/work/repo/Models/A.xcdatamodeld/A.xcdatamodel/contents"
    let inside = SARIFReport.render(CheckReport(findings: [finding]), workingDirectory: "/work/repo")
    #expect(inside.contains(#""uri": "Models/A.xcdatamodeld/A.xcdatamodel/contents""#))
    let outside = SARIFReport.render(CheckReport(findings: [finding]), workingDirectory: "/elsewhere")
    #expect(outside.contains(#""uri": "file:///work/repo/Models/A.xcdatamodeld/A.xcdatamodel/contents""#))
  }

  @Test func githubWorkflowCommandsAreEscaped() {
    let lines = GitHubReport.render(Self.report, strict: false).split(separator: "\n").map(String.init)
    #expect(
      lines[0]
        == "::notice file=Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents,line=4,col=9,title=not-downgradable::cannot go back%0Aplan the rollback"
    )
    #expect(
      lines[1]
        == "::error file=Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents,line=9,col=9,title=required-without-default::attribute 'Task.due' was added, 100%25 required, a: b%0Aadd a default%0Aor make it optional"
    )
    #expect(lines[2] == "::warning title=data-loss::entity 'Old' removed%0Acheck it is not needed")
    #expect(lines[3].hasPrefix("modelc check: failed: 1 error, 1 warning, 1 note"))
    #expect(GitHubReport.property("a:b,c") == "a%3Ab%2Cc")
  }

  @Test func jsonHasTheDocumentedKeys() throws {
    let root = try JSONParser.parse(JSONReport.render(Self.report, strict: false))
    let findings = try #require(root["findings"]?.arrayValue)
    let keys = try #require(findings[1].objectValue).map(\.key)
    #expect(
      keys == [
        "rule", "severity", "file", "line", "column", "message", "help", "model", "fromVersion", "toVersion",
        "entity", "property",
      ])
    #expect(findings[1]["rule"]?.stringValue == "required-without-default")
    #expect(findings[2]["file"] == .null)
    let summary = try #require(root["summary"])
    #expect(summary["passed"] == .bool(false))
    #expect(summary["errors"].map(JSONWriter.compact) == "1")
    #expect(summary["ignored"].map(JSONWriter.compact) == "1")
    #expect(JSONReport.render(Self.report, strict: false) == JSONReport.render(Self.report, strict: false))
  }

  @Test func textIsCompilerStyleWithASummary() {
    let lines = TextReport.render(Self.report, strict: true).split(separator: "\n").map(String.init)
    #expect(
      lines[2]
        == "Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents:9:9: error: attribute 'Task.due' was added, 100% required, a: b [required-without-default]"
    )
    #expect(lines[4] == "Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents:9:9: note: or make it optional")
    #expect(lines[5] == "warning: entity 'Old' removed [data-loss]")
    #expect(
      lines.last
        == "modelc check: failed: 1 error, 1 warning, 1 note (1 model, 2 steps; 1 finding ignored by the configuration)"
    )
  }

  @Test func markdownHasASummaryTableAndTheDiagram() {
    let text = MarkdownReport.render(Self.report, strict: false)
    #expect(text.hasPrefix("## modelc check: failed\n"))
    #expect(
      text.contains(
        "| error | `required-without-default` | `Models/Tasks.xcdatamodeld/Tasks 3.xcdatamodel/contents:9:9` |"))
    #expect(text.contains("```mermaid\nclassDiagram\n```"))
  }

  @Test func strictFailsOnWarnings() {
    let warningOnly = CheckReport(findings: Self.report.findings.filter { $0.severity != .error })
    #expect(!warningOnly.fails(strict: false))
    #expect(warningOnly.fails(strict: true))
    let noteOnly = CheckReport(findings: Self.report.findings.filter { $0.severity == .note })
    #expect(!noteOnly.fails(strict: true))
  }
}
