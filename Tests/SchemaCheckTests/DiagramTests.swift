import DataModel
import Foundation
import SchemaCheck
import TestSupport
import Testing

/// `modelc diagram`: golden Mermaid and DOT of the Tasks model and of its step `Tasks 2` →
/// `Tasks 3` (in `Tests/Fixtures/golden/diagrams`; `MODELC_UPDATE_GOLDEN=1` rewrites them), and
/// the marks of a step that removes, changes and adds.
struct DiagramTests {
  static let golden = TestPaths.fixtures.appendingPathComponent("golden/diagrams")

  private func compare(_ text: String, golden name: String) throws {
    let url = Self.golden.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["MODELC_UPDATE_GOLDEN"] == "1" {
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: url, encoding: .utf8)
    #expect(text == expected, "\(name) differs from its golden file; run with MODELC_UPDATE_GOLDEN=1 to update")
  }

  @Test func tasksVersion() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    let diagram = EntityDiagram(version: bundle.currentVersion)
    try compare(MermaidRenderer.render(diagram), golden: "Tasks.mmd")
    try compare(DotRenderer.render(diagram), golden: "Tasks.dot")
  }

  @Test func tasksStep() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    let diagram = EntityDiagram(from: bundle.version(named: "Tasks 2")!, to: bundle.version(named: "Tasks 3")!)
    try compare(MermaidRenderer.render(diagram), golden: "Tasks 2-Tasks 3.mmd")
    try compare(DotRenderer.render(diagram), golden: "Tasks 2-Tasks 3.dot")
  }

  @Test func theOutputIsDeterministic() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    let first = DotRenderer.render(EntityDiagram(from: bundle.versions[0], to: bundle.currentVersion))
    let second = DotRenderer.render(EntityDiagram(from: bundle.versions[0], to: bundle.currentVersion))
    #expect(first == second)
  }

  static let before = """
        <entity name="Animal" isAbstract="YES">
            <attribute name="name" attributeType="String"/>
            <attribute name="weight" optional="YES" attributeType="Integer 32"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/>
        </entity>
        <entity name="Dog" parentEntity="Animal">
            <attribute name="breed" optional="YES" attributeType="String"/>
        </entity>
        <entity name="Owner">
            <attribute name="name" attributeType="String"/>
            <relationship name="pets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Animal" inverseName="owner" inverseEntity="Animal"/>
        </entity>
        <entity name="Vet">
            <attribute name="name" attributeType="String"/>
        </entity>
    """

  static let after = """
        <entity name="Animal" isAbstract="YES">
            <attribute name="name" attributeType="String"/>
            <attribute name="weight" optional="YES" attributeType="Double"/>
        </entity>
        <entity name="Dog" parentEntity="Animal">
            <attribute name="breed" optional="YES" attributeType="String"/>
            <attribute name="chip" optional="YES" attributeType="UUID"/>
        </entity>
        <entity name="Owner">
            <attribute name="name" attributeType="String"/>
        </entity>
    """

  @Test func aStepMarksWhatItAddsRemovesAndChanges() throws {
    let directory = TestPaths.temporaryDirectory("modelc-diagram")
    defer { try? FileManager.default.removeItem(at: directory) }
    let path = try CheckFixtures.bundle(
      "Pets", in: directory, versions: [("Pets", Self.before), ("Pets 2", Self.after)])
    let bundle = try ModelBundle(contentsOf: path)
    let diagram = EntityDiagram(from: bundle.versions[0], to: bundle.versions[1])
    let mermaid = MermaidRenderer.render(diagram)
    #expect(
      mermaid.contains(
        "  class Animal {\n    <<abstract, changed>>\n    name : String\n    weight : Double? [changed]\n"))
    #expect(mermaid.contains("  class Dog {\n    <<changed>>\n    breed : String?\n    chip : UUID? [added]\n  }"))
    #expect(mermaid.contains("  class Vet {\n    <<removed>>\n    name : String [removed]\n  }"))
    #expect(mermaid.contains("  Animal <|-- Dog\n"))
    #expect(mermaid.contains(#"  Animal "0..*" -- "0..1" Owner : owner / pets [removed]"#))
    let weight = try #require(diagram.entities[0].attributes.first { $0.name == "weight" })
    #expect(weight.note == "type changed from Integer 32 to Double")
    let dot = DotRenderer.render(diagram)
    #expect(dot.contains(#""Animal" -> "Dog" [dir=back, arrowtail=empty, label="inherits"];"#))
    #expect(dot.contains(#"<s>name: String [removed]</s>"#))
    #expect(dot.contains("style=dashed"))
  }
}
