import DataModel
import Foundation
import ModelCodegen

/// `codegen-500`: generating (and writing) the Swift of a synthetic 500-entity model, one file
/// per entity plus the schema file (no baseline).
struct CodegenScenario: Scenario {
  let name = "codegen-500"

  /// A model of 500 entities, each with attributes of every common type, a to-one to the next
  /// entity and a to-many back.
  static func syntheticModel() -> String {
    var xml = """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">

      """
    let count = 500
    for index in 0..<count {
      let name = String(format: "Entity%03d", index)
      let next = String(format: "Entity%03d", (index + 1) % count)
      let previous = String(format: "Entity%03d", (index + count - 1) % count)
      xml += """
            <entity name="\(name)" representedClassName="\(name)" syncable="YES" codeGenerationType="class">
                <attribute name="count" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="created" optional="YES" attributeType="Date" usesScalarValueType="NO"/>
                <attribute name="flag" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                <attribute name="identifier" attributeType="UUID" usesScalarValueType="NO"/>
                <attribute name="payload" optional="YES" attributeType="Binary"/>
                <attribute name="score" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                <attribute name="title" attributeType="String"/>
                <attribute name="website" optional="YES" attributeType="URI"/>
                <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="\(next)" inverseName="previous" inverseEntity="\(next)"/>
                <relationship name="previous" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="\(previous)" inverseName="next" inverseEntity="\(previous)"/>
                <fetchIndex name="byTitle">
                    <fetchIndexElement property="title" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>

        """
    }
    return xml + "</model>\n"
  }

  func run(_ configuration: BenchmarkConfiguration) throws -> ScenarioResult {
    let xml = Self.syntheticModel()
    let (version, diagnostics) = ModelReader.readVersion(xml: xml, name: "Synthetic")
    guard let version, !diagnostics.containsErrors else {
      throw BenchmarkError("the synthetic model does not load: \(diagnostics.errors.first.map(\.description) ?? "")")
    }
    let bundle = ModelBundle(name: "Synthetic", versions: [version])
    return try measure(
      configuration,
      setUp: { configuration.directory.appendingPathComponent("codegen-\(UUID().uuidString)") },
      ours: { directory in
        let code = try ModelCodeGenerator.generate(bundle, versionContents: [xml])
        _ = try GeneratedFileWriter.write(code, to: directory)
      }, note: "500 entities, 8 attributes and 2 relationships each; 501 files written")
  }
}
