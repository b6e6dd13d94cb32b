import DataModel
import Foundation
import Migration
import TestSupport
import Testing

/// Compiled mapping models (`.cdm`): made from a mapping read from Xcode's format, read back
/// into the same ``MappingModel``, and matched to versions by the hashes they record.
@Suite("Compiled mapping models")
struct CompiledMappingTests {
  static let bundle = try! ModelBundle(contentsOf: TestPaths.tasksModel.path)

  @Test(".cdm and .xcmappingmodel read into equal mapping models, filter and user info included")
  func compiledEqualsSource() throws {
    var template = MappingTemplate.make(
      name: "Step", source: Self.bundle.version(named: "Tasks 2")!, destination: Self.bundle.version(named: "Tasks 3")!,
      sourcePath: "Tasks 2.xcdatamodel", destinationPath: "Tasks 3.xcdatamodel")
    let task = template.entityMappings.firstIndex { $0.destinationEntity == "Task" }!
    template.entityMappings[task].sourceFilter = "priority > 1 AND title != \"x\""
    template.entityMappings[task].userInfo = ["note": "kept", "owner": "tasks"]
    let folder = TestPaths.temporaryDirectory("cdm")
    let source = folder.appendingPathComponent("Step.xcmappingmodel")
    try XcodeMappingWriter.write(template, to: source)
    let fromSource = try MappingModel(contentsOf: source, model: Self.bundle)

    let compiled = folder.appendingPathComponent("Step.cdm")
    try CompiledMappingWriter.encode(fromSource).write(to: compiled)
    #expect(try CompiledMappingWriter.encode(fromSource) == Data(contentsOf: compiled))
    let loaded = try MappingModelLoader.load(contentsOf: compiled, bundle: Self.bundle)
    #expect(loaded.file.format == .cdm)
    #expect(loaded.source == VersionMatch(version: "Tasks 2", method: .hashes))
    #expect(loaded.destination == VersionMatch(version: "Tasks 3", method: .hashes))
    let fromCompiled = try MappingModel(contentsOf: compiled, model: Self.bundle)
    #expect(fromCompiled.entityMappings == fromSource.entityMappings)
    #expect(fromCompiled.entityMapping(named: "TaskToTask")?.sourceFilter == "priority > 1 AND title != \"x\"")
    #expect(fromCompiled.entityMapping(named: "TaskToTask")?.userInfo == ["note": "kept", "owner": "tasks"])
    #expect(MappingChecker.check(loaded, bundle: Self.bundle).isEmpty)
  }

  @Test("A compiled mapping whose recorded hashes match no version is orphaned")
  func compiledOrphaned() throws {
    let template = MappingTemplate.make(
      name: "Step", source: Self.bundle.version(named: "Tasks 2")!, destination: Self.bundle.version(named: "Tasks 3")!,
      sourcePath: "Tasks 2.xcdatamodel", destinationPath: "Tasks 3.xcdatamodel")
    var mapping = MappingModelLoader.load(template, bundle: Self.bundle).mapping
    let task = mapping.entityMappings.firstIndex { $0.destinationEntity == "Task" }!
    mapping.entityMappings[task].sourceEntityVersionHash = Data(repeating: 7, count: 32)
    let url = TestPaths.temporaryDirectory("cdm").appendingPathComponent("Edited.cdm")
    try CompiledMappingWriter.encode(mapping).write(to: url)
    let loaded = try MappingModelLoader.load(contentsOf: url, bundle: Self.bundle)
    #expect(loaded.source.version == nil)
    #expect(loaded.source.differences.contains(VersionMatch.Difference(entity: "Task", kind: .changed)))
    #expect(throws: MappingReadError.self) { _ = try MappingModel(contentsOf: url, model: Self.bundle) }
  }

  @Test("A truncated .cdm is refused with the file named")
  func truncatedCompiled() throws {
    let template = MappingTemplate.make(
      name: "Step", source: Self.bundle.version(named: "Tasks 2")!, destination: Self.bundle.version(named: "Tasks 3")!,
      sourcePath: "Tasks 2.xcdatamodel", destinationPath: "Tasks 3.xcdatamodel")
    let data = try CompiledMappingWriter.encode(MappingModelLoader.load(template, bundle: Self.bundle).mapping)
    let url = TestPaths.temporaryDirectory("cdm").appendingPathComponent("Broken.cdm")
    try data.prefix(data.count / 2).write(to: url)
    do {
      _ = try MappingModelLoader.load(contentsOf: url, bundle: Self.bundle)
      Issue.record("a truncated .cdm was read")
    } catch {
      #expect(error.diagnostic.code == "bad-compiled-mapping")
      #expect(error.description.contains("Broken.cdm"))
    }
  }
}
