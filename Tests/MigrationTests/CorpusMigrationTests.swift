import Foundation
import Migration
import Persistence
import TestSupport
import Testing

/// Every consecutive version pair of every multi-version bundle of the corpus: a store created
/// at the older version and seeded, migrated to the newer one, keeps every value of every
/// attribute both versions share. Pairs that lightweight migration refuses (they need a mapping
/// model) are listed, not migrated.
@Suite("Migrating every corpus version pair")
struct CorpusMigrationTests {
  static let multiVersionBundles = TestPaths.corpusModels().filter { url in
    url.pathExtension == "xcdatamodeld"
      && ((try? FileManager.default.contentsOfDirectory(atPath: url.path))?.filter { $0.hasSuffix(".xcdatamodel") }
        .count
        ?? 0) > 1
  }

  @Test(
    "Seeded stores migrate between consecutive versions with every shared value intact",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)),
    arguments: multiVersionBundles)
  func consecutivePairs(_ url: URL) throws {
    let bundle = try ModelBundle(contentsOf: url.path)
    var migrated = 0
    var comparedInBundle = 0
    var refused: [String] = []
    for (older, newer) in zip(bundle.versions, bundle.versions.dropFirst()) {
      let mapping: MappingModel
      do {
        mapping = try LightweightInference.mappingModel(from: older, to: newer)
      } catch {
        refused.append("'\(older.name)' → '\(newer.name)' (\(error.refusals.count) change(s) need a mapping model)")
        continue
      }
      let store = TestPaths.temporaryDirectory("corpus-pair").appendingPathComponent("Store.sqlite")
      do {
        let container = try PersistentContainer(bundle: bundle, versionName: older.name, options: .file(store))
        try StoreSeeder(rowsPerEntity: 3, seed: 7).seed(container.newContext())
      }
      let before = try StoreSnapshot.values(of: store, bundle: bundle, version: older.name)
      try StoreMigration(storeURL: store, bundle: bundle).run(to: newer, options: .init(keepsBackup: false))
      #expect(try StoreMigration(storeURL: store, bundle: bundle).storeVersion().versionHashes == newer.versionHashes)
      let after = try StoreSnapshot.values(of: store, bundle: bundle, version: newer.name)
      var compared = 0
      for entityMapping in mapping.entityMappings {
        guard let sourceName = entityMapping.sourceEntity, let destinationName = entityMapping.destinationEntity,
          let sourceRows = before[sourceName]
        else { continue }
        let destinationRows = after[destinationName] ?? [:]
        #expect(
          destinationRows.count == sourceRows.count,
          "\(url.lastPathComponent) '\(older.name)' → '\(newer.name)': \(destinationName) has \(destinationRows.count) objects, \(sourceName) had \(sourceRows.count)"
        )
        for property in entityMapping.attributeMappings {
          guard let sourceAttribute = property.value?.sourceKeyPath, !sourceAttribute.contains(".") else {
            continue
          }
          for (key, row) in sourceRows {
            guard let value = row[sourceAttribute] else { continue }
            let migratedValue = destinationRows[key]?[property.destinationProperty] ?? nil
            #expect(
              migratedValue == value,
              "\(url.lastPathComponent) '\(older.name)' → '\(newer.name)': \(destinationName) \(key).\(property.destinationProperty)"
            )
            compared += 1
          }
        }
      }
      migrated += 1
      comparedInBundle += compared
    }
    // The seeded values were really compared, not skipped: every bundle that migrated a pair
    // compared some.
    if migrated > 0 {
      #expect(comparedInBundle > 0, "\(url.lastPathComponent): \(migrated) pair(s) migrated but no value compared")
    }
    print(
      "[\(url.lastPathComponent)] compared \(comparedInBundle) value(s); migrated \(migrated) pair(s)\(refused.isEmpty ? "" : "; refused (need a mapping model): " + refused.joined(separator: ", "))"
    )
  }
}
