import Foundation
import SchemaCheck
import TestSupport
import Testing

/// `docs/rules.md` documents every rule of the catalogue with its default severity, and nothing else.
struct RulesDocumentationTests {
  @Test func everyRuleIsDocumentedWithItsSeverity() throws {
    let text = try String(
      contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/rules.md"), encoding: .utf8)
    var table: [String: String] = [:]
    var sections: [String: String] = [:]
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    for (index, line) in lines.enumerated() {
      if line.hasPrefix("| [`") {
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        let id = String(cells[0].dropFirst(2).prefix { $0 != "`" })
        table[id] = cells[1]
      }
      if line.hasPrefix("## `"), index + 2 < lines.count {
        let id = String(line.dropFirst(4).prefix { $0 != "`" })
        let severity = lines[index + 2].components(separatedBy: "Severity: ").dropFirst().first?.prefix { $0 != "." }
        sections[id] = severity.map(String.init)
      }
    }
    let catalogue = Dictionary(uniqueKeysWithValues: RuleCatalogue.all.map { ($0.id, $0.defaultSeverity.rawValue) })
    #expect(table == catalogue)
    #expect(sections == catalogue)
    #expect(Set(RuleCatalogue.all.map(\.id)).count == RuleCatalogue.all.count)
  }
}
