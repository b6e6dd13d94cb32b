import DataModel
import Foundation
import Migration
import Testing

/// Each lightweight-inference rule on a purpose-built pair of versions, and each refusal.
@Suite("Lightweight inference rules")
struct InferenceRuleTests {
  static func version(_ name: String, _ entities: String) -> ModelVersion {
    let xml = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="">
      \(entities)
      </model>
      """
    let (version, diagnostics) = ModelReader.readVersion(xml: xml, name: name)
    precondition(version != nil && !diagnostics.containsErrors, "\(diagnostics)")
    return version!
  }

  static let base = """
    <entity name="Item" representedClassName="Item">
        <attribute name="name" attributeType="String"/>
        <attribute name="count" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
    </entity>
    """

  static func infer(_ old: String, _ new: String) throws(InferenceError) -> MappingModel {
    try LightweightInference.mappingModel(from: version("A", old), to: version("B", new))
  }

  static func refusal(_ old: String, _ new: String) -> [MigrationRefusal] {
    do {
      _ = try infer(old, new)
      return []
    } catch {
      return error.refusals
    }
  }

  struct Case: CustomTestStringConvertible, Sendable {
    var label: String
    var old: String
    var new: String
    var testDescription: String { label }
  }

  static let inferable: [Case] = [
    Case(
      label: "add an entity", old: base,
      new: base + #"<entity name="Other"><attribute name="x" optional="YES" attributeType="String"/></entity>"#),
    Case(
      label: "remove an entity",
      old: base + #"<entity name="Gone"><attribute name="x" optional="YES" attributeType="String"/></entity>"#,
      new: base),
    Case(
      label: "rename an entity through its renaming identifier", old: base,
      new: base.replacingOccurrences(
        of: #"<entity name="Item" representedClassName="Item">"#,
        with: #"<entity name="Thing" representedClassName="Thing" elementID="Item">"#)),
    Case(
      label: "add an optional attribute", old: base,
      new: base.replacingOccurrences(
        of: "</entity>", with: #"<attribute name="notes" optional="YES" attributeType="String"/></entity>"#)),
    Case(
      label: "add a required attribute with a default", old: base,
      new: base.replacingOccurrences(
        of: "</entity>", with: #"<attribute name="rank" attributeType="Integer 16" defaultValueString="3"/></entity>"#)),
    Case(
      label: "remove an attribute", old: base,
      new: base.replacingOccurrences(
        of: #"<attribute name="count" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>"#, with: "")
    ),
    Case(
      label: "rename an attribute through its renaming identifier", old: base,
      new: base.replacingOccurrences(
        of: #"<attribute name="count" optional="YES""#,
        with: #"<attribute name="total" elementID="count" optional="YES""#)),
    Case(
      label: "required to optional", old: base,
      new: base.replacingOccurrences(
        of: #"<attribute name="name" attributeType="String"/>"#,
        with: #"<attribute name="name" optional="YES" attributeType="String"/>"#)),
    Case(
      label: "optional to required with a default", old: base,
      new: base.replacingOccurrences(
        of: #"<attribute name="count" optional="YES" attributeType="Integer 32""#,
        with: #"<attribute name="count" attributeType="Integer 32" defaultValueString="0""#)),
    Case(
      label: "change the default, validation and class (no migration)", old: base,
      new: base.replacingOccurrences(
        of: #"<attribute name="name" attributeType="String"/>"#,
        with: #"<attribute name="name" attributeType="String" minValueString="1" defaultValueString="x"/>"#
      )
      .replacingOccurrences(of: #"representedClassName="Item""#, with: #"representedClassName="Renamed""#)),
    Case(
      label: "add a to-many relationship and its inverse",
      old: base + #"<entity name="Tag"><attribute name="t" attributeType="String"/></entity>"#,
      new: base.replacingOccurrences(
        of: "</entity>",
        with:
          #"<relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Item"/></entity>"#
      )
        + #"<entity name="Tag"><attribute name="t" attributeType="String"/><relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Tag"/></entity>"#
    ),
    Case(
      label: "to-one becomes to-many",
      old:
        #"<entity name="A"><attribute name="a" attributeType="String"/><relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/></entity><entity name="B"><attribute name="b" attributeType="String"/><relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/></entity>"#,
      new:
        #"<entity name="A"><attribute name="a" attributeType="String"/><relationship name="b" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/></entity><entity name="B"><attribute name="b" attributeType="String"/><relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/></entity>"#
    ),
    Case(
      label: "unordered to ordered",
      old:
        #"<entity name="A"><attribute name="a" attributeType="String"/><relationship name="bs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="B"/></entity><entity name="B"><attribute name="b" attributeType="String"/><relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="bs" inverseEntity="A"/></entity>"#,
      new:
        #"<entity name="A"><attribute name="a" attributeType="String"/><relationship name="bs" optional="YES" toMany="YES" deletionRule="Nullify" ordered="YES" destinationEntity="B" inverseName="a" inverseEntity="B"/></entity><entity name="B"><attribute name="b" attributeType="String"/><relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="bs" inverseEntity="A"/></entity>"#
    ),
    Case(
      label: "a new parent entity", old: base,
      new: base.replacingOccurrences(
        of: #"<entity name="Item" representedClassName="Item">"#,
        with: #"<entity name="Item" representedClassName="Item" parentEntity="Base">"#)
        + #"<entity name="Base" isAbstract="YES"><attribute name="created" optional="YES" attributeType="Date"/></entity>"#
    ),
    Case(
      label: "change a deletion rule (no migration)",
      old:
        #"<entity name="A"><attribute name="a" attributeType="String"/><relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A"/></entity>"#,
      new:
        #"<entity name="A"><attribute name="a" attributeType="String"/><relationship name="b" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="A"/></entity>"#
    ),
  ]

  @Test("Inferred", arguments: inferable)
  func inferred(_ example: Case) throws {
    let mapping = try Self.infer(example.old, example.new)
    #expect(mapping.isInferred)
  }

  static let refused: [(Case, String)] = [
    (
      Case(
        label: "change an attribute's type", old: base,
        new: base.replacingOccurrences(of: #"attributeType="Integer 32""#, with: #"attributeType="String""#)),
      "type changed"
    ),
    (
      Case(
        label: "add a required attribute without a default", old: base,
        new: base.replacingOccurrences(
          of: "</entity>", with: #"<attribute name="rank" attributeType="Integer 16"/></entity>"#)),
      "no default"
    ),
    (
      Case(
        label: "optional to required without a default", old: base,
        new: base.replacingOccurrences(
          of: #"<attribute name="count" optional="YES""#, with: #"<attribute name="count""#)),
      "made required"
    ),
    (
      Case(
        label: "merge two hierarchies",
        old:
          #"<entity name="A"><attribute name="a" attributeType="String"/></entity><entity name="B"><attribute name="b" attributeType="String"/></entity>"#,
        new:
          #"<entity name="A" parentEntity="P"><attribute name="a" attributeType="String"/></entity><entity name="B" parentEntity="P"><attribute name="b" attributeType="String"/></entity><entity name="P" isAbstract="YES"><attribute name="p" optional="YES" attributeType="String"/></entity>"#
      ),
      "separate hierarchies"
    ),
    (
      Case(
        label: "to-many becomes to-one",
        old:
          #"<entity name="A"><attribute name="a" attributeType="String"/><relationship name="b" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="A"/></entity>"#,
        new:
          #"<entity name="A"><attribute name="a" attributeType="String"/><relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A"/></entity>"#
      ),
      "to-many became to-one"
    ),
    (
      Case(
        label: "make an entity abstract",
        old: base
          + #"<entity name="Sub" parentEntity="Item"><attribute name="s" optional="YES" attributeType="String"/></entity>"#,
        new: base.replacingOccurrences(
          of: #"<entity name="Item" representedClassName="Item">"#,
          with: #"<entity name="Item" representedClassName="Item" isAbstract="YES">"#)
          + #"<entity name="Sub" parentEntity="Item"><attribute name="s" optional="YES" attributeType="String"/></entity>"#
      ),
      "abstract"
    ),
  ]

  @Test("Refused, naming the entity, the property and the change", arguments: refused)
  func refusedCases(_ example: Case, _ expected: String) {
    let refusals = Self.refusal(example.old, example.new)
    #expect(!refusals.isEmpty)
    #expect(refusals.contains { $0.description.contains(expected) }, "\(refusals)")
  }

  @Test("Renaming identifiers chain across versions: v1 → v3 and v2 → v3 both resolve")
  func renameChain() throws {
    let v1 = Self.version(
      "V1", #"<entity name="Item"><attribute name="a" optional="YES" attributeType="String"/></entity>"#)
    let v2 = Self.version(
      "V2", #"<entity name="Item"><attribute name="b" optional="YES" attributeType="String" elementID="a"/></entity>"#)
    let v3 = Self.version(
      "V3", #"<entity name="Item"><attribute name="c" optional="YES" attributeType="String" elementID="a"/></entity>"#)
    for source in [v1, v2] {
      let mapping = try LightweightInference.mappingModel(from: source, to: v3)
      let property = mapping.entityMapping(forDestination: "Item")?.propertyMapping(for: "c")
      #expect(property?.value == .source(source.entities[0].attributes[0].name))
    }
  }

  @Test("The refusal error says a mapping model is needed")
  func refusalMessage() {
    do {
      _ = try Self.infer(
        Self.base, Self.base.replacingOccurrences(of: #"attributeType="Integer 32""#, with: #"attributeType="Date""#))
      Issue.record("expected a refusal")
    } catch {
      let text = error.description
      #expect(text.contains("Item.count"))
      #expect(text.contains("mapping model"))
    }
  }
}
