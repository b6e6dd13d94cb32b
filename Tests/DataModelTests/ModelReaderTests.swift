import DataModel
import Foundation
import TestSupport
import Testing

@Suite("Reading model bundles from disk")
struct ModelReaderTests {
  static let models = TestPaths.fixtures.appendingPathComponent("models")

  private func path(_ name: String) -> String { Self.models.appendingPathComponent(name).path }

  private func read(_ name: String, validate: Bool = true) -> ModelReadResult {
    ModelReader.read(path: path(name), validate: validate)
  }

  /// Writes files into a fresh temporary directory and returns its path.
  private func temporary(_ files: [String: [UInt8]]) throws -> String {
    let directory = TestPaths.temporaryDirectory("modelc-reader")
    for (name, bytes) in files {
      let url = directory.appendingPathComponent(name)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: url)
    }
    return directory.path
  }

  private static func contents(_ identifier: String) -> [UInt8] {
    Array(
      """
      <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
      <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" userDefinedModelVersionIdentifier="\(identifier)">
          <entity name="Item">
              <attribute name="title" attributeType="String"/>
          </entity>
      </model>

      """.utf8)
  }

  // MARK: - Layouts

  @Test("A versioned bundle: versions in natural order, the current one from .xccurrentversion")
  func versionedBundle() throws {
    let result = read("Versioned.xcdatamodeld")
    let bundle = try #require(result.bundle)
    // The current version is 'Versioned 2' while 'Versioned 10' exists: worth a warning.
    #expect(result.diagnostics.map(\.code) == ["current-version-not-last"], "\(result.diagnostics.printed)")
    #expect(bundle.name == "Versioned")
    #expect(bundle.path == path("Versioned.xcdatamodeld"))
    #expect(bundle.versions.map(\.name) == ["Versioned", "Versioned 2", "Versioned 10"])
    #expect(bundle.versions.map(\.versionIdentifier) == ["v1", "v2", "v10"], "each version is read from its own file")
    #expect(bundle.versionOrderSource == .natural)
    #expect(bundle.currentVersionIndex == 1)
    #expect(bundle.currentVersion.name == "Versioned 2")
    #expect(bundle.versions[2].sourcePath == path("Versioned.xcdatamodeld") + "/Versioned 10.xcdatamodel/contents")
    #expect(bundle.version(named: "Versioned 10.xcdatamodel")?.name == "Versioned 10")
    #expect(bundle.version(named: "Versioned 10")?.name == "Versioned 10")
    #expect(bundle.index(ofVersionNamed: "Versioned") == 0)
    #expect(bundle.version(named: "Versioned 3") == nil)
  }

  @Test("A bundle path with a trailing slash reads the same")
  func trailingSlash() throws {
    let result = ModelReader.read(path: path("Versioned.xcdatamodeld") + "/")
    let bundle = try #require(result.bundle)
    #expect(bundle.name == "Versioned")
    #expect(bundle.versions.count == 3)
    #expect(bundle.versions[0].sourcePath == path("Versioned.xcdatamodeld") + "/Versioned.xcdatamodel/contents")
  }

  @Test("The Tasks model has four versions, the last one current")
  func tasksModel() throws {
    let bundle = try ModelBundle(contentsOf: TestPaths.tasksModel.path)
    #expect(bundle.name == "Tasks")
    #expect(bundle.versions.map(\.name) == ["Tasks", "Tasks 2", "Tasks 3", "Tasks 4"])
    #expect(bundle.currentVersion.name == "Tasks 4")
    let current = bundle.currentVersion
    #expect(current.entities.map(\.name) == ["Note", "Project", "Tag", "Task"])
    // Tasks 4: completedAt (renamed from isCompleted, a Date now) and the ordered notes.
    let task = try #require(current.entity(named: "Task"))
    #expect(task.attributes.map(\.name) == ["completedAt", "dueDate", "id", "priority", "title"])
    let completedAt = try #require(task.attribute(named: "completedAt"))
    #expect(completedAt.attributeType == .date)
    #expect(completedAt.isOptional)
    #expect(completedAt.renamingIdentifier == "isCompleted")
    let notes = try #require(task.relationship(named: "notes"))
    #expect(notes.destinationEntityName == "Note")
    #expect(notes.inverseName == "task")
    #expect(notes.isToMany && notes.isOrdered && notes.isOptional)
    #expect(notes.deletionRule == .cascade)
    let note = try #require(current.entity(named: "Note"))
    #expect(
      note.attributes.map { "\($0.name) \($0.attributeType) \($0.isOptional)" } == [
        "createdAt date false", "text string false",
      ])
    let back = try #require(note.relationship(named: "task"))
    #expect(back.destinationEntityName == "Task")
    #expect(back.inverseName == "notes")
    #expect(!back.isToMany)
    #expect(back.deletionRule == .nullify)
  }

  @Test("A bundle with a single version needs no .xccurrentversion")
  func singleVersion() throws {
    let result = read("Single.xcdatamodeld")
    let bundle = try #require(result.bundle)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.printed)")
    #expect(bundle.versions.map(\.name) == ["Single"])
    #expect(bundle.currentVersionIndex == 0)
  }

  @Test("A lone .xcdatamodel directory is a bundle of one version")
  func loneModelDirectory() throws {
    let result = read("Lone.xcdatamodel")
    let bundle = try #require(result.bundle)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.printed)")
    #expect(bundle.name == "Lone")
    #expect(bundle.path == path("Lone.xcdatamodel"))
    #expect(bundle.versions.map(\.name) == ["Lone"])
    #expect(bundle.currentVersion.versionIdentifier == "lone")
    #expect(bundle.currentVersion.sourcePath == path("Lone.xcdatamodel") + "/contents")
  }

  @Test("A contents file is read on its own, named after its directory")
  func contentsFile() throws {
    let contentsPath = path("Lone.xcdatamodel/contents")
    let result = ModelReader.read(path: contentsPath)
    let bundle = try #require(result.bundle)
    #expect(bundle.name == "Lone")
    #expect(bundle.versions.map(\.name) == ["Lone"])
    #expect(bundle.path == contentsPath)
    #expect(bundle.currentVersion.sourcePath == contentsPath)
  }

  @Test("Any other file holding model XML is named after the file")
  func otherFile() throws {
    let directory = try temporary(["Schema.xml": Self.contents("xml")])
    let bundle = try #require(ModelReader.read(path: directory + "/Schema.xml").bundle)
    #expect(bundle.name == "Schema")
    #expect(bundle.versions.map(\.name) == ["Schema"])
    #expect(bundle.currentVersion.versionIdentifier == "xml")
  }

  @Test("A directory without extension that holds a contents file is a lone version")
  func directoryWithContents() throws {
    let directory = try temporary(["Plain/contents": Self.contents("plain")])
    let bundle = try #require(ModelReader.read(path: directory + "/Plain").bundle)
    #expect(bundle.versions.map(\.name) == ["Plain"])
  }

  @Test("Diagnostics name files by the path as given, relative paths included")
  func relativePaths() throws {
    let directory = try temporary([
      "Rel.xcdatamodeld/Rel.xcdatamodel/contents": Array(
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Item">
                <attribute name="title" attributeType="Strin"/>
            </entity>
        </model>
        """.utf8)
    ])
    let current = FileManager.default.currentDirectoryPath
    let absolute = directory + "/Rel.xcdatamodeld"
    // A relative path to the temporary bundle: up to the root with '..', then down again.
    let depth = current.split(separator: "/").count
    let relative = String(repeating: "../", count: depth) + absolute.dropFirst()
    let result = ModelReader.read(path: relative)
    let diagnostic = try #require(result.diagnostics.with(code: "unknown-attribute-type").first)
    #expect(diagnostic.location?.file == relative + "/Rel.xcdatamodel/contents")
    #expect(diagnostic.description.hasPrefix(relative + "/Rel.xcdatamodel/contents:4:33: error:"))
  }

  // MARK: - The current version

  @Test("Without .xccurrentversion, the last version in order is current, with a warning")
  func missingCurrentVersion() throws {
    let result = read("NoCurrent.xcdatamodeld")
    let bundle = try #require(result.bundle)
    #expect(bundle.currentVersion.name == "NoCurrent 2")
    #expect(result.diagnostics.codes == ["no-current-version"])
    #expect(result.diagnostics[0].severity == .warning)
    #expect(result.diagnostics[0].location == nil)
    #expect(result.diagnostics[0].message.contains("'NoCurrent 2'"))
    // A warning does not make the throwing initializer fail.
    #expect(try ModelBundle(contentsOf: path("NoCurrent.xcdatamodeld")).currentVersion.name == "NoCurrent 2")
  }

  /// A bundle whose .xccurrentversion is unusable, and the warning it gives.
  static let unusableCurrentVersions: [(bundle: String, code: String)] = [
    ("EmptyCurrent", "unreadable-current-version"),
    ("InvalidCurrent", "unreadable-current-version"),
    ("EmptyDictCurrent", "no-current-version"),
    ("NoKeyCurrent", "no-current-version"),
  ]

  @Test(
    "An empty or invalid .xccurrentversion falls back to the last version, with a warning at the file",
    arguments: zip(unusableCurrentVersions.map(\.bundle), unusableCurrentVersions.map(\.code)))
  func unusableCurrentVersion(_ name: String, _ code: String) throws {
    let result = read(name + ".xcdatamodeld")
    let bundle = try #require(result.bundle)
    #expect(bundle.currentVersion.name == name + " 2")
    #expect(result.diagnostics.codes == [code], "\(result.diagnostics.printed)")
    #expect(result.diagnostics[0].severity == .warning)
    #expect(
      result.diagnostics[0].location
        == SourceLocation(file: path(name + ".xcdatamodeld") + "/.xccurrentversion", line: 1, column: 1))
  }

  @Test(".xccurrentversion naming a version the bundle does not have is an error")
  func unknownCurrentVersion() throws {
    let result = read("UnknownCurrent.xcdatamodeld")
    #expect(result.bundle?.currentVersion.name == "UnknownCurrent 2")
    #expect(result.diagnostics.codes == ["unknown-current-version"])
    #expect(result.diagnostics[0].severity == .error)
    #expect(result.diagnostics[0].message.contains("'UnknownCurrent 3.xcdatamodel'"))
    #expect(result.diagnostics[0].notes == ["choose one of: UnknownCurrent, UnknownCurrent 2"])
    #expect(throws: ModelError.self) { try ModelBundle(contentsOf: path("UnknownCurrent.xcdatamodeld")) }
  }

  // MARK: - The .modelc-versions order file

  @Test("A .modelc-versions file orders the versions; comments, blank lines and extensions are allowed")
  func orderFile() throws {
    let result = read("Ordered.xcdatamodeld")
    let bundle = try #require(result.bundle)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics.printed)")
    #expect(bundle.versionOrderSource == .orderFile)
    #expect(bundle.versions.map(\.name) == ["Ordered Beta", "Ordered Alpha", "Ordered"])
    #expect(bundle.currentVersion.name == "Ordered")
    #expect(bundle.currentVersionIndex == 2)
  }

  @Test("Errors in the order file are reported by line, and the natural order is used instead")
  func orderFileErrors() throws {
    let result = read("BadOrder.xcdatamodeld")
    let bundle = try #require(result.bundle)
    #expect(bundle.versionOrderSource == .natural)
    #expect(bundle.versions.map(\.name) == ["BadOrder", "BadOrder 2", "BadOrder 3"])
    #expect(bundle.currentVersion.name == "BadOrder 3")
    let orderPath = path("BadOrder.xcdatamodeld") + "/.modelc-versions"
    #expect(
      result.diagnostics.codes == [
        "duplicate-version-in-order", "unknown-version-in-order", "incomplete-version-order",
      ])
    #expect(result.diagnostics.allSatisfy { $0.severity == .error && $0.location?.file == orderPath })
    #expect(result.diagnostics.positions(of: "duplicate-version-in-order") == ["4:1"])
    #expect(result.diagnostics.positions(of: "unknown-version-in-order") == ["5:1"])
    #expect(result.diagnostics.positions(of: "incomplete-version-order") == ["1:1"])
    #expect(result.diagnostics[1].message == "'BadOrder 4' is not a version of this bundle")
    #expect(result.diagnostics[1].notes == ["list only the bundle's versions: BadOrder, BadOrder 2, BadOrder 3"])
    #expect(result.diagnostics[2].message == "the version order does not list BadOrder 3")
  }

  @Test("An order file with Windows line endings and trailing spaces reads the same")
  func orderFileLineEndings() throws {
    let directory = try temporary([
      "Model.xcdatamodeld/Model.xcdatamodel/contents": Self.contents("1"),
      "Model.xcdatamodeld/Model 2.xcdatamodel/contents": Self.contents("2"),
      "Model.xcdatamodeld/.modelc-versions": Array("# order\r\nModel 2 \r\n\tModel\r\n".utf8),
    ])
    let result = ModelReader.read(path: directory + "/Model.xcdatamodeld")
    #expect(result.diagnostics.codes == ["no-current-version"], "\(result.diagnostics.printed)")
    #expect(result.bundle?.versions.map(\.name) == ["Model 2", "Model"])
    #expect(result.bundle?.versionOrderSource == .orderFile)
  }

  // MARK: - Unreadable bundles

  @Test("A model in the binary format of Xcode 3 is an error that says so")
  func xcode3BinaryFormat() throws {
    let result = read("Legacy.xcdatamodel")
    #expect(result.bundle == nil)
    #expect(result.diagnostics.codes == ["missing-contents"])
    #expect(result.diagnostics[0].message.contains("binary format of Xcode 3"))
    #expect(result.diagnostics[0].notes[0].contains("open the model in a current Xcode and save it"))
  }

  @Test("A version directory without contents is an error, and the bundle is not assembled")
  func missingContents() throws {
    let result = read("NoContents.xcdatamodeld")
    #expect(result.bundle == nil)
    #expect(result.diagnostics.codes == ["missing-contents"])
    #expect(
      result.diagnostics[0].message
        == "'\(path("NoContents.xcdatamodeld"))/NoContents.xcdatamodel' has no 'contents' file")
  }

  @Test("A bundle without versions is an error")
  func noVersions() throws {
    let result = read("Empty.xcdatamodeld")
    #expect(result.bundle == nil)
    #expect(result.diagnostics.codes == ["no-versions"])
  }

  @Test("A path that does not exist is an error")
  func noSuchModel() throws {
    let result = ModelReader.read(path: path("Nowhere.xcdatamodeld"))
    #expect(result.bundle == nil)
    #expect(result.diagnostics.codes == ["no-such-model"])
    #expect(result.diagnostics[0].location == nil)
    #expect(result.diagnostics[0].description.hasPrefix("error: no model at '"))
  }

  @Test("A contents path that cannot be read as a file is an error")
  func unreadableContents() throws {
    let directory = try temporary(["Odd.xcdatamodel/contents/placeholder": []])
    let result = ModelReader.read(path: directory + "/Odd.xcdatamodel")
    #expect(result.bundle == nil)
    #expect(result.diagnostics.codes == ["unreadable-file"])
  }

  @Test("A malformed version fails the whole bundle with a located syntax error")
  func malformedVersion() throws {
    let result = read("Broken.xcdatamodeld")
    #expect(result.bundle == nil)
    #expect(result.diagnostics.codes == ["xml-syntax"])
    #expect(
      result.diagnostics[0].location
        == SourceLocation(file: path("Broken.xcdatamodeld") + "/Broken 2.xcdatamodel/contents", line: 5, column: 5))
    #expect(
      result.diagnostics[0].message
        == "malformed XML: the closing tag </entity> does not match the open element <attribute>")
  }

  @Test("Bytes that are not UTF-8 in a file on disk are a syntax error at their line and column")
  func invalidBytesOnDisk() throws {
    let bytes =
      Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model>\n    <entity name=\"Caf".utf8) + [0xE9]
      + Array("\"/>\n</model>\n".utf8)
    let directory = try temporary(["Bad.xcdatamodel/contents": bytes])
    let result = ModelReader.read(path: directory + "/Bad.xcdatamodel")
    #expect(result.bundle == nil)
    #expect(result.diagnostics.positions(of: "xml-syntax") == ["3:22"])
    #expect(result.diagnostics[0].message.contains("not valid UTF-8"))
  }

  @Test("A Latin-1 file that declares its encoding is blamed on its declaration")
  func latin1OnDisk() throws {
    let bytes =
      Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<model>\n    <entity name=\"Caf".utf8) + [0xE9]
      + Array("\"/>\n</model>\n".utf8)
    let directory = try temporary(["Latin.xcdatamodel/contents": bytes])
    let result = ModelReader.read(path: directory + "/Latin.xcdatamodel")
    #expect(result.diagnostics.positions(of: "xml-syntax") == ["1:1"])
    #expect(result.diagnostics[0].message.contains("ISO-8859-1"))
  }

  @Test("A file starting with a byte order mark reads, with columns as editors show them")
  func byteOrderMarkOnDisk() throws {
    let bytes: [UInt8] =
      [0xEF, 0xBB, 0xBF]
      + Array("<model><entity name=\"A\"><attribute name=\"a\" attributeType=\"Strin\"/></entity></model>".utf8)
    let directory = try temporary(["Bom.xcdatamodel/contents": bytes])
    let result = ModelReader.read(path: directory + "/Bom.xcdatamodel")
    #expect(result.bundle != nil)
    #expect(result.diagnostics.positions(of: "unknown-attribute-type") == ["1:45"])
  }

  // MARK: - Validation

  @Test("Reading validates every version unless told not to")
  func validation() throws {
    let validated = read("Invalid.xcdatamodeld")
    #expect(validated.bundle != nil)
    #expect(validated.diagnostics.codes == ["unknown-destination-entity"])
    #expect(validated.diagnostics.positions(of: "unknown-destination-entity") == ["5:9"])
    let unvalidated = read("Invalid.xcdatamodeld", validate: false)
    #expect(unvalidated.bundle != nil)
    #expect(unvalidated.diagnostics.isEmpty)
  }

  @Test("The throwing initializer reports only the errors")
  func throwingInitializer() throws {
    do {
      _ = try ModelBundle(contentsOf: path("Invalid.xcdatamodeld"))
      Issue.record("expected an error")
    } catch {
      #expect(error.diagnostics.codes == ["unknown-destination-entity"])
      #expect(error.description == error.diagnostics.map(\.description).joined(separator: "\n"))
      #expect(error.description.contains("/Invalid.xcdatamodel/contents:5:9: error: relationship 'owner'"))
    }
  }
}
