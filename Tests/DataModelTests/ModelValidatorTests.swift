import DataModel
import Foundation
import TestSupport
import Testing

@Suite("Model validation")
struct ModelValidatorTests {
  /// A purpose-built model body that must give a diagnostic with this code at these positions,
  /// and no error of any other code (apart from `alsoExpected`).
  struct Rule: Sendable, CustomTestStringConvertible {
    var code: String
    var severity: Diagnostic.Severity
    var positions: [String]
    var body: String
    var alsoExpected: Set<String> = []
    var messageContains: String?
    var note: String?
    var testDescription: String { code + (messageContains.map { " (\($0))" } ?? "") }
  }

  static let rules: [Rule] = [
    // MARK: Entities
    Rule(
      code: "duplicate-entity", severity: .error, positions: ["6:5"],
      body: """
            <entity name="Task">
                <attribute name="title" attributeType="String"/>
            </entity>
            <entity name="Task">
                <attribute name="title" attributeType="String"/>
            </entity>
        """, messageContains: "first defined at line 3"),
    Rule(
      code: "entity-name-case", severity: .warning, positions: ["3:5"],
      body: """
            <entity name="task">
                <attribute name="title" attributeType="String"/>
            </entity>
        """),
    Rule(
      code: "unknown-parent-entity", severity: .error, positions: ["6:5"],
      body: """
            <entity name="Animal">
                <attribute name="name" attributeType="String"/>
            </entity>
            <entity name="Dog" parentEntity="Animl">
                <attribute name="breed" attributeType="String"/>
            </entity>
        """, note: "did you mean 'Animal'?"),
    Rule(
      code: "inheritance-cycle", severity: .error, positions: ["3:5", "6:5"],
      body: """
            <entity name="A" parentEntity="B">
                <attribute name="a" attributeType="String"/>
            </entity>
            <entity name="B" parentEntity="A">
                <attribute name="b" attributeType="String"/>
            </entity>
        """, messageContains: "through"),
    Rule(
      code: "inheritance-cycle", severity: .error, positions: ["3:5"],
      body: """
            <entity name="A" parentEntity="A">
                <attribute name="a" attributeType="String"/>
            </entity>
        """, messageContains: "A → A"),
    Rule(
      code: "abstract-without-subentities", severity: .warning, positions: ["3:5"],
      body: """
            <entity name="Shape" isAbstract="YES">
                <attribute name="name" attributeType="String"/>
            </entity>
        """),
    // MARK: Properties
    Rule(
      code: "duplicate-property", severity: .error, positions: ["5:9"],
      body: """
            <entity name="A">
                <attribute name="owner" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="owner" inverseEntity="A"/>
            </entity>
        """),
    Rule(
      code: "shadowed-property", severity: .error, positions: ["7:9"],
      body: """
            <entity name="Animal">
                <attribute name="name" attributeType="String"/>
            </entity>
            <entity name="Dog" parentEntity="Animal">
                <attribute name="name" attributeType="String"/>
            </entity>
        """, messageContains: "parent entity 'Animal'"),
    Rule(
      code: "property-name-case", severity: .warning, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="Title" attributeType="String"/>
            </entity>
        """),
    Rule(
      code: "no-attributes", severity: .warning, positions: ["3:5"],
      body: """
            <entity name="Empty"/>
        """),
    // MARK: Attributes
    Rule(
      code: "undefined-type", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" optional="YES"/>
            </entity>
        """),
    Rule(
      code: "objectid-not-transient", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" optional="YES" attributeType="ObjectID"/>
            </entity>
        """),
    Rule(
      code: "unknown-composite", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" optional="YES" attributeType="Composite" composite="Adress"/>
            </entity>
            <composite name="Address">
                <attribute name="street" attributeType="String"/>
            </composite>
        """, note: "did you mean 'Address'?"),
    Rule(
      code: "missing-composite", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" optional="YES" attributeType="Composite"/>
            </entity>
        """),
    Rule(
      code: "unknown-composite", severity: .error, positions: ["8:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
            </entity>
            <composite name="Address">
                <attribute name="street" attributeType="String"/>
                <attribute name="geo" optional="YES" attributeType="Composite" composite="Geo"/>
            </composite>
        """, messageContains: "of composite 'Address'"),
    Rule(
      code: "missing-derivation", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" optional="YES" attributeType="String" derived="YES"/>
            </entity>
        """),
    Rule(
      code: "transformable-without-transformer", severity: .warning, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" optional="YES" attributeType="Transformable"/>
                <attribute name="b" optional="YES" transient="YES" attributeType="Transformable"/>
            </entity>
        """),
    Rule(
      code: "min-greater-than-max", severity: .error, positions: ["4:9", "5:9", "6:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="Integer 32" minValueString="10" maxValueString="5" usesScalarValueType="YES"/>
                <attribute name="b" attributeType="String" minValueString="10" maxValueString="5"/>
                <attribute name="c" optional="YES" attributeType="Date" minDateTimeInterval="100" maxDateTimeInterval="50"/>
            </entity>
        """),
    Rule(
      code: "min-greater-than-max", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" toMany="YES" minCount="5" maxCount="2" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="A"/>
                <attribute name="a" attributeType="String"/>
            </entity>
        """, messageContains: "minimum count (5)"),
    Rule(
      code: "default-below-minimum", severity: .error, positions: ["4:9", "5:9", "6:9", "7:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="Integer 16" minValueString="1" defaultValueString="0" usesScalarValueType="YES"/>
                <attribute name="b" attributeType="String" minValueString="3" defaultValueString="ab"/>
                <attribute name="c" attributeType="Date" minDateTimeInterval="100" defaultDateTimeInterval="99"/>
                <attribute name="d" attributeType="Double" minValueString="0.5" defaultValueString="0.25" usesScalarValueType="YES"/>
            </entity>
        """,
      messageContains: "the default value of attribute 'a' of entity 'A' (0) is below its minimum 1"),
    Rule(
      code: "default-above-maximum", severity: .error, positions: ["4:9", "5:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="Integer 64" maxValueString="10" defaultValueString="11" usesScalarValueType="YES"/>
                <attribute name="b" attributeType="String" maxValueString="3" defaultValueString="abcd"/>
                <attribute name="c" attributeType="String" maxValueString="3" defaultValueString="abc"/>
            </entity>
        """),
    Rule(
      code: "regex-on-non-string", severity: .warning, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="Integer 16" regularExpressionString="[0-9]+" usesScalarValueType="YES"/>
            </entity>
        """,
      messageContains: "attribute 'a' of entity 'A' has a regular expression but is Integer 16"),
    Rule(
      code: "invalid-regex", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String" regularExpressionString="[a-z"/>
            </entity>
        """),
    Rule(
      code: "default-breaks-regex", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String" defaultValueString="abc1" regularExpressionString="[a-z]+"/>
                <attribute name="b" attributeType="String" defaultValueString="abc" regularExpressionString="[a-z]+"/>
            </entity>
        """, messageContains: "'abc1'"),
    // MARK: Relationships
    Rule(
      code: "unknown-destination-entity", severity: .error, positions: ["4:9"],
      body: """
            <entity name="Task">
                <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Projet"/>
                <attribute name="title" attributeType="String"/>
            </entity>
            <entity name="Project">
                <attribute name="name" attributeType="String"/>
            </entity>
        """, note: "did you mean 'Project'?"),
    Rule(
      code: "negative-count", severity: .error, positions: ["4:9", "5:9"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" toMany="YES" minCount="-1" deletionRule="Nullify" destinationEntity="A" inverseName="s" inverseEntity="A"/>
                <relationship name="s" optional="YES" toMany="YES" maxCount="-2" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="A"/>
                <attribute name="a" attributeType="String"/>
            </entity>
        """),
    Rule(
      code: "ordered-to-one", severity: .warning, positions: ["4:9"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" ordered="YES" destinationEntity="A" inverseName="r" inverseEntity="A"/>
                <attribute name="a" attributeType="String"/>
            </entity>
        """),
    Rule(
      code: "no-inverse", severity: .warning, positions: ["4:9"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A"/>
                <relationship name="cache" optional="YES" transient="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A"/>
                <attribute name="a" attributeType="String"/>
            </entity>
        """),
    Rule(
      code: "unknown-inverse-entity", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="Nowhere"/>
                <attribute name="a" attributeType="String"/>
            </entity>
        """),
    Rule(
      code: "inverse-entity-mismatch", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" inverseName="a" inverseEntity="C"/>
                <attribute name="x" attributeType="String"/>
            </entity>
            <entity name="B">
                <relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/>
                <attribute name="x" attributeType="String"/>
            </entity>
            <entity name="C">
                <relationship name="a" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A"/>
                <attribute name="x" attributeType="String"/>
            </entity>
        """,
      // B.a names A.b as its inverse, whose inverse is C.a: a consequence of the same mistake.
      alsoExpected: ["inverse-not-reciprocal"]),
    Rule(
      code: "unknown-inverse", severity: .error, positions: ["4:9"],
      body: """
            <entity name="Task">
                <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="task" inverseEntity="Project"/>
                <attribute name="title" attributeType="String"/>
            </entity>
            <entity name="Project">
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
                <attribute name="name" attributeType="String"/>
            </entity>
        """, alsoExpected: ["inverse-not-reciprocal"], note: "did you mean 'tasks'?"),
    Rule(
      code: "inverse-not-reciprocal", severity: .error, positions: ["4:9", "5:9"],
      body: """
            <entity name="Task">
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="tasks" inverseEntity="Person"/>
                <relationship name="reviewer" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="tasks" inverseEntity="Person"/>
                <attribute name="title" attributeType="String"/>
            </entity>
            <entity name="Person">
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="editor" inverseEntity="Task"/>
                <attribute name="name" attributeType="String"/>
            </entity>
        """, alsoExpected: ["unknown-inverse"], messageContains: "that relationship's inverse is 'Task.editor'"),
    // MARK: Fetched properties, constraints, indexes
    Rule(
      code: "fetched-property-without-request", severity: .error, positions: ["5:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <fetchedProperty name="f" optional="YES"/>
            </entity>
        """),
    Rule(
      code: "unknown-fetch-entity", severity: .error, positions: ["5:9", "9:5"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <fetchedProperty name="f" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Missing" predicateString="a == 1"/>
                </fetchedProperty>
            </entity>
            <fetchRequest name="T" entity="Gone"/>
        """),
    Rule(
      code: "empty-constraint", severity: .error, positions: ["6:13"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint/>
                </uniquenessConstraints>
            </entity>
        """),
    Rule(
      code: "constraint-on-to-many", severity: .error, positions: ["7:13"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <relationship name="r" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="A"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="a"/>
                        <constraint value="r"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
        """),
    Rule(
      code: "constraint-on-transient", severity: .error, positions: ["6:13"],
      body: """
            <entity name="A">
                <attribute name="a" optional="YES" transient="YES" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="a"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
        """),
    Rule(
      code: "unknown-constraint-property", severity: .error, positions: ["9:13"],
      body: """
            <entity name="A">
                <attribute name="identifier" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint>
                        <constraint value="identifier"/>
                    </uniquenessConstraint>
                    <uniquenessConstraint>
                        <constraint value="identifer"/>
                    </uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
        """, note: "did you mean 'identifier'?"),
    Rule(
      code: "empty-fetch-index", severity: .warning, positions: ["5:9"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <fetchIndex name="nothing"/>
            </entity>
        """),
    Rule(
      code: "index-on-to-many", severity: .warning, positions: ["8:13"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <relationship name="r" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="A"/>
                <fetchIndex name="byR">
                    <fetchIndexElement property="a" type="Binary" order="ascending"/>
                    <fetchIndexElement property="r" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
        """),
    Rule(
      code: "unknown-index-property", severity: .error, positions: ["6:13", "10:13"],
      body: """
            <entity name="A">
                <attribute name="title" attributeType="String"/>
                <fetchIndex name="byTitle">
                    <fetchIndexElement property="titel" type="Binary" order="ascending"/>
                    <fetchIndexElement expression="title.length" expressionType="Integer 64" type="Binary" order="ascending"/>
                </fetchIndex>
                <compoundIndexes>
                    <compoundIndex>
                        <index value="nope"/>
                    </compoundIndex>
                </compoundIndexes>
            </entity>
        """),
    // MARK: Model-level elements
    Rule(
      code: "duplicate-fetch-request", severity: .error, positions: ["8:5"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
            </entity>
            <fetchRequest name="All" entity="A"/>
            <fetchRequest name="All" entity="A" predicateString="a != nil"/>
        """.replacingOccurrences(
          of: "<fetchRequest name=\"All\" entity=\"A\"/>\n", with: "<fetchRequest name=\"All\" entity=\"A\"/>\n\n")),
    Rule(
      code: "duplicate-configuration", severity: .error, positions: ["10:5"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
            </entity>
            <configuration name="Cloud">
                <memberEntity name="A"/>
            </configuration>

            <configuration name="Cloud"/>
        """),
    Rule(
      code: "unknown-configuration-entity", severity: .error, positions: ["6:5"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
            </entity>
            <configuration name="Cloud" usedWithCloudKit="YES">
                <memberEntity name="A"/>
                <memberEntity name="B"/>
            </configuration>
        """, messageContains: "'B'"),
  ]

  @Test("Each validation rule fires at the exact line and column of the element concerned", arguments: rules)
  func rule(_ rule: Rule) throws {
    let diagnostics = diagnose(rule.body)
    #expect(diagnostics.positions(of: rule.code) == rule.positions, "\(diagnostics.printed)")
    let matching = diagnostics.with(code: rule.code)
    for diagnostic in matching {
      #expect(diagnostic.severity == rule.severity)
      #expect(diagnostic.location?.file == memoryPath)
      #expect(!diagnostic.notes.isEmpty, "every diagnostic says how to fix it")
    }
    if let fragment = rule.messageContains {
      #expect(matching.contains { $0.message.contains(fragment) }, "\(diagnostics.printed)")
    }
    if let note = rule.note {
      #expect(matching.first?.notes == [note], "\(diagnostics.printed)")
    }
    let otherErrors = diagnostics.errors.filter { $0.code != rule.code && !rule.alsoExpected.contains($0.code) }
    #expect(otherErrors.isEmpty, "the model should break only this rule:\n\(otherErrors.printed)")
  }

  @Test("A diagnostic prints as path:line:column: severity: message, then its notes")
  func printedForm() throws {
    let diagnostics = diagnose(
      """
          <entity name="Task">
              <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Projet"/>
              <attribute name="title" attributeType="String"/>
          </entity>
      """)
    let diagnostic = try #require(diagnostics.with(code: "unknown-destination-entity").first)
    #expect(diagnostic.entity == "Task")
    #expect(diagnostic.property == "project")
    #expect(
      diagnostic.description == """
        contents:4:9: error: relationship 'project' of entity 'Task' has destination entity 'Projet', which does not exist
        contents:4:9: note: add the entity or choose another destination
        """)
  }

  @Test("Inherited properties satisfy constraints, indexes and inverses")
  func inheritance() throws {
    let diagnostics = diagnose(
      """
          <entity name="Item" isAbstract="YES">
              <attribute name="identifier" attributeType="String"/>
              <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>
          </entity>
          <entity name="Note" parentEntity="Item">
              <attribute name="text" optional="YES" attributeType="String"/>
              <fetchIndex name="byIdentifier">
                  <fetchIndexElement property="identifier" type="Binary" order="ascending"/>
              </fetchIndex>
              <uniquenessConstraints>
                  <uniquenessConstraint>
                      <constraint value="identifier"/>
                      <constraint value="folder"/>
                  </uniquenessConstraint>
              </uniquenessConstraints>
          </entity>
          <entity name="Folder">
              <attribute name="name" attributeType="String"/>
              <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Item"/>
          </entity>
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics.printed)")
  }

  @Test("A self-inverse relationship is valid")
  func selfInverse() throws {
    let diagnostics = diagnose(
      """
          <entity name="Person">
              <attribute name="name" attributeType="String"/>
              <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
          </entity>
      """)
    #expect(diagnostics.isEmpty, "\(diagnostics.printed)")
  }

  @Test("Every version of the Tasks model is valid, with no warning either")
  func tasksModelIsClean() throws {
    let result = ModelReader.read(path: TestPaths.tasksModel.path)
    let bundle = try #require(result.bundle)
    #expect(bundle.versions.map(\.name) == ["Tasks", "Tasks 2", "Tasks 3", "Tasks 4"])
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.printed)")
  }

  @Test("The complete model of the reader tests is valid")
  func everythingIsValid() throws {
    let (version, readDiagnostics) = readDocument(ContentsReaderTests.everything)
    let model = try #require(version)
    let diagnostics = readDiagnostics + ModelValidator.validate(model)
    #expect(diagnostics.errors.isEmpty, "\(diagnostics.printed)")
  }

  @Test("Validation never crashes on models built in code with dangling references")
  func danglingReferencesInCode() {
    var entity = EntityDescription(name: "A", parentEntityName: "Missing")
    entity.relationships = [RelationshipDescription(name: "r", destinationEntityName: "Nowhere", inverseName: "x")]
    entity.uniquenessConstraints = [UniquenessConstraint(properties: ["nope"])]
    let model = ModelVersion(name: "Code", entities: [entity])
    let codes = Set(ModelValidator.validate(model).codes)
    #expect(
      codes.isSuperset(of: ["unknown-parent-entity", "unknown-destination-entity", "unknown-constraint-property"]))
  }
}
