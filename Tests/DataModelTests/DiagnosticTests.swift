import DataModel
import Foundation
import TestSupport
import Testing

@Suite("Diagnostics")
struct DiagnosticTests {
  @Test("A diagnostic prints like the compiler's: path:line:column: severity: message, then note lines")
  func printedForm() {
    let diagnostic = Diagnostic(
      .error, code: "x", message: "something is wrong",
      location: SourceLocation(file: "M.xcdatamodel/contents", line: 7, column: 9),
      notes: ["do this", "or that"])
    #expect(
      diagnostic.description == """
        M.xcdatamodel/contents:7:9: error: something is wrong
        M.xcdatamodel/contents:7:9: note: do this
        M.xcdatamodel/contents:7:9: note: or that
        """)
    let unlocated = Diagnostic.warning("y", "no place", at: nil, fix: "fix it")
    #expect(unlocated.description == "warning: no place\nnote: fix it")
    #expect(Diagnostic.error("z", "bare", at: nil).description == "error: bare")
    #expect(SourceLocation(file: "a b/c", line: 1, column: 2).description == "a b/c:1:2")
  }

  @Test("The convenience constructors set every field")
  func constructors() {
    let location = SourceLocation(file: "f", line: 3, column: 4)
    let error = Diagnostic.error("code", "message", at: location, entity: "E", property: "p", fix: "fix")
    #expect(error.severity == .error && error.code == "code" && error.message == "message")
    #expect(error.location == location && error.entity == "E" && error.property == "p" && error.notes == ["fix"])
    let warning = Diagnostic.warning("code", "message", at: location)
    #expect(warning.severity == .warning && warning.notes.isEmpty && warning.entity == nil)
  }

  @Test("Severities order warning before error; arrays filter by severity")
  func severities() {
    #expect(Diagnostic.Severity.warning < .error)
    #expect(!(Diagnostic.Severity.error < .warning))
    let diagnostics: [Diagnostic] = [
      .warning("w1", "", at: nil), .error("e1", "", at: nil), .warning("w2", "", at: nil), .error("e2", "", at: nil),
    ]
    #expect(diagnostics.containsErrors)
    #expect(diagnostics.errors.map(\.code) == ["e1", "e2"])
    #expect(diagnostics.warnings.map(\.code) == ["w1", "w2"])
    #expect(![Diagnostic.warning("w", "", at: nil)].containsErrors)
    #expect(![Diagnostic]().containsErrors)
  }

  @Test("A model error prints every diagnostic in turn")
  func modelError() {
    let error = ModelError(diagnostics: [
      .error("a", "first", at: SourceLocation(file: "f", line: 1, column: 1), fix: "n"), .error("b", "second", at: nil),
    ])
    #expect(error.description == "f:1:1: error: first\nf:1:1: note: n\nerror: second")
  }

  @Test("Diagnostics encode and decode with Codable")
  func codable() throws {
    let diagnostic = Diagnostic.error(
      "unknown-destination-entity", "m", at: SourceLocation(file: "f", line: 2, column: 5), entity: "E", property: "p",
      fix: "did you mean 'X'?")
    let data = try JSONEncoder().encode(diagnostic)
    #expect(try JSONDecoder().decode(Diagnostic.self, from: data) == diagnostic)
    let text = String(decoding: data, as: UTF8.self)
    #expect(text.contains(#""severity":"error""#))
  }

  // MARK: - Documentation

  /// Every diagnostic code the sources can emit, with its severity, read from the sources.
  static func codesInSources() throws -> [String: Diagnostic.Severity] {
    let sources = TestPaths.packageRoot.appendingPathComponent("Sources/DataModel")
    var codes: [String: Diagnostic.Severity] = [:]
    let enumerator = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
    let pattern = try Regex(#"(error|warning)\(\s*"([a-z]+(?:-[a-z]+)+)""#)
    while let url = enumerator?.nextObject() as? URL {
      guard url.pathExtension == "swift" else { continue }
      let text = try String(contentsOf: url, encoding: .utf8)
      for match in text.matches(of: pattern) {
        guard let kind = match.output[1].substring, let code = match.output[2].substring else { continue }
        codes[String(code)] = kind == "error" ? .error : .warning
      }
    }
    // Built from the name of the XML attribute that holds the value (see ContentsReader).
    codes["invalid-default"] = .error
    codes["invalid-bound"] = .error
    return codes
  }

  /// The codes in the table of docs/diagnostics.md with the severity it gives.
  static func codesInDocumentation() throws -> [String: String] {
    let text = try String(
      contentsOf: TestPaths.packageRoot.appendingPathComponent("docs/diagnostics.md"), encoding: .utf8)
    var codes: [String: String] = [:]
    for line in text.split(separator: "\n") where line.hasPrefix("| `") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      guard cells.count >= 2 else { continue }
      codes[cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))] = cells[1]
    }
    return codes
  }

  @Test("Every diagnostic code is documented in docs/diagnostics.md with its severity, and nothing else is")
  func everyCodeDocumented() throws {
    let sources = try Self.codesInSources()
    let documented = try Self.codesInDocumentation()
    #expect(sources.count > 60, "the source scan found \(sources.count) codes")
    for (code, severity) in sources.sorted(by: { $0.key < $1.key }) {
      #expect(documented[code] == severity.rawValue, "\(code) is a \(severity.rawValue) in the sources")
    }
    let stale = Set(documented.keys).subtracting(sources.keys)
    #expect(stale.isEmpty, "documented but never emitted: \(stale.sorted())")
  }
}
