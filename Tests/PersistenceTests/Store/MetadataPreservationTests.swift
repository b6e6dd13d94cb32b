import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

@Suite("Store metadata and migration history")
struct MetadataPreservationTests {
  static let loopKitKeys = [
    "com.loopkit.CarbStore.queryAnchor", "com.loopkit.GlucoseStore.queryAnchor",
    "com.loopkit.InsulinDeliveryStore.queryAnchor",
  ]

  /// The property list in `Z_METADATA`, read straight from the file.
  static func rawMetadata(_ url: URL) throws -> (uuid: String, entries: [String: PropertyListValue]) {
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    let row = try #require(
      try connection.firstRow("SELECT Z_UUID, Z_PLIST FROM Z_METADATA") { ($0.text(at: 0), $0.data(at: 1)) })
    let plist = try PropertyListSerialization.propertyList(from: row.1, options: [], format: nil)
    guard case .dictionary(let entries)? = PropertyListValue(foundationValue: plist) else {
      throw StoreMetadataError(message: "not a dictionary")
    }
    return (row.0, entries)
  }

  @Test(
    "Rewriting a Core Data store's metadata keeps every key an app or Core Data wrote",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
  func loopKitKeysSurvive() throws {
    let directory = try TemporaryDirectory()
    let url = try #require(
      try TestPaths.copyOfCorpusStore("LoopKit__LoopKit", "Model.sqlite.v1.original", into: directory.url))
    let bundle = try ModelBundle(
      contentsOf: try #require(TestPaths.corpusModel("LoopKit__LoopKit", "Model.xcdatamodeld")).path)
    let original = try Self.rawMetadata(url)
    for key in Self.loopKitKeys {
      guard case .data(let data)? = original.entries[key] else {
        Issue.record("\(key) is not data in the original store")
        continue
      }
      #expect(data.starts(with: Array("bplist00".utf8)))
    }

    let container = try PersistentContainer(
      bundle: bundle, versionName: "Model", options: StoreOptions(location: .file(url), createIfMissing: false))
    try container.updateMetadata { $0.entries["com.example.note"] = .string("added by a test") }
    try container.recordMigration(
      MigrationRecord(
        kind: "lightweight", from: bundle.version(named: "Model")!, to: bundle.currentVersion, detail: "a test record"))
    let rewritten = try Self.rawMetadata(url)
    #expect(rewritten.uuid == original.uuid)
    var expected = original.entries
    expected["com.example.note"] = .string("added by a test")
    #expect(rewritten.entries == expected)
    #expect(rewritten.entries[StoreMetadata.frameworkVersionKey] == .integer(1048))
    #expect(rewritten.entries[StoreMetadata.autoVacuumLevelKey] == .string("2"))
    // The store still opens at its version, and the history is there.
    let reopened = try PersistentContainer(
      bundle: bundle, versionName: "Model",
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    #expect(try reopened.migrationHistory().map(\.detail) == ["a test record"])

    // Recording another version's hashes (what a migration does) keeps the app's keys too.
    var metadata = try reopened.storeMetadata()
    metadata.setModel(bundle.currentVersion)
    for key in Self.loopKitKeys { #expect(metadata.entries[key] == original.entries[key]) }
    #expect(metadata.matchingVersion(in: bundle)?.name == bundle.currentVersion.name)
  }

  @Test("The history table appears with the first record; records come back in order")
  func history() throws {
    let directory = try TemporaryDirectory()
    let url = directory.url.appendingPathComponent("history.sqlite")
    let bundle = ContextFixtures.tasksBundle
    let container = try PersistentContainer(bundle: bundle, options: .file(url))
    #expect(try container.migrationHistory().isEmpty)
    let connection = try SQLiteConnection(.file(url.path), mode: .readWrite)
    #expect(try !connection.tableExists(MigrationHistory.tableName))

    let versions = bundle.versions
    let date = Date(timeIntervalSince1970: 1_800_000_000.123)
    try container.recordMigration(
      MigrationRecord(date: date, kind: "lightweight", from: versions[0], to: versions[1], detail: "added notes"))
    try container.recordMigration(MigrationRecord(date: date, kind: "mapped", from: versions[1], to: versions[2]))
    let records = try container.migrationHistory()
    #expect(records.map(\.kind) == ["lightweight", "mapped"])
    #expect(records[0].fromVersion == versions[0].name && records[0].toVersion == versions[1].name)
    #expect(records[0].fromChecksum == versions[0].versionHashes.checksum)
    #expect(records[0].toChecksum == versions[1].versionHashes.checksum)
    #expect(records[0].detail == "added notes")
    #expect(abs(records[0].date.timeIntervalSince(date)) < 0.001)
    #expect(try connection.tableExists(MigrationHistory.tableName))
    let columns = try connection.columns(in: MigrationHistory.tableName).map(\.name)
    #expect(
      columns == ["ID", "AT", "FROM_VERSION", "TO_VERSION", "FROM_CHECKSUM", "TO_CHECKSUM", "KIND", "DETAIL"])

    // A record appended inside a transaction that rolls back is gone with it.
    try? connection.transaction(.immediate) {
      try MigrationHistory.append(
        MigrationRecord(kind: "lightweight", from: versions[0], to: versions[2]), on: connection)
      throw StoreMetadataError(message: "the step failed")
    }
    #expect(try container.migrationHistory().count == 2)
    try connection.close()

    // The store is still exactly a store of its version.
    #expect(try StoreMetadata.read(fromStoreAt: url).isCompatible(with: container.model))
    let readOnly = try PersistentContainer(
      bundle: bundle, options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    #expect(throws: PersistenceError.self) {
      try readOnly.recordMigration(MigrationRecord(kind: "x", from: versions[0], to: versions[1]))
    }
    #expect(throws: PersistenceError.self) { try readOnly.updateMetadata { _ in } }
  }

  @Test("updateMetadata keeps every other key and refuses to change the store's UUID")
  func updateMetadata() throws {
    let container = try ContextFixtures.tasksContainer()
    try container.updateMetadata { $0.entries["app.key"] = .array([.integer(1), .bool(true), .data(Data([1, 2]))]) }
    try container.updateMetadata { $0.entries["app.other"] = .real(2.5) }
    let metadata = try container.storeMetadata()
    #expect(metadata.entries["app.key"] == .array([.integer(1), .bool(true), .data(Data([1, 2]))]))
    #expect(metadata.entries["app.other"] == .real(2.5))
    #expect(metadata.isCompatible(with: container.model))
    #expect(throws: PersistenceError.self) { try container.updateMetadata { $0.storeUUID = "OTHER" } }
    #expect(try container.storeMetadata().storeUUID == container.storeUUID)
  }
}
