import DataModel
import Foundation
import Migration
import TestSupport
import Testing

/// Mapping models written by modelc for `Models/Tasks.xcdatamodeld`, read back, checked, and
/// damaged on purpose. Only in-repo files: these never skip.
@Suite("Mapping model files")
struct MappingFileTests {
  static let bundle = try! ModelBundle(contentsOf: TestPaths.tasksModel.path)

  /// A new mapping between two Tasks versions, written to a scratch folder.
  static func written(from: String, to: String) throws -> (template: MappingModelSource, url: URL) {
    let template = MappingTemplate.make(
      name: "Step", source: bundle.version(named: from)!, destination: bundle.version(named: to)!,
      sourcePath: "Tasks.xcdatamodeld/\(from).xcdatamodel", destinationPath: "Tasks.xcdatamodeld/\(to).xcdatamodel")
    let url = TestPaths.temporaryDirectory("mapping").appendingPathComponent("Step.xcmappingmodel")
    try XcodeMappingWriter.write(template, to: url)
    return (template, url)
  }

  @Test("A model snapshot written for every Tasks version reads back with the same version hashes")
  func snapshotRoundTrip() throws {
    for version in Self.bundle.versions {
      let data = ModelSnapshotWriter.encode(version)
      let read = try ModelSnapshot.decode(data, name: version.name)
      #expect(read.versionHashes.entityHashes == version.versionHashes.entityHashes, "\(version.name)")
      #expect(ModelSnapshotWriter.encode(read) == data, "\(version.name): not byte-identical when written again")
    }
  }

  @Test("mapping new writes a mapping that reads back to the same mapping, matched by hashes, and checks clean")
  func newMappingRoundTrips() throws {
    let (template, url) = try Self.written(from: "Tasks 2", to: "Tasks 3")
    let direct = MappingModelLoader.load(template, bundle: Self.bundle)
    let read = try MappingModelLoader.load(contentsOf: url, bundle: Self.bundle)
    #expect(read.source == VersionMatch(version: "Tasks 2", method: .hashes))
    #expect(read.destination == VersionMatch(version: "Tasks 3", method: .hashes))
    #expect(JSONWriter.prettyPrinted(read.json) == JSONWriter.prettyPrinted(direct.json))
    #expect(read.mapping.entityMappings.map(\.name) == ["Project", "Tag", "TaskToTask"])
    #expect(read.mapping.entityMappings.map(\.kind) == [.add, .add, .copy])
    let task = try #require(read.mapping.entityMapping(named: "TaskToTask"))
    #expect(
      task.attributeMappings.map(\.destinationProperty) == task.attributeMappings.map(\.destinationProperty).sorted())
    #expect(task.propertyMapping(for: "title")?.value?.description == "$source.title")
    #expect(MappingChecker.check(read, bundle: Self.bundle).isEmpty)
  }

  @Test("Writing the same mapping twice gives the same bytes, and an identical file is not rewritten")
  func deterministicWriting() throws {
    let (template, url) = try Self.written(from: "Tasks", to: "Tasks 3")
    let file = url.appendingPathComponent("xcmapping.xml")
    let first = try Data(contentsOf: file)
    let before = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
    Thread.sleep(forTimeInterval: 0.01)
    try XcodeMappingWriter.write(template, to: url)
    let after = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
    #expect(try Data(contentsOf: file) == first)
    #expect(before == after)
    let again = MappingTemplate.make(
      name: "Step", source: Self.bundle.version(named: "Tasks")!, destination: Self.bundle.version(named: "Tasks 3")!,
      sourcePath: "Tasks.xcdatamodeld/Tasks.xcdatamodel", destinationPath: "Tasks.xcdatamodeld/Tasks 3.xcdatamodel")
    #expect(try XcodeMappingWriter.document(again) == String(decoding: first, as: UTF8.self))
  }

  @Test("A mapping whose source version was edited afterwards is orphaned, naming the closest version and the entity")
  func orphanedMapping() throws {
    var source = Self.bundle.version(named: "Tasks 2")!
    source.updateEntity(source.entityID(named: "Task")!) { task in
      task.attributes[task.attributes.firstIndex { $0.name == "title" }!].isOptional = true
    }
    let template = MappingTemplate.make(
      name: "Edited", source: source, destination: Self.bundle.version(named: "Tasks 3")!,
      sourcePath: "Tasks 2.xcdatamodel",
      destinationPath: "Tasks 3.xcdatamodel")
    let loaded = MappingModelLoader.load(template, bundle: Self.bundle)
    #expect(loaded.isOrphaned)
    #expect(loaded.source.version == nil)
    #expect(loaded.source.closestVersion == "Tasks 2")
    #expect(loaded.source.differences == [VersionMatch.Difference(entity: "Task", kind: .changed)])
    let diagnostics = MappingChecker.check(loaded, bundle: Self.bundle)
    #expect(diagnostics.map(\.code) == ["mapping-orphaned"])
    #expect(diagnostics.first?.message.contains("'Tasks 2'") == true)
    #expect(throws: MappingReadError.self) {
      _ = try MappingModel(
        contentsOf: try Self.written(from: "Tasks 2", to: "Tasks 3").url,
        model: ModelBundle(
          name: "Other", versions: [source], currentVersionIndex: 0))
    }
  }

  @Test("The checker reports unknown properties, missing required values and unknown source keys at their elements")
  func checkerFindings() throws {
    var (template, _) = try Self.written(from: "Tasks 2", to: "Tasks 3")
    let index = template.entityMappings.firstIndex { $0.destinationEntity == "Task" }!
    template.entityMappings[index].attributeMappings.removeAll { $0.name == "title" }
    template.entityMappings[index].attributeMappings.append(.init(name: "nonexistent"))
    template.entityMappings[index].attributeMappings.append(
      .init(name: "notes", expression: try MappingExpression(format: "$source.missingKey")))
    let url = TestPaths.temporaryDirectory("mapping").appendingPathComponent("Bad.xcmappingmodel")
    try XcodeMappingWriter.write(template, to: url)
    let loaded = try MappingModelLoader.load(contentsOf: url, bundle: Self.bundle)
    let diagnostics = MappingChecker.check(loaded, bundle: Self.bundle)
    #expect(
      Set(diagnostics.map(\.code)) == ["unknown-destination-property", "missing-required-value", "unknown-source-key"])
    for diagnostic in diagnostics {
      #expect(diagnostic.location?.file.hasSuffix("Bad.xcmappingmodel/xcmapping.xml") == true)
      #expect((diagnostic.location?.line ?? 0) > 1)
    }
    #expect(diagnostics.first { $0.code == "missing-required-value" }?.property == "title")
  }

  // MARK: - Bad input

  static func damaged(_ transform: (String) -> String) throws -> URL {
    let (_, url) = try written(from: "Tasks 2", to: "Tasks 3")
    let file = url.appendingPathComponent("xcmapping.xml")
    let text = try String(contentsOf: file, encoding: .utf8)
    try transform(text).write(to: file, atomically: true, encoding: .utf8)
    return url
  }

  static func readError(_ url: URL) -> MappingReadError? {
    do {
      _ = try MappingModelLoader.load(contentsOf: url, bundle: bundle)
      return nil
    } catch {
      return error
    }
  }

  @Test("Truncated XML is refused with its line and column")
  func truncated() throws {
    let url = try Self.damaged { String($0.prefix($0.count / 2)) }
    let error = try #require(Self.readError(url))
    #expect(error.diagnostic.code == "xml-syntax")
    #expect(error.description.contains("xcmapping.xml:"))
  }

  @Test("An idref that points nowhere is refused, naming the object and the id")
  func danglingIDRef() throws {
    let url = try Self.damaged {
      $0.replacingOccurrences(
        of: "name=\"entitymappings\" type=\"0/0\" destination=\"XDDEVENTITYMAPPING\" idrefs=\"z102",
        with: "name=\"entitymappings\" type=\"0/0\" destination=\"XDDEVENTITYMAPPING\" idrefs=\"z999")
    }
    let error = try #require(Self.readError(url))
    #expect(error.diagnostic.code == "dangling-idref")
    #expect(error.description.contains("'z999'"))
  }

  @Test("A value expression whose base64 is not a property list is refused at its element")
  func badExpressionData() throws {
    var (template, url) = try Self.written(from: "Tasks 2", to: "Tasks 3")
    let index = template.entityMappings.firstIndex { $0.destinationEntity == "Task" }!
    template.entityMappings[index].attributeMappings[0].expression = try MappingExpression(format: "$source.title")
    try XcodeMappingWriter.write(template, to: url)
    let file = url.appendingPathComponent("xcmapping.xml")
    var text = try String(contentsOf: file, encoding: .utf8)
    let start = try #require(text.range(of: "<attribute name=\"valueexpressiondata\" type=\"binary\">")).upperBound
    let end = try #require(text[start...].range(of: "</attribute>")).lowerBound
    text.replaceSubrange(start..<end, with: "bm90IGEgcGxpc3Q=\n")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let error = try #require(Self.readError(url))
    #expect(error.diagnostic.code == "bad-expression")
    #expect(error.description.contains("valueexpressiondata"))
  }

  @Test("A snapshot that is not a keyed archive falls back to the recorded path, and says so")
  func snapshotFallsBackToPath() throws {
    let url = try Self.damaged { text in
      let start = text.range(of: "<attribute name=\"sourcemodeldata\" type=\"binary\">")!.upperBound
      let end = text[start...].range(of: "</attribute>")!.lowerBound
      return text.replacingCharacters(in: start..<end, with: "bm90IGEgcGxpc3Q=\n")
    }
    let loaded = try MappingModelLoader.load(contentsOf: url, bundle: Self.bundle)
    #expect(loaded.source.version == "Tasks 2")
    #expect(loaded.source.method == .path)
    #expect(loaded.source.note?.contains("sourcemodeldata") == true)
    #expect(loaded.destination.method == .hashes)
  }

  @Test("A file that is not a mapping model, and a keyed archive of an unknown class, are refused by name")
  func notAMapping() throws {
    let folder = TestPaths.temporaryDirectory("mapping")
    let plist = folder.appendingPathComponent("Other.xcmappingmodel")
    try FileManager.default.createDirectory(at: plist, withIntermediateDirectories: true)
    try "<?xml version=\"1.0\"?><plist><dict/></plist>".write(
      to: plist.appendingPathComponent("xcmapping.xml"), atomically: true, encoding: .utf8)
    #expect(Self.readError(plist)?.diagnostic.code == "not-a-mapping-model")

    var writer = KeyedArchiveWriter()
    let root = writer.object(className: "NSSomethingElse", classHierarchy: ["NSSomethingElse", "NSObject"], fields: [])
    let cdm = folder.appendingPathComponent("Other.cdm")
    try writer.data(root: root).write(to: cdm)
    let error = try #require(Self.readError(cdm))
    #expect(error.description.contains("NSSomethingElse"))

    let missing = folder.appendingPathComponent("Missing.xcmappingmodel")
    #expect(Self.readError(missing)?.diagnostic.code == "missing-file")
  }
}
