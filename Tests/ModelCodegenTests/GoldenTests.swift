import DataModel
import Foundation
import ModelCodegen
import TestSupport
import Testing

/// The generated files compared byte for byte with `Tests/Fixtures/golden/<case>/<file>.golden`,
/// and the warnings with `warnings.golden`. Run with `MODELC_UPDATE_GOLDEN=1` to rewrite them
/// after an intended change, and review the diff.
@Suite("Golden files")
struct GoldenTests {
  static let updating = ProcessInfo.processInfo.environment["MODELC_UPDATE_GOLDEN"] == "1"

  @Test(
    "The package's models",
    arguments: [
      ("Tasks", CodegenFixtures.tasks, CodegenOptions(accessLevel: .public)),
      ("Library", CodegenFixtures.library, CodegenOptions(fileLayout: .singleFile)),
      ("Clashes", CodegenFixtures.clashes, CodegenOptions()),
    ])
  func packageModel(_ name: String, _ model: URL, _ options: CodegenOptions) throws {
    let code = try CodegenFixtures.generate(model, options)
    try compare(name, files: code.files, diagnostics: code.diagnostics)
  }

  /// Only the entity files of corpus models are kept as golden files: the schema file holds
  /// the models' own XML, which stays in the corpus.
  @Test(
    "Models of the corpus, every entity generated as a class",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)),
    arguments: [
      "rentzsch__mogenerator/MogenSwiftTest.xcdatamodeld",
      "SwiftGen__SwiftGen/Model.xcdatamodeld",
      "Automattic__simplenote-ios/Simplenote.xcdatamodeld",
    ])
  func corpusModel(_ path: String) throws {
    let corpus = try #require(TestPaths.corpus)
    let model = corpus.appendingPathComponent("models").appendingPathComponent(path)
    let code = try CodegenFixtures.generate(model, CodegenOptions(modeOverride: .class))
    let schema = ModelCodeGenerator.schemaFileName(modelName: code.modelName)
    let name =
      "corpus-" + path.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: ".xcdatamodeld", with: "")
    try compare(name, files: code.files.filter { $0.name != schema }, diagnostics: code.diagnostics)
  }

  private func compare(_ name: String, files: [GeneratedFile], diagnostics: [Diagnostic]) throws {
    let directory = CodegenFixtures.golden.appendingPathComponent(name)
    var expected = files.map { (name: $0.name + ".golden", contents: $0.contents) }
    expected.append((name: "warnings.golden", contents: Self.describe(diagnostics)))
    if Self.updating {
      try? FileManager.default.removeItem(at: directory)
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      for file in expected {
        try Data(file.contents.utf8).write(to: directory.appendingPathComponent(file.name))
      }
      return
    }
    let present = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    #expect(present == expected.map(\.name).sorted(), "files of \(name); MODELC_UPDATE_GOLDEN=1 rewrites them")
    for file in expected {
      let golden = FileManager.default.contents(atPath: directory.appendingPathComponent(file.name).path)
      let actual = Data(file.contents.utf8)
      #expect(golden == actual, "\(name)/\(file.name) differs from its golden file; MODELC_UPDATE_GOLDEN=1 rewrites it")
      if let golden, golden != actual {
        let goldenLines = String(decoding: golden, as: UTF8.self).split(
          separator: "\n", omittingEmptySubsequences: false)
        let actualLines = file.contents.split(separator: "\n", omittingEmptySubsequences: false)
        if let line = zip(goldenLines, actualLines).enumerated().first(where: { $1.0 != $1.1 }) {
          Issue.record("first difference at line \(line.offset + 1):\n- \(line.element.0)\n+ \(line.element.1)")
        }
      }
    }
  }

  /// Diagnostics with the package's and the corpus's paths made relative.
  static func describe(_ diagnostics: [Diagnostic]) -> String {
    var text = diagnostics.map(\.description).joined(separator: "\n")
    text = text.replacingOccurrences(of: TestPaths.packageRoot.path + "/", with: "")
    if let corpus = TestPaths.corpus { text = text.replacingOccurrences(of: corpus.path + "/", with: "<corpus>/") }
    return text.isEmpty ? "" : text + "\n"
  }
}
