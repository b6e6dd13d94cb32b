import DataModel
import Foundation
import TestSupport
import Testing

@Suite("Canonical JSON dump")
struct ModelDumpTests {
  static let golden = TestPaths.fixtures.appendingPathComponent("golden/Tasks.dump.json")

  private func dump(_ path: String) throws -> String {
    JSONWriter.prettyPrinted(ModelDump.json(of: try ModelBundle(contentsOf: path)))
  }

  @Test("The Tasks model dumps exactly as the golden file (MODELC_UPDATE_GOLDEN=1 rewrites it)")
  func tasksGolden() throws {
    let text = try dump(TestPaths.tasksModel.path)
    if ProcessInfo.processInfo.environment["MODELC_UPDATE_GOLDEN"] == "1" {
      try text.write(to: Self.golden, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: Self.golden, encoding: .utf8)
    #expect(text == expected, "the dump changed; review it, then rerun with MODELC_UPDATE_GOLDEN=1")
  }

  @Test("Two reads of the same model dump to the same bytes")
  func deterministic() throws {
    #expect(try dump(TestPaths.tasksModel.path) == dump(TestPaths.tasksModel.path))
    let (first, _) = readDocument(ContentsReaderTests.everything)
    let (second, _) = readDocument(ContentsReaderTests.everything)
    let a = JSONWriter.compact(ModelDump.json(of: try #require(first), isCurrent: true))
    let b = JSONWriter.compact(ModelDump.json(of: try #require(second), isCurrent: true))
    #expect(a == b)
  }

  @Test("The dump parses back to the same JSON value")
  func roundTrip() throws {
    let (version, _) = readDocument(ContentsReaderTests.everything)
    let value = ModelDump.json(of: try #require(version), isCurrent: false)
    #expect(try JSONParser.parse(JSONWriter.prettyPrinted(value)) == value)
    #expect(try JSONParser.parse(JSONWriter.compact(value)) == value)
  }

  @Test("Only the named versions are dumped when asked, in migration order, with the current one marked")
  func selectedVersions() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    let all = ModelDump.json(of: bundle)
    #expect(
      all["versions"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Tasks", "Tasks 2", "Tasks 3", "Tasks 4"])
    #expect(
      all["versions"]?.arrayValue?.map { $0["isCurrent"] } == [.bool(false), .bool(false), .bool(false), .bool(true)])
    let some = ModelDump.json(of: bundle, versionNames: ["Tasks 3", "Tasks"])
    #expect(some["versions"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Tasks", "Tasks 3"])
    #expect(ModelDump.json(of: bundle, versionNames: [])["versions"] == .array([]))
  }

  @Test("The dump holds the version's hashes")
  func hashes() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    let version = bundle.currentVersion
    let json = ModelDump.json(of: version, isCurrent: true)
    let hashes = version.versionHashes
    #expect(json["hash"]?.stringValue == hashes.checksum)
    #expect(json["hashesDigest"]?.stringValue == hashes.digest)
    let task = json["entities"]?.arrayValue?.first { $0["name"]?.stringValue == "Task" }
    #expect(task?["hash"]?.stringValue == hashes.hexHash(of: "Task"))
  }

  @Test("Every element of the format appears under its XML name")
  func everything() throws {
    let (read, _) = readDocument(ContentsReaderTests.everything)
    let version = try #require(read)
    let json = ModelDump.json(of: version, isCurrent: true)
    #expect(json["userDefinedModelVersionIdentifier"] == .string("v3"))
    #expect(json["usedWithCloudKit"] == .bool(true))
    #expect(json["usedWithSwiftData"] == .bool(false))
    #expect(json["unknownAttributes"]?["macOSVersion"] == .string("Automatic"))
    let entities = try #require(json["entities"]?.arrayValue)
    #expect(entities.compactMap { $0["name"]?.stringValue } == ["Base", "Item", "Owner"])
    let base = entities[0]
    #expect(base["isAbstract"] == .bool(true))
    #expect(base["subentities"] == .array([.string("Item")]))
    let item = entities[1]
    #expect(item["parentEntity"] == .string("Base"))
    #expect(item["codeGenerationType"] == .string("category"))
    #expect(item["elementID"] == .string("OldItem"))
    #expect(item["versionHashModifier"] == .string("v2"))
    #expect(item["syncable"] == .bool(false))
    #expect(item["isAbstract"] == nil, "false flags are left out")
    #expect(item["userInfo"] == .object([("entityKey", .string("entityValue"))]))
    #expect(
      item["uniquenessConstraints"]
        == .array([.array([.string("title")]), .array([.string("int16"), .string("owner")])]))
    #expect(item["compoundIndexes"] == .array([.array([.string("int32"), .string("int64")])]))
    let attributes = try #require(item["attributes"]?.arrayValue)
    func attribute(_ name: String) -> JSONValue? { attributes.first { $0["name"]?.stringValue == name } }
    #expect(attribute("decimal")?["defaultValue"] == .string("1.25"), "Decimal defaults stay exact, as strings")
    #expect(attribute("double")?["defaultValue"] == .number("2.5"))
    #expect(attribute("float")?["defaultValue"] == .number("0.5"))
    #expect(attribute("int64")?["defaultValue"] == .number("9223372036854775807"))
    #expect(attribute("boolean")?["defaultValue"] == .bool(true))
    #expect(attribute("uuid")?["defaultValue"] == .string("01234567-89AB-CDEF-0123-456789ABCDEF"))
    #expect(attribute("url")?["defaultValue"] == .string("https://example.com/a?b=c"))
    #expect(attribute("binary")?["allowsExternalBinaryDataStorage"] == .bool(true))
    #expect(attribute("canonicalTitle")?["derived"] == .bool(true))
    #expect(attribute("canonicalTitle")?["derivationExpression"] == .string("canonical:(title)"))
    #expect(attribute("color")?["valueTransformerName"] == .string("NSSecureUnarchiveFromData"))
    #expect(attribute("color")?["customClassName"] == .string("UIColor"))
    #expect(attribute("location")?["composite"] == .string("Location"))
    #expect(attribute("secret")?["preserveAfterDeletion"] == .bool(true))
    #expect(attribute("secret")?["allowsCloudEncryption"] == .bool(true))
    #expect(attribute("secret")?["spotlightIndexingEnabled"] == .bool(true))
    #expect(attribute("legacy")?["indexed"] == .bool(true))
    #expect(attribute("legacy")?["storedInTruthFile"] == .bool(true))
    #expect(attribute("title")?["regularExpressionString"] == .string("[A-Z].*"))
    #expect(attribute("title")?["minValueString"] == .string("2"))
    #expect(attribute("title")?["elementID"] == .string("name"))
    #expect(attribute("title")?["userInfo"]?["key"] == .string("value & more"))
    let created = try #require(base["attributes"]?.arrayValue?.first)
    #expect(created["defaultDateTimeInterval"] == .string("86400"))
    #expect(created["defaultValue"] == .string("2001-01-02T00:00:00.000Z"))
    #expect(created["minDateTimeInterval"] == .string("0"))
    let relationships = try #require(item["relationships"]?.arrayValue)
    let children = try #require(relationships.first { $0["name"]?.stringValue == "children" })
    #expect(children["ordered"] == .bool(true))
    #expect(children["minCount"] == .number("1"))
    #expect(children["maxCount"] == .number("5"))
    #expect(children["deletionRule"] == .string("Cascade"))
    #expect(children["elementID"] == .string("kids"))
    let fetched = try #require(item["fetchedProperties"]?.arrayValue?.first)
    #expect(fetched["fetchRequest"]?["predicateString"] == .string("created > $FETCH_SOURCE.created"))
    let indexes = try #require(item["fetchIndexes"]?.arrayValue)
    #expect(indexes[1]["elements"]?.arrayValue?.first?["expression"] == .string("title.length"))
    #expect(indexes[1]["elements"]?.arrayValue?.first?["order"] == .string("descending"))
    #expect(indexes[1]["elements"]?.arrayValue?.first?["type"] == .string("RTree"))
    let template = try #require(json["fetchRequests"]?.arrayValue?.first)
    #expect(template["fetchLimit"] == .number("10"))
    #expect(template["includesPendingChanges"] == .bool(true))
    #expect(template["returnObjectsAsFaults"] == .bool(false))
    #expect(json["configurations"]?.arrayValue?.first?["usedWithCloudKit"] == .bool(true))
    #expect(
      json["configurations"]?.arrayValue?.first?["memberEntities"] == .array([.string("Item"), .string("Owner")]))
    #expect(json["composites"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["Location", "Place"])
  }

  @Test("Unknown markup is dumped wherever it was kept")
  func unknownMarkup() throws {
    let (read, _) = readModel(
      """
          <entity name="A" future="1">
              <attribute name="a" attributeType="String"/>
              <fetchIndex name="i" extra="3">
                  <fetchIndexElement property="a" type="Binary" order="ascending" collation="nocase"/>
              </fetchIndex>
              <gadget size="2">text</gadget>
          </entity>
          <fetchRequest name="T" entity="A"><note/></fetchRequest>
          <configuration name="K" extra="7"/>
          <composite name="C"><note/></composite>
      """)
    let json = ModelDump.json(of: try #require(read), isCurrent: true)
    let entity = try #require(json["entities"]?.arrayValue?.first)
    #expect(entity["unknownAttributes"] == .object([("future", .string("1"))]))
    #expect(
      entity["unknownElements"]
        == .array([
          .object([
            ("element", .string("gadget")), ("attributes", .object([("size", .string("2"))])),
            ("text", .string("text")),
          ])
        ]))
    let index = try #require(entity["fetchIndexes"]?.arrayValue?.first)
    #expect(index["unknownAttributes"] == .object([("extra", .string("3"))]))
    #expect(index["elements"]?.arrayValue?.first?["unknownAttributes"] == .object([("collation", .string("nocase"))]))
    #expect(
      json["fetchRequests"]?.arrayValue?.first?["unknownElements"] == .array([.object([("element", .string("note"))])]))
    #expect(json["configurations"]?.arrayValue?.first?["unknownAttributes"] == .object([("extra", .string("7"))]))
    #expect(
      json["composites"]?.arrayValue?.first?["unknownElements"] == .array([.object([("element", .string("note"))])]))
  }

  @Test(
    "Every corpus model dumps, every version with its entities and hashes; the current version's dump parses back",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)),
    arguments: TestPaths.corpusModels())
  func corpusDumps(_ url: URL) throws {
    let result = ModelReader.read(path: url.path, validate: false)
    let bundle = try #require(result.bundle, "\(result.diagnostics.printed)")
    let versions = try #require(ModelDump.json(of: bundle)["versions"]?.arrayValue)
    #expect(versions.count == bundle.versions.count)
    for (json, version) in zip(versions, bundle.versions) {
      #expect(json["name"]?.stringValue == version.name)
      #expect(json["hash"]?.stringValue?.count == 44)
      #expect(json["entities"]?.arrayValue?.count == version.entities.count)
    }
    // Parsing back every version of the 60- and 75-version bundles takes seconds in a debug
    // build; the current version's dump exercises the same writer and parser.
    let current = ModelDump.json(of: bundle, versionNames: [bundle.currentVersion.name])
    #expect(try JSONParser.parse(JSONWriter.prettyPrinted(current)) == current)
  }
}
