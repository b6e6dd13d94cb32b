import DataModel
import SchemaCheck
import Testing

/// `.modelc.json`: severities per rule (including off), ignores that need a reason, and clear
/// errors for every mistake.
struct ConfigurationTests {
  static let findings = [
    Finding(
      rule: RuleCatalogue.dataLoss, message: "a", help: "", location: nil, model: "Models/Tasks.xcdatamodeld",
      fromVersion: "Tasks 2", toVersion: "Tasks 3", entity: "Task", property: "notes"),
    Finding(
      rule: RuleCatalogue.possibleRename, message: "b", help: "", location: nil, model: "Models/Other.xcdatamodeld",
      fromVersion: "Other", toVersion: "Other 2", entity: "Item", property: "name"),
    Finding(
      rule: RuleCatalogue.notDowngradable, message: "c", help: "", location: nil, model: "Models/Tasks.xcdatamodeld",
      fromVersion: "Tasks 2", toVersion: "Tasks 3"),
  ]

  @Test func severitiesAndIgnoresApply() throws {
    let configuration = try CheckConfiguration.parse(
      """
      {
        "rules": {"possible-rename": "error", "not-downgradable": "off"},
        "ignore": [{"rule": "data-loss", "model": "Tasks", "version": "Tasks 3", "reason": "notes were never used"}]
      }
      """, path: ".modelc.json")
    let (kept, ignored) = configuration.apply(to: Self.findings)
    #expect(ignored == 1)
    #expect(kept.map(\.rule) == ["possible-rename"])
    #expect(kept[0].severity == .error)
  }

  @Test func ignoresMatchOnEveryFieldGiven() {
    let ignore = CheckConfiguration.Ignore(rule: "data-loss", entity: "Task", property: "title", reason: "r")
    #expect(!ignore.matches(Self.findings[0]))
    let byModelPath = CheckConfiguration.Ignore(model: "Models/Tasks.xcdatamodeld", reason: "r")
    #expect(byModelPath.matches(Self.findings[0]) && !byModelPath.matches(Self.findings[1]))
  }

  @Test(arguments: [
    (#"{"ignore": [{"rule": "data-loss"}]}"#, "has no \"reason\""),
    (#"{"ignore": [{"rule": "data-loss", "reason": "  "}]}"#, "has no \"reason\""),
    (#"{"ignore": [{"reason": "all of it"}]}"#, "matches every finding"),
    (#"{"rules": {"data-los": "off"}}"#, "unknown rule \"data-los\""),
    (#"{"rules": {"data-loss": "fatal"}}"#, "must be one of"),
    (#"{"rule": {}}"#, "unknown key \"rule\""),
    (#"{"ignore": [{"rule": "data-loss", "reason": "r", "why": "x"}]}"#, "unknown key \"why\""),
    ("{\n  \"rules\": [,\n}", ".modelc.json:2:"),
  ])
  func mistakesAreExplained(text: String, expected: String) {
    #expect {
      try CheckConfiguration.parse(text, path: ".modelc.json")
    } throws: { error in
      guard let error = error as? CheckInputError else { return false }
      return error.message.contains(expected) && error.message.hasPrefix(".modelc.json")
    }
  }

  @Test func anUnknownRuleSuggestsTheClosest() throws {
    let error = try #require(throws: CheckInputError.self) {
      try CheckConfiguration.parse(#"{"rules": {"data-los": "off"}}"#, path: "c.json")
    }
    #expect(error.notes.first?.contains("did you mean \"data-loss\"") == true)
  }
}
