import DataModel
import Foundation
import TestSupport
import Testing

@Suite("Version hashes")
struct VersionHashTests {
  @Test("SHA-256 and SHA-512 match the FIPS 180-4 examples")
  func digestsMatchKnownAnswers() {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    #expect(hex(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(hex(SHA256.hash([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    let long = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
    #expect(hex(SHA256.hash(long)) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    #expect(
      hex(SHA512.hash(Array("abc".utf8)))
        == "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"
    )
    #expect(
      hex(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
        == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
  }

  @Test("SHA-512 matches the FIPS 180-4 two-block example and the empty message")
  func sha512KnownAnswers() {
    func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
    #expect(
      hex(SHA512.hash([]))
        == "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e"
    )
    let twoBlocks = Array(
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        .utf8)
    #expect(
      hex(SHA512.hash(twoBlocks))
        == "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909"
    )
  }

  @Test("Feeding bytes in pieces of any size, or as a non-contiguous sequence, gives the same digest")
  func incrementalDigests() {
    var generator = SplitMix64(seed: 3)
    for length in [0, 1, 55, 56, 63, 64, 65, 111, 112, 127, 128, 129, 200, 300] {
      let message = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let whole256 = SHA256.hash(message)
      let whole512 = SHA512.hash(message)
      for _ in 0..<5 {
        var sha256 = SHA256()
        var sha512 = SHA512()
        var rest = message[...]
        while !rest.isEmpty {
          let piece = rest.prefix(Int.random(in: 1...70, using: &generator))
          sha256.update(piece)
          sha512.update(Array(piece))
          rest = rest.dropFirst(piece.count)
        }
        #expect(sha256.finalize() == whole256, "SHA-256 of \(length) bytes")
        #expect(sha512.finalize() == whole512, "SHA-512 of \(length) bytes")
      }
      #expect(SHA256.hash(message.lazy.map { $0 }) == whole256)
      #expect(SHA512.hash(AnySequence(message)) == whole512)
    }
  }

  @Test(
    "Entity hashes and digest equal those Core Data stored for LoopKit's model",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func loopKitVectors() throws {
    let path = TestPaths.corpus!.appendingPathComponent("models/LoopKit__LoopKit/Model.xcdatamodeld").path
    let bundle = try ModelBundle(contentsOf: path)
    let version = try #require(bundle.version(named: "Model"))
    let hashes = version.versionHashes
    let expected = [
      "CachedCarbObject": "ae31955ac7c9c33da2967cf5d2ba1408f666f2587f2dd5c2e6c403b8f31c2410",
      "CachedGlucoseObject": "95166c02bee5c8e2b6b22dd0b262b6c6cb8af490789ca44994e083ec3faa665d",
      "CachedInsulinDeliveryObject": "d3e85987177b5048884d4543944bb571b12494913cd6167ed8d317ee103aae32",
      "DeletedCarbObject": "77f0de22d0688e9853fcd7f895b6bbd98b767ecd32b9f98d9cc82022d15e9d8f",
      "PumpEvent": "481285b017a9d18b61212263a824b154a78f0397a38772d5df436e08e560c87d",
      "Reservoir": "8a4f26cc785a611680d874c9e05cc853bf448436f267bf8f02979b33a210bb14",
    ]
    for (entity, hash) in expected {
      #expect(hashes.hexHash(of: entity) == hash, "entity \(entity)")
    }
    #expect(
      hashes.digest == "JsiZ5pxZETDR/uBIDneH/yxMn0lMUZvn8v3/PhQW1d2kM5hl0AAO+DAsjh8ySII1XvFg+XdSlnByGkTkTWgI4w==")
  }

  /// Hashes read from the `Z_METADATA` of the Bookmarks stores Core Data wrote at each version.
  static let bookmarkVectors: [(version: String, hash: String, digest: String, checksum: String?)] = [
    (
      "BookmarksModel", "c37ad9b31a1ce3faf258164444717a730317dee04efa4191d31086d2179f9c20",
      "5KlKrVThxcoXSL+ZjFKY7n06yLOp+yhkgKcYEd/X2RK/9UmzKy8A4/X11PZ2vR9NjCIbeM7jNq9EoAHMv8yklQ==", nil
    ),
    (
      "BookmarksModel 2", "99d650930f7e484410207feedd129b42f5e7acff83ab6a9bf61b9a6d88bdd382",
      "KOVMA003UkROpjwLxlVoeHbPbvDabq7nYfdZdUSoYMGLW4Xy6kfgM5kIQvWOkrIG9JycFVi/ysBgUAZn26pZOQ==", nil
    ),
    (
      "BookmarksModel 3", "698b764beb72a2bc90217ab9a670d90d9ce1663b71c15f675ccbfb46e7ff76a5",
      "mq5DOodApwPsMEHT6e5vsvPfz1B8zAjCiVT0RFpxep6WIXFnTAakSGDtSyuSxMR71IS2NbpOAtTRaEstvviG1w==", nil
    ),
    (
      "BookmarksModel 4", "6a086c9544c0adc6674e37b1a2cd4bc7edcd94de224c61fc603864844cb5f8f6",
      "f3zhRcli1vU1KL1eGWk+BkpW5eZLLlkgDMaIRfi7mC3a9eGmHvJvEoHfMAaXAYLC9Ua3nas4g1P8aXw0xiQM2g==",
      "iheL242Wk4NBM9JCcDWZC7hP4J9Hv8iA7W0XzuNEkZc="
    ),
    (
      "BookmarksModel 5", "84f07c047d39108d666df9d08af728b3197383bda698febf3b90997db4fd5929",
      "9WYf7a2enJKaL4wKAAgYwqyHAEQ12ZaJfnpBLqnbp6yzamL1LLxv+wKyoakpQaDZU1UTXD12xSVlsn0gDkf/oQ==", nil
    ),
  ]

  @Test(
    "Hashes equal those Core Data stored in the Bookmarks stores of every version",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func bookmarkVectors() throws {
    let path = TestPaths.corpus!.appendingPathComponent(
      "models/duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld"
    ).path
    let bundle = try ModelBundle(contentsOf: path)
    for vector in Self.bookmarkVectors {
      let version = try #require(bundle.version(named: vector.version))
      let hashes = version.versionHashes
      #expect(hashes.hexHash(of: "BookmarkEntity") == vector.hash, "\(vector.version)")
      #expect(hashes.digest == vector.digest, "\(vector.version)")
      if let checksum = vector.checksum {
        #expect(hashes.checksum == checksum, "\(vector.version)")
      }
    }
  }
}

/// What changes an entity's version hash and what does not, per the recipe in
/// `docs/version-hashes.md` (§1.1 of the migration rules).
@Suite("Version hashes: what changes them")
struct VersionHashPropertyTests {
  static let base = """
        <entity name="Base"/>
        <entity name="Area">
            <attribute name="name" attributeType="String"/>
        </entity>
        <entity name="Project">
            <attribute name="name" attributeType="String"/>
            <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
        </entity>
        <entity name="Task" representedClassName="Task" syncable="YES" codeGenerationType="class">
            <attribute name="data" optional="YES" attributeType="Binary"/>
            <attribute name="priority" attributeType="Integer 16" defaultValueString="2" usesScalarValueType="YES"/>
            <attribute name="title" attributeType="String"/>
            <relationship name="link" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project"/>
            <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>
            <relationship name="subtasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="subtasks" inverseEntity="Task"/>
        </entity>
        <entity name="Urgent" parentEntity="Task">
            <attribute name="deadline" optional="YES" attributeType="Date"/>
        </entity>
    """

  /// One edit of the base model and whether it must change the hash of `entity`.
  struct Edit: Sendable, CustomTestStringConvertible {
    var label: String
    var replacements: [(String, String)]
    var entity = "Task"
    var testDescription: String { label }
  }

  private static func edit(_ label: String, _ from: String, _ to: String, entity: String = "Task") -> Edit {
    Edit(label: label, replacements: [(from, to)], entity: entity)
  }

  private static let title = #"<attribute name="title" attributeType="String"/>"#
  private static let subtasks =
    #"<relationship name="subtasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="subtasks" inverseEntity="Task"/>"#
  private static let taskOpen =
    #"<entity name="Task" representedClassName="Task" syncable="YES" codeGenerationType="class">"#

  static let changing: [Edit] = [
    edit("attribute name", #"name="title""#, #"name="heading""#),
    edit("attribute optional", title, #"<attribute name="title" optional="YES" attributeType="String"/>"#),
    edit("attribute becomes transient", title, #"<attribute name="title" transient="YES" attributeType="String"/>"#),
    edit("attribute type", #"attributeType="Integer 16""#, #"attributeType="Integer 32""#),
    edit("attribute type String → URI", title, #"<attribute name="title" attributeType="URI"/>"#),
    edit(
      "attribute versionHashModifier", title,
      #"<attribute name="title" attributeType="String" versionHashModifier="2"/>"#),
    edit(
      "external binary storage", #"<attribute name="data" optional="YES" attributeType="Binary"/>"#,
      #"<attribute name="data" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>"#),
    edit(
      "preserveAfterDeletion", title, #"<attribute name="title" attributeType="String" preserveAfterDeletion="YES"/>"#),
    edit(
      "entity versionHashModifier", taskOpen,
      taskOpen.replacingOccurrences(of: ">", with: #" versionHashModifier="x">"#)),
    edit(
      "entity name", #"<entity name="Urgent" parentEntity="Task">"#, #"<entity name="Pressing" parentEntity="Task">"#,
      entity: "Urgent"),
    edit(
      "relationship destination", #"maxCount="1" deletionRule="Nullify" destinationEntity="Project"/>"#,
      #"maxCount="1" deletionRule="Nullify" destinationEntity="Area"/>"#),
    edit(
      "relationship optional", #"<relationship name="link" optional="YES" maxCount="1""#,
      #"<relationship name="link" maxCount="1""#),
    edit(
      "relationship versionHashModifier", #"destinationEntity="Project"/>"#,
      #"destinationEntity="Project" versionHashModifier="v"/>"#),
    Edit(
      label: "inverse name",
      replacements: [
        (#"inverseName="tasks" inverseEntity="Project""#, #"inverseName="allTasks" inverseEntity="Project""#),
        (#"<relationship name="tasks""#, #"<relationship name="allTasks""#),
      ]),
    edit(
      "adding an inverse", #"destinationEntity="Project"/>"#,
      #"destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>"#),
    edit(
      "minCount", subtasks, subtasks.replacingOccurrences(of: #"toMany="YES""#, with: #"toMany="YES" minCount="1""#)),
    edit(
      "maxCount", subtasks, subtasks.replacingOccurrences(of: #"toMany="YES""#, with: #"toMany="YES" maxCount="5""#)),
    edit(
      "to-one becomes to-many", #"<relationship name="link" optional="YES" maxCount="1""#,
      #"<relationship name="link" optional="YES" toMany="YES""#),
    edit(
      "ordered", subtasks, subtasks.replacingOccurrences(of: #"toMany="YES""#, with: #"toMany="YES" ordered="YES""#)),
    edit("abstract", taskOpen, taskOpen.replacingOccurrences(of: ">", with: #" isAbstract="YES">"#)),
    edit(
      "parent entity (with no properties)", taskOpen,
      taskOpen.replacingOccurrences(of: ">", with: #" parentEntity="Base">"#)),
    Edit(
      label: "the parent's hash changes",
      replacements: [
        (#"<entity name="Base"/>"#, #"<entity name="Base" versionHashModifier="b"/>"#),
        (taskOpen, taskOpen.replacingOccurrences(of: ">", with: #" parentEntity="Base">"#)),
      ],
      entity: "Task"),
    edit(
      "a property inherited from the parent changes", title,
      #"<attribute name="title" optional="YES" attributeType="String"/>"#, entity: "Urgent"),
    edit("adding an attribute", title, title + #"<attribute name="notes" optional="YES" attributeType="String"/>"#),
    edit(
      "adding a relationship", title,
      title
        + #"<relationship name="area" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Area"/>"#),
    edit("removing an attribute", #"<attribute name="data" optional="YES" attributeType="Binary"/>"#, ""),
    edit("removing a relationship", subtasks, ""),
    edit(
      "a transient relationship becomes stored", subtasks,
      subtasks.replacingOccurrences(of: #"optional="YES""#, with: #"optional="YES" transient="YES""#)),
    edit(
      "adding a uniqueness constraint", "</entity>\n    <entity name=\"Urgent\"",
      "<uniquenessConstraints><uniquenessConstraint><constraint value=\"title\"/></uniquenessConstraint></uniquenessConstraints></entity>\n    <entity name=\"Urgent\""
    ),
  ]

  static let neutral: [Edit] = [
    edit("entity elementID", taskOpen, taskOpen.replacingOccurrences(of: ">", with: #" elementID="Chore">"#)),
    edit("attribute elementID", title, #"<attribute name="title" attributeType="String" elementID="heading"/>"#),
    edit(
      "relationship elementID", #"destinationEntity="Project"/>"#, #"destinationEntity="Project" elementID="old"/>"#),
    edit(
      "deletion rule", #"toMany="YES" deletionRule="Nullify" destinationEntity="Task""#,
      #"toMany="YES" deletionRule="Cascade" destinationEntity="Task""#),
    edit("syncable", taskOpen, taskOpen.replacingOccurrences(of: #" syncable="YES""#, with: "")),
    edit("usesScalarValueType", #"usesScalarValueType="YES""#, #"usesScalarValueType="NO""#),
    edit("class name", #"representedClassName="Task""#, #"representedClassName="App.TaskObject""#),
    edit("code generation", #"codeGenerationType="class""#, #"codeGenerationType="category""#),
    edit("default value", #"defaultValueString="2""#, #"defaultValueString="3""#),
    edit("min/max", #"defaultValueString="2""#, #"defaultValueString="2" minValueString="1" maxValueString="3""#),
    edit(
      "regular expression", title,
      #"<attribute name="title" attributeType="String" regularExpressionString="[A-Z].*"/>"#),
    edit(
      "string length bounds", title,
      #"<attribute name="title" attributeType="String" minValueString="1" maxValueString="200"/>"#),
    edit(
      "userInfo", title,
      #"<attribute name="title" attributeType="String"><userInfo><entry key="k" value="v"/></userInfo></attribute>"#),
    edit(
      "entity userInfo", "</entity>\n    <entity name=\"Urgent\"",
      "<userInfo><entry key=\"k\" value=\"v\"/></userInfo></entity>\n    <entity name=\"Urgent\""),
    edit(
      "fetch index", "</entity>\n    <entity name=\"Urgent\"",
      "<fetchIndex name=\"byTitle\"><fetchIndexElement property=\"title\" type=\"Binary\" order=\"ascending\"/></fetchIndex></entity>\n    <entity name=\"Urgent\""
    ),
    edit(
      "adding a transient attribute", title,
      title + #"<attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>"#),
    edit(
      "adding a transient relationship", title,
      title
        + #"<relationship name="cache" optional="YES" transient="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Area"/>"#
    ),
    edit(
      "adding a fetched property", title,
      title
        + #"<fetchedProperty name="siblings" optional="YES"><fetchRequest name="fetchedPropertyFetchRequest" entity="Task"/></fetchedProperty>"#
    ),
    edit(
      "file order of attributes", #"<attribute name="data" optional="YES" attributeType="Binary"/>"#,
      ""
    ).replacing(title, with: title + #"<attribute name="data" optional="YES" attributeType="Binary"/>"#),
    edit(
      "Spotlight and CloudKit encryption flags", title,
      #"<attribute name="title" attributeType="String" spotlightIndexingEnabled="YES" allowsCloudEncryption="YES"/>"#),
    edit(
      "value transformer", #"attributeType="Binary"/>"#,
      #"attributeType="Binary" valueTransformerName="T" customClassName="C"/>"#),
    edit("legacy indexed flag", title, #"<attribute name="title" attributeType="String" indexed="YES"/>"#),
    edit(
      "derived flag on an attribute", title,
      #"<attribute name="title" attributeType="String" derived="YES" derivationExpression="canonical:(name)"/>"#),
  ]

  private func hashes(_ body: String) throws -> VersionHashes {
    let (version, diagnostics) = readModel(body)
    return try #require(version, "\(diagnostics.printed)").versionHashes
  }

  private func applying(_ edit: Edit) -> String {
    var body = Self.base
    for (from, to) in edit.replacements {
      #expect(body.contains(from), "the edit '\(edit.label)' must apply: \(from)")
      body = body.replacingOccurrences(of: from, with: to)
    }
    return body
  }

  @Test("Each of these changes the entity hash", arguments: changing)
  func changes(_ edit: Edit) throws {
    let before = try hashes(Self.base)
    let after = try hashes(applying(edit))
    let original = before.entityHashes[edit.entity]
    #expect(original != nil)
    let renamed = edit.label == "entity name" ? after.entityHashes["Pressing"] : after.entityHashes[edit.entity]
    #expect(renamed != nil)
    #expect(original != renamed)
    #expect(before.digest != after.digest)
    #expect(before.checksum != after.checksum)
  }

  @Test("None of these changes any hash", arguments: neutral)
  func neutralEdits(_ edit: Edit) throws {
    let before = try hashes(Self.base)
    let after = try hashes(applying(edit))
    #expect(before.entityHashes == after.entityHashes)
    #expect(before.digest == after.digest)
    #expect(before.checksum == after.checksum)
  }

  @Test("A change to another entity's own properties leaves the entity's hash alone")
  func otherEntity() throws {
    let before = try hashes(Self.base)
    let after = try hashes(
      Self.base.replacingOccurrences(
        of: #"<relationship name="tasks""#,
        with: #"<attribute name="extra" optional="YES" attributeType="String"/><relationship name="tasks""#))
    #expect(before.entityHashes["Task"] == after.entityHashes["Task"])
    #expect(before.entityHashes["Project"] != after.entityHashes["Project"])
  }

  @Test("An inherited self-inverse relationship hashes the same as in its own entity")
  func inheritedSelfInverse() throws {
    // Page inherits Note.twin; were it hashed as a relationship of Page, its inverse (Note.twin)
    // would not be "itself" by name and the inverse name would be fed.
    let withParent = try hashes(
      """
          <entity name="Note">
              <relationship name="twin" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="twin" inverseEntity="Note"/>
          </entity>
          <entity name="Page" parentEntity="Note"/>
      """)
    let twin = SHA256.hash(
      SHA256.hash(Array("twin".utf8) + [1, 0]) + Array("Note".utf8) + Self.littleEndian(1) + Self.littleEndian(0))
    let note = SHA256.hash(Array("Note".utf8) + [0] + twin)
    let page = SHA256.hash(Array("Page".utf8) + [0] + note + twin)
    #expect(withParent.hexHash(of: "Note") == Self.hex(note))
    #expect(withParent.hexHash(of: "Page") == Self.hex(page))
  }

  @Test("The order of entities in the file, model metadata and model-level elements change nothing")
  func modelLevelNeutral() throws {
    let before = try hashes(Self.base)
    let parts = Self.base.components(separatedBy: "\n    <entity ")
    let reversed = ([parts[0]] + parts.dropFirst().reversed().map { "    <entity " + $0 }).joined(separator: "\n")
    #expect(try hashes(reversed).entityHashes == before.entityHashes)
    #expect(try hashes(reversed).digest == before.digest)
    let extras =
      Self.base + """

            <fetchRequest name="All" entity="Task"/>
            <configuration name="Cloud"><memberEntity name="Task"/></configuration>
            <elements><element name="Task" positionX="0" positionY="0" width="128" height="44"/></elements>
        """
    #expect(try hashes(extras).digest == before.digest)
    let (version, _) = readDocument(
      modelXML(Self.base).replacingOccurrences(
        of: #"minimumToolsVersion="Automatic""#,
        with: #"minimumToolsVersion="Xcode 4.3" lastSavedToolsVersion="1" userDefinedModelVersionIdentifier="v9""#))
    #expect(try #require(version).versionHashes.digest == before.digest)
  }

  @Test("A compound constraint differs from the same properties constrained one by one")
  func compoundConstraints() throws {
    func constrained(_ constraints: String) throws -> Data? {
      try hashes(
        Self.base.replacingOccurrences(
          of: "</entity>\n    <entity name=\"Urgent\"",
          with: "<uniquenessConstraints>\(constraints)</uniquenessConstraints></entity>\n    <entity name=\"Urgent\"")
      ).entityHashes["Task"]
    }
    let compound = try constrained(
      #"<uniquenessConstraint><constraint value="priority"/><constraint value="title"/></uniquenessConstraint>"#)
    let separate = try constrained(
      #"<uniquenessConstraint><constraint value="priority"/></uniquenessConstraint><uniquenessConstraint><constraint value="title"/></uniquenessConstraint>"#
    )
    let separateSwapped = try constrained(
      #"<uniquenessConstraint><constraint value="title"/></uniquenessConstraint><uniquenessConstraint><constraint value="priority"/></uniquenessConstraint>"#
    )
    #expect(compound != separate)
    #expect(separate == separateSwapped, "constraints are sorted before hashing")
  }

  // MARK: - The recipe, byte by byte

  private static func littleEndian(_ value: Int32) -> [UInt8] {
    withUnsafeBytes(of: value.littleEndian) { Array($0) }
  }

  private static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

  @Test("An entity's hash is the recipe's bytes, computed here independently")
  func recipeBytes() throws {
    let version = try #require(
      readModel(
        """
            <entity name="Note" isAbstract="YES" versionHashModifier="m">
                <attribute name="body" optional="YES" attributeType="String" versionHashModifier="b"/>
                <attribute name="blob" attributeType="Binary" allowsExternalBinaryDataStorage="YES" preserveAfterDeletion="YES"/>
                <attribute name="draft" optional="YES" transient="YES" attributeType="String"/>
                <relationship name="links" optional="YES" toMany="YES" minCount="2" maxCount="9" deletionRule="Nullify" ordered="YES" destinationEntity="Note" inverseName="backlinks" inverseEntity="Note"/>
                <relationship name="backlinks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="links" inverseEntity="Note"/>
                <relationship name="twin" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="twin" inverseEntity="Note"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="body"/></uniquenessConstraint>
                    <uniquenessConstraint><constraint value="blob"/><constraint value="body"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Page" parentEntity="Note">
                <attribute name="number" attributeType="Integer 32" usesScalarValueType="YES"/>
            </entity>
        """
      ).version)
    func base(_ name: String, flags: UInt16, modifier: String? = nil) -> [UInt8] {
      SHA256.hash(Array(name.utf8) + [UInt8(flags & 0xFF), UInt8(flags >> 8)] + Array((modifier ?? "").utf8))
    }
    let body = SHA256.hash(base("body", flags: 1, modifier: "b") + Self.littleEndian(700))
    let blob = SHA256.hash(base("blob", flags: 0) + Self.littleEndian(1000) + [1] + [1])
    let links = SHA256.hash(
      base("links", flags: 1) + Array("Note".utf8) + Array("backlinks".utf8) + Self.littleEndian(9)
        + Self.littleEndian(2)
        + [1, 0])
    let backlinks = SHA256.hash(
      base("backlinks", flags: 1) + Array("Note".utf8) + Array("links".utf8) + Self.littleEndian(0)
        + Self.littleEndian(0))
    // A self-inverse relationship feeds no inverse name.
    let twin = SHA256.hash(base("twin", flags: 1) + Array("Note".utf8) + Self.littleEndian(1) + Self.littleEndian(0))
    // Properties in name order: backlinks, blob, body, links, twin (draft is transient).
    let note = SHA256.hash(
      Array("Note".utf8) + [1] + backlinks + blob + body + links + twin + Array("m".utf8) + Array("blob.body".utf8)
        + Array("body".utf8))
    let number = SHA256.hash(base("number", flags: 0) + Self.littleEndian(200))
    // A sub-entity feeds its parent's hash, then inherited and own properties in name order.
    let page = SHA256.hash(Array("Page".utf8) + [0] + note + backlinks + blob + body + links + number + twin)
    let hashes = version.versionHashes
    #expect(hashes.hexHash(of: "Note") == Self.hex(note))
    #expect(hashes.hexHash(of: "Page") == Self.hex(page))
    let digest = SHA512.hash(Array("Note".utf8) + note + Array("Page".utf8) + page)
    #expect(hashes.digest == Data(digest).base64EncodedString())
    #expect(hashes.checksum == Data(SHA256.hash(note + page)).base64EncodedString())
  }

  @Test("Entities are ordered by the bytes of their names, not alphabetically")
  func ordinalNameOrder() throws {
    let version = try #require(
      readModel(
        """
            <entity name="b"><attribute name="x" attributeType="String"/></entity>
            <entity name="B"><attribute name="x" attributeType="String"/></entity>
            <entity name="Ä"><attribute name="x" attributeType="String"/></entity>
            <entity name="A"><attribute name="x" attributeType="String"/></entity>
        """
      ).version)
    #expect(version.entityIDsByName.map { version[$0].name } == ["A", "B", "b", "Ä"])
    let hashes = version.versionHashes
    var bytes: [UInt8] = []
    for name in ["A", "B", "b", "Ä"] { bytes += Array(name.utf8) + [UInt8](hashes.entityHashes[name]!) }
    #expect(hashes.digest == Data(SHA512.hash(bytes)).base64EncodedString())
  }
}

extension VersionHashPropertyTests.Edit {
  /// Adds a second replacement.
  fileprivate func replacing(_ from: String, with to: String) -> Self {
    var copy = self
    copy.replacements.append((from, to))
    return copy
  }
}
