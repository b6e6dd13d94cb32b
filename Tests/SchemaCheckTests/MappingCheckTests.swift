import DataModel
import Foundation
import Migration
import SchemaCheck
import TestSupport
import Testing

/// `modelc check` reads the mapping models of `--mappings` folders: a step a mapping covers is not
/// `step-not-inferable`, and mappings that are orphaned or invalid are findings at their elements.
@Suite("Mapping models in modelc check")
struct MappingCheckTests {
  static let item = #"<attribute name="name" attributeType="String"/>"#

  /// A model whose step V1 → V2 adds a required attribute without a default, and its folder.
  static func model() throws -> (folder: URL, path: String) {
    let folder = TestPaths.temporaryDirectory("check-mappings")
    let path = try CheckFixtures.bundle(
      "Shop", in: folder,
      versions: [
        ("V1", "<entity name=\"Item\" representedClassName=\"Item\">\(item)</entity>"),
        (
          "V2",
          "<entity name=\"Item\" representedClassName=\"Item\">\(item)<attribute name=\"price\" attributeType=\"Double\"/></entity>"
        ),
      ])
    return (folder, path)
  }

  static func mapping(for path: String, in folder: URL, edit: (inout MappingModelSource) -> Void = { _ in }) throws
    -> URL
  {
    let bundle = try ModelBundle(contentsOf: path)
    var template = MappingTemplate.make(
      name: "V1ToV2", source: bundle.version(named: "V1")!, destination: bundle.version(named: "V2")!,
      sourcePath: "V1.xcdatamodel", destinationPath: "V2.xcdatamodel")
    edit(&template)
    let url = folder.appendingPathComponent("Migrations/V1ToV2.xcmappingmodel")
    try XcodeMappingWriter.write(template, to: url)
    return url
  }

  static func check(_ path: String, mappings folder: URL) throws -> CheckReport {
    try SchemaCheck.run(
      SchemaCheckRequest(
        paths: [path], mappings: CatalogMappingModels(directories: [folder.appendingPathComponent("Migrations").path])))
  }

  @Test("Without a mapping the step is step-not-inferable; with a mapping that gives the value, it is covered")
  func coveredStep() throws {
    let (folder, path) = try Self.model()
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("Migrations"), withIntermediateDirectories: true)
    #expect(try Self.check(path, mappings: folder).findings.map(\.rule).contains("step-not-inferable"))
    _ = try Self.mapping(for: path, in: folder) { template in
      template.entityMappings[0].attributeMappings = template.entityMappings[0].attributeMappings.map { property in
        var property = property
        if property.name == "price" { property.expression = .constant(.double(0)) }
        return property
      }
    }
    let rules = try Self.check(path, mappings: folder).findings.map(\.rule)
    #expect(!rules.contains("step-not-inferable"), "\(rules)")
    #expect(!rules.contains("mapping-invalid") && !rules.contains("mapping-orphaned"), "\(rules)")
  }

  @Test("A mapping that leaves a required value unset is mapping-invalid at its element; an edited version orphans it")
  func invalidAndOrphaned() throws {
    let (folder, path) = try Self.model()
    let url = try Self.mapping(for: path, in: folder)
    let invalid = try #require(try Self.check(path, mappings: folder).findings.first { $0.rule == "mapping-invalid" })
    #expect(invalid.message.contains("price"))
    #expect(invalid.location?.file == url.appendingPathComponent("xcmapping.xml").path)
    #expect((invalid.location?.line ?? 0) > 1)

    // Editing V1 after the mapping was made leaves the mapping behind.
    let contents = URL(fileURLWithPath: path).appendingPathComponent("V1.xcdatamodel/contents")
    let text = try String(contentsOf: contents, encoding: .utf8)
    try text.replacingOccurrences(
      of: Self.item, with: #"<attribute name="name" optional="YES" attributeType="String"/>"#
    )
    .write(to: contents, atomically: true, encoding: .utf8)
    let orphaned = try #require(try Self.check(path, mappings: folder).findings.first { $0.rule == "mapping-orphaned" })
    #expect(orphaned.message.contains("'V1'"))
    #expect(orphaned.severity == .error)
  }
}
