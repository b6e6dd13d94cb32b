import DataModel
import Foundation
import Testing

@Suite("Reading the contents XML into model types")
struct ContentsReaderTests {
  /// A model that uses every element and attribute of the format at least once.
  static let everything = """
    <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
    <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="23605" systemVersion="24G720" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="v3" usedWithCloudKit="YES" usedWithSwiftData="NO" name="" macOSVersion="Automatic" iOSVersion="Automatic">
        <entity name="Base" representedClassName="Base" isAbstract="YES" syncable="YES">
            <attribute name="created" attributeType="Date" minDateTimeInterval="0" maxDateTimeInterval="31536000" defaultDateTimeInterval="86400" usesScalarValueType="NO"/>
        </entity>
        <entity name="Item" representedClassName="App.Item" parentEntity="Base" codeGenerationType="category" elementID="OldItem" versionHashModifier="v2" syncable="NO">
            <attribute name="binary" optional="YES" attributeType="Binary" minValueString="1" maxValueString="1024" allowsExternalBinaryDataStorage="YES"/>
            <attribute name="boolean" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
            <attribute name="canonicalTitle" optional="YES" attributeType="String" derived="YES" derivationExpression="canonical:(title)"/>
            <attribute name="color" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="UIColor"/>
            <attribute name="decimal" attributeType="Decimal" defaultValueString="1.25"/>
            <attribute name="double" attributeType="Double" minValueString="-1.5" maxValueString="1e3" defaultValueString="2.5" usesScalarValueType="YES"/>
            <attribute name="float" attributeType="Float" defaultValueString="0.5" usesScalarValueType="YES"/>
            <attribute name="int16" attributeType="Integer 16" minValueString="1" maxValueString="10" defaultValueString="7" usesScalarValueType="YES"/>
            <attribute name="int32" attributeType="Integer 32" defaultValueString="-2147483648" usesScalarValueType="YES"/>
            <attribute name="int64" attributeType="Integer 64" defaultValueString="9223372036854775807" usesScalarValueType="YES"/>
            <attribute name="legacy" optional="YES" attributeType="String" indexed="YES" storedInTruthFile="YES" syncable="YES"/>
            <attribute name="location" optional="YES" attributeType="Composite" composite="Location"/>
            <attribute name="objectID" optional="YES" transient="YES" attributeType="ObjectID"/>
            <attribute name="scratch" optional="YES" transient="YES"/>
            <attribute name="secret" optional="YES" attributeType="String" allowsCloudEncryption="YES" preserveAfterDeletion="YES" spotlightIndexingEnabled="YES"/>
            <attribute name="title" attributeType="String" minValueString="2" maxValueString="20" defaultValueString="Untitled" regularExpressionString="[A-Z].*" elementID="name" versionHashModifier="m1">
                <userInfo>
                    <entry key="key" value="value &amp; more"/>
                    <entry key="second" value=""/>
                </userInfo>
            </attribute>
            <attribute name="url" optional="YES" attributeType="URI" defaultValueString="https://example.com/a?b=c"/>
            <attribute name="uuid" optional="YES" attributeType="UUID" defaultValueString="01234567-89AB-CDEF-0123-456789ABCDEF" usesScalarValueType="NO"/>
            <relationship name="children" optional="YES" toMany="YES" minCount="1" maxCount="5" deletionRule="Cascade" ordered="YES" destinationEntity="Item" inverseName="parent" inverseEntity="Item" elementID="kids" versionHashModifier="r1" syncable="YES"/>
            <relationship name="owner" maxCount="1" deletionRule="Deny" destinationEntity="Owner" inverseName="items" inverseEntity="Owner" indexed="YES"/>
            <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="children" inverseEntity="Item">
                <userInfo>
                    <entry key="r" value="s"/>
                </userInfo>
            </relationship>
            <relationship name="related" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Owner"/>
            <relationship name="cache" optional="YES" transient="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner"/>
            <fetchedProperty name="recentSiblings" optional="YES" syncable="YES">
                <fetchRequest name="fetchedPropertyFetchRequest" entity="Item" predicateString="created &gt; $FETCH_SOURCE.created"/>
                <userInfo>
                    <entry key="f" value="g"/>
                </userInfo>
            </fetchedProperty>
            <fetchIndex name="byTitle">
                <fetchIndexElement property="title" type="Binary" order="ascending"/>
                <fetchIndexElement property="int16" type="Binary" order="descending"/>
            </fetchIndex>
            <fetchIndex name="byExpression">
                <fetchIndexElement expression="title.length" expressionType="Integer 64" type="RTree" order="descending"/>
            </fetchIndex>
            <uniquenessConstraints>
                <uniquenessConstraint>
                    <constraint value="title"/>
                </uniquenessConstraint>
                <uniquenessConstraint>
                    <constraint value="int16"/>
                    <constraint value="owner"/>
                </uniquenessConstraint>
            </uniquenessConstraints>
            <compoundIndexes>
                <compoundIndex>
                    <index value="int32"/>
                    <index value="int64"/>
                </compoundIndex>
            </compoundIndexes>
            <userInfo>
                <entry key="entityKey" value="entityValue"/>
            </userInfo>
        </entity>
        <entity name="Owner" representedClassName="Owner" syncable="YES" codeGenerationType="class">
            <attribute name="name" attributeType="String"/>
            <relationship name="items" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
        </entity>
        <composite name="Location">
            <attribute name="latitude" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
            <attribute name="place" optional="YES" attributeType="Composite" composite="Place"/>
        </composite>
        <composite name="Place">
            <attribute name="name" optional="YES" attributeType="String"/>
        </composite>
        <fetchRequest name="AllItems" entity="Item" predicateString="title BEGINSWITH $PREFIX" fetchLimit="10" fetchBatchSize="20" resultType="2" includeSubentities="YES" includePropertyValues="NO" includesPendingChanges="YES" returnObjectsAsFaults="NO" returnDistinctResults="YES"/>
        <fetchRequest name="Plain" entity="Owner"/>
        <configuration name="Cloud" usedWithCloudKit="YES">
            <memberEntity name="Item"/>
            <memberEntity name="Owner"/>
        </configuration>
        <configuration name="Local">
            <memberEntity name="Base"/>
        </configuration>
        <elements>
            <element name="Item" positionX="-63" positionY="-18" width="128" height="44"/>
        </elements>
    </model>
    """

  private func everything() throws -> (ModelVersion, [Diagnostic]) {
    let (version, diagnostics) = readDocument(Self.everything, name: "Everything")
    return (try #require(version, "\(diagnostics.printed)"), diagnostics)
  }

  @Test("The complete model reads without any diagnostic")
  func everythingReadsCleanly() throws {
    let (_, diagnostics) = try everything()
    #expect(diagnostics.isEmpty, "\(diagnostics.printed)")
  }

  @Test("<model> attributes are read; legacy ones are kept verbatim without a warning")
  func modelAttributes() throws {
    let (model, _) = try everything()
    #expect(model.name == "Everything")
    #expect(model.sourcePath == memoryPath)
    #expect(model.documentType == "com.apple.IDECoreDataModeler.DataModel")
    #expect(model.documentVersion == "1.0")
    #expect(model.lastSavedToolsVersion == "23605")
    #expect(model.systemVersion == "24G720")
    #expect(model.minimumToolsVersion == "Automatic")
    #expect(model.sourceLanguage == "Swift")
    #expect(model.versionIdentifier == "v3")
    #expect(model.usedWithCloudKit == true)
    #expect(model.usedWithSwiftData == false)
    #expect(
      model.unknownAttributes == [
        UnknownAttribute(name: "name", value: ""), UnknownAttribute(name: "macOSVersion", value: "Automatic"),
        UnknownAttribute(name: "iOSVersion", value: "Automatic"),
      ])
    #expect(model.unknownElements.isEmpty, "<elements> is layout only and is dropped")
    #expect(model.entities.map(\.name) == ["Base", "Item", "Owner"])
  }

  @Test("<entity> attributes are read and references resolved")
  func entityAttributes() throws {
    let (model, _) = try everything()
    let base = try #require(model.entity(named: "Base"))
    let item = try #require(model.entity(named: "Item"))
    let owner = try #require(model.entity(named: "Owner"))
    #expect(base.isAbstract)
    #expect(base.parentEntityName == nil)
    #expect(base.codeGenerationType == nil)
    #expect(base.isSyncable == true)
    #expect(base.subentities == [item.id])
    #expect(item.representedClassName == "App.Item")
    #expect(item.className == "Item")
    #expect(item.parentEntityName == "Base")
    #expect(item.parent == base.id)
    #expect(!item.isAbstract)
    #expect(item.codeGenerationType == .category)
    #expect(owner.codeGenerationType == .classDefinition)
    #expect(item.renamingIdentifier == "OldItem")
    #expect(item.versionIdentity == "OldItem")
    #expect(owner.versionIdentity == "Owner")
    #expect(item.versionHashModifier == "v2")
    #expect(item.isSyncable == false)
    #expect(item.userInfo.entries == [UserInfo.Entry(key: "entityKey", value: "entityValue")])
    #expect(item.userInfo["entityKey"] == "entityValue")
    #expect(item.location == SourceLocation(file: memoryPath, line: 6, column: 5))
    #expect(model.allAttributes(of: item.id).first?.name == "created", "inherited attributes come first")
  }

  @Test("Attributes of every type are read with their settings")
  func attributeTypesAndSettings() throws {
    let (model, _) = try everything()
    let item = try #require(model.entity(named: "Item"))
    func attribute(_ name: String) throws -> AttributeDescription {
      try #require(item.attribute(named: name), "attribute \(name)")
    }
    let types = item.attributes.map { "\($0.name):\($0.attributeType.rawValue)" }
    #expect(
      types == [
        "binary:Binary", "boolean:Boolean", "canonicalTitle:String", "color:Transformable", "decimal:Decimal",
        "double:Double", "float:Float", "int16:Integer 16", "int32:Integer 32", "int64:Integer 64", "legacy:String",
        "location:Composite", "objectID:ObjectID", "scratch:Undefined", "secret:String", "title:String", "url:URI",
        "uuid:UUID",
      ])

    let binary = try attribute("binary")
    #expect(binary.isOptional && !binary.isTransient)
    #expect(binary.allowsExternalBinaryDataStorage)
    #expect(binary.minValue == .integer(1) && binary.maxValue == .integer(1024))

    let color = try attribute("color")
    #expect(color.valueTransformerName == "NSSecureUnarchiveFromData")
    #expect(color.customClassName == "UIColor")

    let derived = try attribute("canonicalTitle")
    #expect(derived.isDerived)
    #expect(derived.derivationExpression == "canonical:(title)")
    #expect(derived.isPersistent)

    let location = try attribute("location")
    #expect(location.compositeName == "Location")

    let objectID = try attribute("objectID")
    #expect(objectID.isTransient && !objectID.isPersistent)

    let scratch = try attribute("scratch")
    #expect(scratch.attributeType == .undefined && scratch.isTransient)

    let secret = try attribute("secret")
    #expect(secret.allowsCloudEncryption)
    #expect(secret.preservesValueInHistoryOnDeletion)
    #expect(secret.isIndexedBySpotlight)

    let legacy = try attribute("legacy")
    #expect(legacy.isIndexed)
    #expect(legacy.isStoredInExternalRecord)
    #expect(legacy.isSyncable == true)

    let title = try attribute("title")
    #expect(!title.isOptional)
    #expect(title.regularExpression == "[A-Z].*")
    #expect(title.minValueString == "2" && title.maxValueString == "20")
    #expect(title.minValue == .integer(2) && title.maxValue == .integer(20), "String bounds are lengths")
    #expect(title.renamingIdentifier == "name")
    #expect(title.versionIdentity == "name")
    #expect(title.versionHashModifier == "m1")
    #expect(title.userInfo.entries.map(\.key) == ["key", "second"])
    #expect(title.userInfo["key"] == "value & more")
    #expect(title.userInfo["second"] == "")
    #expect(title.location == SourceLocation(file: memoryPath, line: 22, column: 9))

    #expect(try attribute("int16").usesScalarValueType == true)
    #expect(try attribute("uuid").usesScalarValueType == false)
    #expect(try attribute("title").usesScalarValueType == nil)
  }

  @Test("Defaults are typed by the attribute's type")
  func typedDefaults() throws {
    let (model, _) = try everything()
    let item = try #require(model.entity(named: "Item"))
    let base = try #require(model.entity(named: "Base"))
    func value(_ name: String) -> AttributeValue? { item.attribute(named: name)?.defaultValue }
    #expect(value("boolean") == .boolean(true))
    #expect(value("decimal") == .decimal(Decimal(string: "1.25")!))
    #expect(value("double") == .double(2.5))
    #expect(value("float") == .float(0.5))
    #expect(value("int16") == .integer(7))
    #expect(value("int32") == .integer(-2_147_483_648))
    #expect(value("int64") == .integer(9_223_372_036_854_775_807))
    #expect(value("title") == .string("Untitled"))
    #expect(value("url") == .uri(URL(string: "https://example.com/a?b=c")!))
    #expect(value("uuid") == .uuid(UUID(uuidString: "01234567-89AB-CDEF-0123-456789ABCDEF")!))
    #expect(value("binary") == nil)
    let created = try #require(base.attribute(named: "created"))
    #expect(created.defaultDateTimeInterval == "86400")
    #expect(created.defaultValue == .date(Date(timeIntervalSinceReferenceDate: 86400)))
    #expect(created.minDateTimeInterval == "0" && created.maxDateTimeInterval == "31536000")
    #expect(created.minValue == .date(Date(timeIntervalSinceReferenceDate: 0)))
    #expect(created.maxValue == .date(Date(timeIntervalSinceReferenceDate: 31_536_000)))
    let double = try #require(item.attribute(named: "double"))
    #expect(double.minValue == .double(-1.5) && double.maxValue == .double(1000))
  }

  @Test("Relationships are read with every flag, count and deletion rule")
  func relationships() throws {
    let (model, _) = try everything()
    let item = try #require(model.entity(named: "Item"))
    let owner = try #require(model.entity(named: "Owner"))
    let children = try #require(item.relationship(named: "children"))
    #expect(children.isOptional && children.isToMany && children.isOrdered && !children.isTransient)
    #expect(children.minCountValue == 1 && children.maxCountValue == 5)
    #expect(children.minCount == 1 && children.maxCount == 5)
    #expect(children.deletionRule == .cascade && children.hasExplicitDeletionRule)
    #expect(children.destinationEntityName == "Item" && children.destination == item.id)
    #expect(children.inverseName == "parent" && children.inverseEntityName == "Item")
    #expect(children.inverse.map { model[$0].name } == "parent")
    #expect(children.renamingIdentifier == "kids" && children.versionIdentity == "kids")
    #expect(children.versionHashModifier == "r1")
    #expect(children.isSyncable == true)

    let ownerRelationship = try #require(item.relationship(named: "owner"))
    #expect(!ownerRelationship.isOptional, "absent optional means required")
    #expect(!ownerRelationship.isToMany)
    #expect(ownerRelationship.deletionRule == .deny)
    #expect(ownerRelationship.isIndexed)
    #expect(ownerRelationship.minCount == 0 && ownerRelationship.maxCount == 1)

    let parent = try #require(item.relationship(named: "parent"))
    #expect(parent.deletionRule == .nullify)
    #expect(parent.userInfo["r"] == "s")

    let related = try #require(item.relationship(named: "related"))
    #expect(related.deletionRule == .noAction && related.hasExplicitDeletionRule)
    #expect(related.inverseName == nil && related.inverse == nil)
    #expect(related.minCountValue == nil && related.maxCountValue == nil)
    #expect(related.maxCount == 0, "an unbounded to-many has maxCount 0")

    let cache = try #require(item.relationship(named: "cache"))
    #expect(cache.isTransient && !cache.isPersistent)

    let items = try #require(owner.relationship(named: "items"))
    #expect(!items.isOptional && items.isToMany && !items.isOrdered)
    #expect(items.inverse.map { model[$0].name } == "owner")
  }

  @Test("A relationship without a deletion rule reads as No Action, with a warning at the element")
  func missingDeletionRule() throws {
    let (model, diagnostics) = readModel(
      """
          <entity name="A">
              <relationship name="b" optional="YES" maxCount="1" destinationEntity="A"/>
          </entity>
      """)
    let relationship = try #require(model?.entity(named: "A")?.relationship(named: "b"))
    #expect(relationship.deletionRule == .noAction)
    #expect(!relationship.hasExplicitDeletionRule)
    #expect(diagnostics.positions(of: "missing-deletion-rule") == ["4:9"])
    #expect(diagnostics.with(code: "missing-deletion-rule").first?.severity == .warning)
  }

  @Test("Fetched properties, fetch indexes, constraints and compound indexes are read")
  func entityChildren() throws {
    let (model, _) = try everything()
    let item = try #require(model.entity(named: "Item"))
    let fetched = try #require(item.fetchedProperties.first)
    #expect(item.fetchedProperties.count == 1)
    #expect(fetched.name == "recentSiblings" && fetched.isOptional && fetched.isSyncable == true)
    #expect(fetched.userInfo["f"] == "g")
    let request = try #require(fetched.fetchRequest)
    #expect(request.name == "fetchedPropertyFetchRequest")
    #expect(request.entityName == "Item")
    #expect(request.predicateString == "created > $FETCH_SOURCE.created")

    #expect(item.fetchIndexes.map(\.name) == ["byTitle", "byExpression"])
    let byTitle = item.fetchIndexes[0]
    #expect(byTitle.elements.map(\.property) == ["title", "int16"])
    #expect(byTitle.elements.map(\.isAscending) == [true, false])
    #expect(byTitle.elements.map(\.type) == [.binary, .binary])
    #expect(byTitle.elements[1].location == SourceLocation(file: memoryPath, line: 47, column: 13))
    let expression = try #require(item.fetchIndexes[1].elements.first)
    #expect(expression.property == nil)
    #expect(expression.expression == "title.length")
    #expect(expression.expressionType == "Integer 64")
    #expect(expression.type == .rTree)
    #expect(!expression.isAscending)

    #expect(item.uniquenessConstraints.map(\.properties) == [["title"], ["int16", "owner"]])
    #expect(item.uniquenessConstraints[1].location == SourceLocation(file: memoryPath, line: 56, column: 13))
    #expect(item.compoundIndexes.map(\.properties) == [["int32", "int64"]])
  }

  @Test("Model-level fetch request templates keep every flag; absent flags stay nil")
  func fetchRequestTemplates() throws {
    let (model, _) = try everything()
    #expect(model.fetchRequests.map(\.name) == ["AllItems", "Plain"])
    let all = model.fetchRequests[0]
    #expect(all.entityName == "Item")
    #expect(all.predicateString == "title BEGINSWITH $PREFIX")
    #expect(all.fetchLimit == 10)
    #expect(all.fetchBatchSize == 20)
    #expect(all.resultType == 2)
    #expect(all.includeSubentities == true)
    #expect(all.includePropertyValues == false)
    #expect(all.includesPendingChanges == true)
    #expect(all.returnObjectsAsFaults == false)
    #expect(all.returnDistinctResults == true)
    let plain = model.fetchRequests[1]
    #expect(plain.predicateString == nil && plain.fetchLimit == nil && plain.fetchBatchSize == nil)
    #expect(plain.resultType == nil && plain.includeSubentities == nil && plain.includePropertyValues == nil)
    #expect(plain.includesPendingChanges == nil && plain.returnObjectsAsFaults == nil)
    #expect(plain.returnDistinctResults == nil)
  }

  @Test("Configurations and composites are read")
  func configurationsAndComposites() throws {
    let (model, _) = try everything()
    #expect(model.configurations.map(\.name) == ["Cloud", "Local"])
    #expect(model.configurations.map(\.usedWithCloudKit) == [true, false])
    #expect(model.configurations.map(\.memberEntities) == [["Item", "Owner"], ["Base"]])
    #expect(model.composites.map(\.name) == ["Location", "Place"])
    let location = try #require(model.composite(named: "Location"))
    #expect(location.attributes.map(\.name) == ["latitude", "place"])
    #expect(location.attributes[0].defaultValue == .double(0))
    #expect(location.attributes[1].attributeType == .composite)
    #expect(location.attributes[1].compositeName == "Place")
  }

  @Test("Absent attributes read as Xcode means them: false, nil, required, to-one")
  func absenceDefaults() throws {
    let model = try #require(
      version(
        """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <relationship name="r" deletionRule="Nullify" destinationEntity="A"/>
            </entity>
        """))
    let entity = try #require(model.entity(named: "A"))
    #expect(entity.representedClassName == nil && entity.className == "A")
    #expect(entity.parentEntityName == nil && !entity.isAbstract && entity.codeGenerationType == nil)
    #expect(entity.renamingIdentifier == nil && entity.versionHashModifier == nil && entity.isSyncable == nil)
    let attribute = try #require(entity.attribute(named: "a"))
    #expect(!attribute.isOptional && !attribute.isTransient && !attribute.isDerived)
    #expect(attribute.defaultValueString == nil && attribute.defaultValue == nil)
    #expect(attribute.minValue == nil && attribute.maxValue == nil && attribute.regularExpression == nil)
    #expect(attribute.usesScalarValueType == nil && !attribute.allowsExternalBinaryDataStorage)
    #expect(!attribute.preservesValueInHistoryOnDeletion && !attribute.allowsCloudEncryption)
    #expect(!attribute.isIndexedBySpotlight && !attribute.isIndexed && !attribute.isStoredInExternalRecord)
    #expect(attribute.renamingIdentifier == nil && attribute.versionHashModifier == nil && attribute.isSyncable == nil)
    #expect(attribute.userInfo.isEmpty && attribute.unknownAttributes.isEmpty && attribute.unknownElements.isEmpty)
    let relationship = try #require(entity.relationship(named: "r"))
    #expect(!relationship.isOptional && !relationship.isToMany && !relationship.isOrdered && !relationship.isTransient)
    #expect(relationship.minCount == 0 && relationship.maxCount == 1)
    #expect(!relationship.isIndexed && relationship.isSyncable == nil)
  }

  @Test("An attribute without attributeType is Undefined")
  func missingType() throws {
    let model = try #require(
      version(
        """
            <entity name="A">
                <attribute name="scratch" optional="YES" transient="YES"/>
            </entity>
        """))
    #expect(model.entity(named: "A")?.attribute(named: "scratch")?.attributeType == .undefined)
  }

  // MARK: - Lenient default parsing

  /// A default value as written, the attribute type and the value it must read as.
  struct LenientCase: Sendable, CustomTestStringConvertible {
    var type: String
    var text: String
    var expected: AttributeValue
    var warns: Bool
    var testDescription: String { "\(type) '\(text)'" }
  }

  static let lenientCases: [LenientCase] = [
    LenientCase(type: "Integer 16", text: "NO", expected: .integer(0), warns: true),
    LenientCase(type: "Integer 32", text: "YES", expected: .integer(1), warns: true),
    LenientCase(type: "Integer 64", text: "0.0", expected: .integer(0), warns: false),
    LenientCase(type: "Integer 32", text: "12.0", expected: .integer(12), warns: false),
    LenientCase(type: "Integer 64", text: "1e3", expected: .integer(1000), warns: false),
    LenientCase(type: "Integer 16", text: " 5 ", expected: .integer(5), warns: false),
    LenientCase(type: "Boolean", text: "NO", expected: .boolean(false), warns: false),
    LenientCase(type: "Boolean", text: "0", expected: .boolean(false), warns: false),
    LenientCase(type: "Boolean", text: "1", expected: .boolean(true), warns: false),
    LenientCase(type: "Boolean", text: "true", expected: .boolean(true), warns: false),
    LenientCase(type: "Double", text: "NO", expected: .double(0), warns: true),
    LenientCase(type: "Float", text: "YES", expected: .float(1), warns: true),
    LenientCase(type: "Decimal", text: "NO", expected: .decimal(0), warns: true),
    LenientCase(type: "Decimal", text: "0", expected: .decimal(0), warns: false),
    LenientCase(type: "Double", text: "-0.25", expected: .double(-0.25), warns: false),
    LenientCase(
      type: "Date", text: "-86400", expected: .date(Date(timeIntervalSinceReferenceDate: -86400)), warns: false),
    LenientCase(type: "String", text: "", expected: .string(""), warns: false),
    LenientCase(type: "String", text: "&quot;&quot;", expected: .string("\"\""), warns: false),
  ]

  @Test("Untidy defaults that Xcode compiles read leniently", arguments: lenientCases)
  func lenientDefaults(_ example: LenientCase) throws {
    let (model, diagnostics) = readModel(
      """
          <entity name="A">
              <attribute name="value" attributeType="\(example.type)" defaultValueString="\(example.text)"/>
          </entity>
      """)
    let attribute = try #require(model?.entity(named: "A")?.attribute(named: "value"))
    #expect(attribute.defaultValue == example.expected)
    #expect(diagnostics.errors.isEmpty, "\(diagnostics.printed)")
    // `        <attribute name="value" attributeType="` is 47 characters, then the type and `" `.
    let column = 47 + example.type.count + 3
    #expect(
      diagnostics.positions(of: "lenient-value") == (example.warns ? ["4:\(column)"] : []), "\(diagnostics.printed)")
  }

  // MARK: - Reader diagnostics at exact positions

  /// A model body that must give a diagnostic with this code at these `line:column` positions.
  struct ReaderCase: Sendable, CustomTestStringConvertible {
    var code: String
    var severity: Diagnostic.Severity
    var positions: [String]
    var body: String
    var testDescription: String { code }
  }

  static let readerCases: [ReaderCase] = [
    ReaderCase(
      code: "missing-name", severity: .error, positions: ["3:5", "5:9", "6:9"],
      body: """
            <entity representedClassName="X">
                <attribute name="ok" attributeType="String"/>
                <attribute attributeType="String"/>
                <relationship deletionRule="Nullify" destinationEntity="A"/>
            </entity>
        """),
    ReaderCase(
      code: "unknown-attribute-type", severity: .error, positions: ["4:29"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="Strin"/>
            </entity>
        """),
    ReaderCase(
      code: "invalid-flag", severity: .warning, positions: ["4:29", "5:32"],
      body: """
            <entity name="A">
                <attribute name="a" optional="yes" attributeType="String"/>
                <relationship name="r" toMany="1" deletionRule="Nullify" destinationEntity="A"/>
            </entity>
        """),
    ReaderCase(
      code: "invalid-number", severity: .error, positions: ["4:47", "5:47", "7:39"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="one" deletionRule="Nullify" destinationEntity="A"/>
                <relationship name="s" optional="YES" minCount="1.5" toMany="YES" deletionRule="Nullify" destinationEntity="A"/>
            </entity>
            <fetchRequest name="F" entity="A" fetchLimit="ten"/>
        """),
    ReaderCase(
      code: "invalid-default", severity: .error, positions: ["4:56", "5:56", "6:53", "7:50", "8:65", "9:52"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="Integer 16" defaultValueString="40000"/>
                <attribute name="b" attributeType="Integer 32" defaultValueString="1.5"/>
                <attribute name="c" attributeType="Boolean" defaultValueString="maybe"/>
                <attribute name="d" attributeType="Date" defaultDateTimeInterval="yesterday"/>
                <attribute name="e" optional="YES" attributeType="UUID" defaultValueString="not-a-uuid"/>
                <attribute name="f" attributeType="Double" defaultValueString="1,5"/>
            </entity>
        """),
    ReaderCase(
      code: "invalid-bound", severity: .error, positions: ["4:52", "5:56", "6:50"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String" minValueString="-1"/>
                <attribute name="b" attributeType="Integer 64" maxValueString="big"/>
                <attribute name="c" attributeType="Date" maxDateTimeInterval="soon"/>
            </entity>
        """),
    ReaderCase(
      code: "ignored-default", severity: .warning, positions: ["4:67"],
      body: """
            <entity name="A">
                <attribute name="a" optional="YES" attributeType="Binary" defaultValueString="abc"/>
            </entity>
        """),
    ReaderCase(
      code: "lenient-value", severity: .warning, positions: ["4:56", "5:56"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="Integer 16" defaultValueString="YES"/>
                <attribute name="b" attributeType="Integer 16" minValueString="NO"/>
            </entity>
        """),
    ReaderCase(
      code: "missing-deletion-rule", severity: .warning, positions: ["4:9"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="1" destinationEntity="A"/>
            </entity>
        """),
    ReaderCase(
      code: "unknown-deletion-rule", severity: .error, positions: ["4:60"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Delete" destinationEntity="A"/>
            </entity>
        """),
    ReaderCase(
      code: "missing-destination", severity: .error, positions: ["4:9"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify"/>
            </entity>
        """),
    ReaderCase(
      code: "incomplete-inverse", severity: .error, positions: ["4:9", "5:9"],
      body: """
            <entity name="A">
                <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="r"/>
                <relationship name="s" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseEntity="A"/>
            </entity>
        """),
    ReaderCase(
      code: "unknown-codegen", severity: .warning, positions: ["3:22"],
      body: """
            <entity name="A" codeGenerationType="struct">
                <attribute name="a" attributeType="String"/>
            </entity>
        """),
    ReaderCase(
      code: "invalid-index-order", severity: .warning, positions: ["6:59"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <fetchIndex name="i">
                    <fetchIndexElement property="a" type="Binary" order="up"/>
                </fetchIndex>
            </entity>
        """),
    ReaderCase(
      code: "empty-index-element", severity: .error, positions: ["7:13"],
      body: """
            <entity name="A">
                <attribute name="a" attributeType="String"/>
                <fetchIndex name="i">
                    <fetchIndexElement type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
        """.replacingOccurrences(of: "<fetchIndex name=\"i\">\n", with: "<fetchIndex name=\"i\">\n\n")),
  ]

  @Test("Each reader diagnostic fires at the exact line and column", arguments: readerCases)
  func readerDiagnostic(_ example: ReaderCase) throws {
    let (_, diagnostics) = readModel(example.body)
    #expect(diagnostics.positions(of: example.code) == example.positions, "\(diagnostics.printed)")
    for diagnostic in diagnostics.with(code: example.code) {
      #expect(diagnostic.severity == example.severity)
      #expect(diagnostic.location?.file == memoryPath)
      #expect(
        !diagnostic.notes.isEmpty || diagnostic.code == "unexpected-model-type", "every diagnostic says how to fix it")
    }
  }

  @Test("A diagnostic names its entity and property")
  func diagnosticNamesEntityAndProperty() throws {
    let (_, diagnostics) = readModel(
      """
          <entity name="Task">
              <attribute name="title" attributeType="Strng"/>
          </entity>
      """)
    let diagnostic = try #require(diagnostics.with(code: "unknown-attribute-type").first)
    #expect(diagnostic.entity == "Task")
    #expect(diagnostic.property == "title")
    #expect(diagnostic.message.contains("'Strng'"))
    #expect(diagnostic.notes == ["did you mean 'String'?"])
    #expect(diagnostic.description.hasPrefix("contents:4:33: error: unknown attribute type 'Strng'"))
  }

  @Test("Flag and number diagnostics name the XML attribute and say how to write it")
  func flagAndNumberMessages() throws {
    let (_, diagnostics) = readModel(
      """
          <entity name="A">
              <relationship name="r" optional="yes" maxCount="one" deletionRule="Nullify" destinationEntity="A"/>
          </entity>
      """)
    let flag = try #require(diagnostics.with(code: "invalid-flag").first)
    #expect(flag.message == "'yes' is not a valid value for 'optional'; it reads as NO")
    #expect(flag.notes == [#"write optional="YES" or leave the attribute out"#])
    #expect(flag.entity == "A" && flag.property == "r")
    let number = try #require(diagnostics.with(code: "invalid-number").first)
    #expect(number.message == "'one' is not a whole number for 'maxCount'")
    #expect(number.notes == [#"write a whole number, e.g. maxCount="1""#])
  }

  @Test("A type written in the wrong case is suggested in the right one")
  func typeSuggestion() throws {
    let (_, diagnostics) = readModel(
      """
          <entity name="A">
              <attribute name="a" attributeType="integer16"/>
          </entity>
      """)
    #expect(diagnostics.with(code: "unknown-attribute-type").first?.notes == ["did you mean 'Integer 16'?"])
  }

  @Test("The model's type, when not Xcode's, is a warning at the attribute")
  func unexpectedModelType() throws {
    let (model, diagnostics) = readDocument(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <model type="com.example.Other" documentVersion="1.0">
          <entity name="A">
              <attribute name="a" attributeType="String"/>
          </entity>
      </model>
      """)
    #expect(model != nil)
    #expect(diagnostics.positions(of: "unexpected-model-type") == ["2:8"])
    #expect(diagnostics.with(code: "unexpected-model-type").first?.severity == .warning)
  }

  // MARK: - Unknown markup

  @Test("Unknown attributes and elements warn once per kind and are kept verbatim")
  func unknownMarkup() throws {
    let (model, diagnostics) = readModel(
      """
          <entity name="A" futureFlag="YES">
              <attribute name="a" attributeType="String" shiny="1"/>
              <attribute name="b" attributeType="String" shiny="2"/>
              <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B" glow="x"/>
              <futureThing kind="new">
                  <part>text</part>
              </futureThing>
              <futureThing kind="again"/>
          </entity>
          <entity name="B" futureFlag="NO">
              <attribute name="b" attributeType="String"/>
          </entity>
          <modelLevelThing/>
      """)
    let model2 = try #require(model)
    #expect(diagnostics.positions(of: "unknown-attribute") == ["3:22", "4:52", "6:105"], "\(diagnostics.printed)")
    #expect(diagnostics.positions(of: "unknown-element") == ["7:9", "15:5"], "\(diagnostics.printed)")
    #expect(diagnostics.allSatisfy { $0.severity == .warning })
    let a = try #require(model2.entity(named: "A"))
    let b = try #require(model2.entity(named: "B"))
    #expect(a.unknownAttributes == [UnknownAttribute(name: "futureFlag", value: "YES")])
    #expect(b.unknownAttributes == [UnknownAttribute(name: "futureFlag", value: "NO")], "kept even when not reported")
    #expect(
      a.attributes.map(\.unknownAttributes) == [[.init(name: "shiny", value: "1")], [.init(name: "shiny", value: "2")]])
    #expect(a.relationships[0].unknownAttributes == [UnknownAttribute(name: "glow", value: "x")])
    #expect(
      a.unknownElements == [
        UnknownElement(
          name: "futureThing", attributes: [.init(name: "kind", value: "new")],
          children: [UnknownElement(name: "part", text: "text")]),
        UnknownElement(name: "futureThing", attributes: [.init(name: "kind", value: "again")]),
      ])
    #expect(model2.unknownElements == [UnknownElement(name: "modelLevelThing")])
  }

  @Test("Unknown markup inside every known element is kept")
  func unknownMarkupEverywhere() throws {
    let (model, diagnostics) = readModel(
      """
          <entity name="A">
              <attribute name="a" attributeType="String">
                  <note/>
              </attribute>
              <relationship name="r" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="r" inverseEntity="A">
                  <note/>
              </relationship>
              <fetchedProperty name="f" optional="YES" extra="1">
                  <fetchRequest name="fetchedPropertyFetchRequest" entity="A" extra="2">
                      <note/>
                  </fetchRequest>
                  <note/>
              </fetchedProperty>
              <fetchIndex name="i" extra="3">
                  <fetchIndexElement property="a" type="Binary" order="ascending" collation="nocase"/>
                  <note/>
              </fetchIndex>
              <uniquenessConstraints>
                  <uniquenessConstraint>
                      <constraint value="a"/>
                  </uniquenessConstraint>
                  <note/>
              </uniquenessConstraints>
              <compoundIndexes>
                  <note/>
              </compoundIndexes>
              <userInfo>
                  <entry key="k" value="v" extra="4"/>
                  <note/>
              </userInfo>
          </entity>
          <composite name="C" extra="5">
              <attribute name="x" attributeType="String"/>
              <note/>
          </composite>
          <fetchRequest name="T" entity="A" extra="6">
              <note/>
          </fetchRequest>
          <configuration name="K" extra="7">
              <memberEntity name="A"/>
              <note/>
          </configuration>
      """)
    let version = try #require(model)
    let a = try #require(version.entity(named: "A"))
    #expect(diagnostics.errors.isEmpty, "\(diagnostics.printed)")
    #expect(a.attributes[0].unknownElements == [UnknownElement(name: "note")])
    #expect(a.relationships[0].unknownElements == [UnknownElement(name: "note")])
    #expect(a.fetchedProperties[0].unknownAttributes == [UnknownAttribute(name: "extra", value: "1")])
    #expect(a.fetchedProperties[0].unknownElements == [UnknownElement(name: "note")])
    #expect(a.fetchedProperties[0].fetchRequest?.unknownAttributes == [UnknownAttribute(name: "extra", value: "2")])
    #expect(a.fetchedProperties[0].fetchRequest?.unknownElements == [UnknownElement(name: "note")])
    #expect(a.fetchIndexes[0].unknownAttributes == [UnknownAttribute(name: "extra", value: "3")])
    #expect(a.fetchIndexes[0].unknownElements == [UnknownElement(name: "note")])
    #expect(a.fetchIndexes[0].elements[0].unknownAttributes == [UnknownAttribute(name: "collation", value: "nocase")])
    #expect(
      a.unknownElements == [
        UnknownElement(name: "uniquenessConstraints", children: [UnknownElement(name: "note")]),
        UnknownElement(name: "compoundIndexes", children: [UnknownElement(name: "note")]),
        UnknownElement(
          name: "userInfo",
          children: [
            UnknownElement(
              name: "entry",
              attributes: [
                .init(name: "key", value: "k"), .init(name: "value", value: "v"), .init(name: "extra", value: "4"),
              ]),
            UnknownElement(name: "note"),
          ]),
      ])
    #expect(a.userInfo["k"] == "v")
    #expect(version.composites[0].unknownAttributes == [UnknownAttribute(name: "extra", value: "5")])
    #expect(version.composites[0].unknownElements == [UnknownElement(name: "note")])
    #expect(version.fetchRequests[0].unknownAttributes == [UnknownAttribute(name: "extra", value: "6")])
    #expect(version.fetchRequests[0].unknownElements == [UnknownElement(name: "note")])
    #expect(version.configurations[0].unknownAttributes == [UnknownAttribute(name: "extra", value: "7")])
    #expect(version.configurations[0].unknownElements == [UnknownElement(name: "note")])
  }

  // MARK: - Malformed documents

  /// A document that is not a readable model, the code it must give and where.
  struct BrokenDocument: Sendable, CustomTestStringConvertible {
    var label: String
    var xml: String
    var code: String
    var position: String
    var testDescription: String { label }
  }

  static let brokenDocuments: [BrokenDocument] = [
    BrokenDocument(label: "empty file", xml: "", code: "xml-syntax", position: "1:1"),
    BrokenDocument(
      label: "truncated",
      xml: String(modelXML("    <entity name=\"A\">\n        <attribute name=\"a\" attributeType=\"Str").dropLast(10)),
      code: "xml-syntax", position: "4:43"),
    BrokenDocument(
      label: "mismatched tags", xml: modelXML("    <entity name=\"A\">\n        <attribute name=\"a\">\n    </entity>"),
      code: "xml-syntax", position: "5:5"),
    BrokenDocument(
      label: "'<' in an attribute value",
      xml: modelXML(
        "    <entity name=\"A\">\n        <fetchedProperty name=\"f\" predicate=\"a < b\"/>\n    </entity>"),
      code: "xml-syntax", position: "4:48"),
    BrokenDocument(
      label: "unknown entity reference",
      xml: modelXML("    <entity name=\"A&eacute;\">\n    </entity>"), code: "xml-syntax", position: "3:20"),
    BrokenDocument(
      label: "non-UTF-8 declaration",
      xml: "<?xml version=\"1.0\" encoding=\"Shift_JIS\"?>\n<model/>", code: "xml-syntax", position: "1:1"),
    BrokenDocument(
      label: "a property list", xml: "<?xml version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>",
      code: "not-a-model", position: "2:1"),
    BrokenDocument(
      label: "HTML", xml: "<!DOCTYPE html>\n\n  <html><body/></html>", code: "not-a-model", position: "3:3"),
    BrokenDocument(label: "plain text", xml: "entity Task { title: String }", code: "xml-syntax", position: "1:1"),
  ]

  @Test("A document that is not a well-formed model is one error at the right place", arguments: brokenDocuments)
  func brokenDocument(_ example: BrokenDocument) throws {
    let (model, diagnostics) = readDocument(example.xml)
    #expect(model == nil)
    #expect(diagnostics.count == 1, "\(diagnostics.printed)")
    #expect(diagnostics.positions(of: example.code) == [example.position], "\(diagnostics.printed)")
    #expect(diagnostics.first?.severity == .error)
    #expect(diagnostics.first?.description.hasPrefix("contents:\(example.position): error: ") == true)
  }

  @Test("Every prefix of a real model reads or fails with a located error, never a crash")
  func truncationNeverCrashes() throws {
    let bytes = Array(Self.everything.utf8)
    for length in stride(from: 0, to: bytes.count, by: 3) {
      let text = String(decoding: bytes[0..<length], as: UTF8.self)
      let (model, diagnostics) = readDocument(text)
      if model == nil {
        #expect(diagnostics.containsErrors, "prefix of \(length) bytes")
        #expect(diagnostics.allSatisfy { $0.location != nil }, "prefix of \(length) bytes")
      }
    }
  }

  @Test("Random corruption of a real model never crashes the reader or the validator")
  func corruptionNeverCrashes() throws {
    var generator = SplitMix64(seed: 42)
    let original = Array(Self.everything.utf8)
    let replacements = Array("<>/=\"'&;! \n?-".utf8) + [0x00, 0xC3, 0xFF]
    for _ in 0..<300 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: bytes[position] = replacements.randomElement(using: &generator)!
        case 1: bytes.remove(at: position)
        default: bytes.insert(replacements.randomElement(using: &generator)!, at: position)
        }
      }
      let (model, diagnostics) = ModelReader.readVersion(
        xml: String(decoding: bytes, as: UTF8.self), name: "Fuzz", path: memoryPath)
      if let model {
        _ = ModelValidator.validate(model)
        _ = model.versionHashes
      } else {
        #expect(diagnostics.containsErrors)
      }
    }
  }
}
