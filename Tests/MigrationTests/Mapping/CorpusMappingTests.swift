import DataModel
import Foundation
import Migration
import TestSupport
import Testing

/// The real mapping models of `../shared/corpus/mappings`, each read and matched to the model it
/// was made for (a bundle of the same project).
@Suite("Mapping models of the corpus")
struct CorpusMappingTests {
  /// Every `.xcmappingmodel` of the corpus, with the bundles of its project.
  static func corpusMappings() -> [(mapping: URL, bundles: [URL])] {
    guard let corpus = TestPaths.corpus else { return [] }
    let root = corpus.appendingPathComponent("mappings")
    var result: [(URL, [URL])] = []
    for project in ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).sorted() {
      let folder = root.appendingPathComponent(project)
      let bundles = TestPaths.corpusModels().filter { $0.path.contains("/\(project)/") }
      for entry in ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
      where entry.hasSuffix(".xcmappingmodel") {
        result.append((folder.appendingPathComponent(entry), bundles))
      }
    }
    return result
  }

  /// The corpus bundles, read once, with their version hashes.
  static let bundles: [String: (bundle: ModelBundle, hashes: BundleVersionHashes)] = {
    var result: [String: (ModelBundle, BundleVersionHashes)] = [:]
    for url in TestPaths.corpusModels() {
      guard let bundle = try? ModelBundle(contentsOf: url.path) else { continue }
      result[url.path] = (bundle, BundleVersionHashes(bundle))
    }
    return result
  }()

  /// The mapping loaded against the bundle whose versions both of its sides match.
  static func loadMatched(_ mapping: URL, bundles: [URL]) throws -> (LoadedMappingModel, ModelBundle)? {
    let file = try MappingModelSource.read(contentsOf: mapping)
    for url in bundles {
      guard let (bundle, hashes) = Self.bundles[url.path] else { continue }
      let loaded = MappingModelLoader.load(file, bundle: bundle, hashes: hashes)
      if !loaded.isOrphaned { return (loaded, bundle) }
    }
    return nil
  }

  @Test("Every corpus mapping reads, and both sides match a version of its model by hashes")
  func everyMappingMatches() throws {
    let mappings = Self.corpusMappings()
    guard !mappings.isEmpty else {
      print("skipped: \(TestPaths.corpusAbsentReason)")
      return
    }
    #expect(mappings.count == 17)
    for (mapping, bundles) in mappings {
      let found = try Self.loadMatched(mapping, bundles: bundles)
      #expect(found != nil, "\(mapping.lastPathComponent) matches no model of its project")
      guard let (loaded, _) = found else { continue }
      #expect(loaded.source.method == .hashes, "\(mapping.lastPathComponent): source \(loaded.source)")
      #expect(loaded.destination.method == .hashes, "\(mapping.lastPathComponent): destination \(loaded.destination)")
      #expect(!loaded.mapping.entityMappings.isEmpty)
      let (again, bundle) = try #require(try Self.loadMatched(mapping, bundles: bundles))
      #expect(JSONWriter.prettyPrinted(again.json) == JSONWriter.prettyPrinted(loaded.json), "not deterministic")
      let errors = MappingChecker.check(loaded, bundle: bundle).errors
      #expect(errors.isEmpty, "\(mapping.lastPathComponent): \(errors.map(\.description))")
      print("\(mapping.lastPathComponent): \(loaded.source.version ?? "-") → \(loaded.destination.version ?? "-")")
    }
  }
}
