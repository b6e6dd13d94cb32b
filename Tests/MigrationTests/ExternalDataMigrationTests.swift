import Foundation
import Migration
import Persistence
import SQLite
import TestSupport
import Testing

/// Values of attributes that allow external storage live in files beside the store; a migration
/// keeps them readable, and its backup carries them.
@Suite("Migrating stores with external binary data")
struct ExternalDataMigrationTests {
  static func version(_ name: String, extra: String) -> ModelVersion {
    let (version, diagnostics) = ModelReader.readVersion(
      xml: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            <entity name="Photo" representedClassName="Photo" syncable="YES">
                <attribute name="key" attributeType="String"/>
                <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                \(extra)
            </entity>
        </model>
        """, name: name)
    precondition(!diagnostics.containsErrors, "\(diagnostics)")
    return version!
  }

  static let bundle = ModelBundle(
    name: "Photos",
    versions: [
      version("V1", extra: ""),
      version("V2", extra: "<attribute name=\"caption\" optional=\"YES\" attributeType=\"String\"/>"),
    ])

  @Test("A migrated store still reads its external values, and the backup holds copies of their files")
  func backupCarriesExternalData() throws {
    let folder = TestPaths.temporaryDirectory("external-migration")
    let url = folder.appendingPathComponent("Photos.sqlite")
    let large = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    do {
      let container = try PersistentContainer(bundle: Self.bundle, versionName: "V1", options: .file(url))
      let context = container.newContext()
      let photo = try context.insert(entityNamed: "Photo")
      try photo.setValue(.string("big"), forKey: "key")
      try photo.setValue(.binary(large), forKey: "image")
      try context.save()
    }
    let files = ExternalDataFolder(storeAt: url).fileNames()
    #expect(files.count == 1)
    let report = try StoreMigration(storeURL: url, bundle: Self.bundle).run()
    let backup = try #require(report.backupURL)
    #expect(ExternalDataFolder(storeAt: backup).fileNames() == files)
    for store in [url, backup] {
      let version = store == url ? "V2" : "V1"
      let container = try PersistentContainer(
        bundle: Self.bundle, versionName: version,
        options: StoreOptions(location: .file(store), isReadOnly: true, createIfMissing: false))
      let photo = try #require(try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Photo")).first)
      #expect(try photo.value(forKey: "image") == .binary(large), "\(version)")
    }
  }
}

extension ExternalDataMigrationTests {
  static let turnedOff = ModelBundle(
    name: "Photos",
    versions: [
      version("V1", extra: ""),
      {
        var inline = version("V2", extra: "")
        inline.updateEntity(inline.entityID(named: "Photo")!) { entity in
          entity.attributes[entity.attributes.firstIndex { $0.name == "image" }!].allowsExternalBinaryDataStorage =
            false
        }
        return inline
      }(),
    ])

  @Test("Turning external storage off moves each stored file's bytes into its row, and removes the file")
  func externalStorageTurnedOff() throws {
    let folder = TestPaths.temporaryDirectory("external-off")
    let url = folder.appendingPathComponent("Photos.sqlite")
    let large = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
    let small = Data([1, 2, 3])
    do {
      let container = try PersistentContainer(bundle: Self.turnedOff, versionName: "V1", options: .file(url))
      let context = container.newContext()
      for (key, image) in [("big", large), ("small", small)] {
        let photo = try context.insert(entityNamed: "Photo")
        try photo.setValue(.string(key), forKey: "key")
        try photo.setValue(.binary(image), forKey: "image")
      }
      try context.save()
    }
    #expect(ExternalDataFolder(storeAt: url).fileNames().count == 1)
    let report = try StoreMigration(storeURL: url, bundle: Self.turnedOff).run()
    #expect(ExternalDataFolder(storeAt: url).fileNames().isEmpty)
    #expect(ExternalDataFolder(storeAt: try #require(report.backupURL)).fileNames().count == 1)
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    let stored = try connection.mapRows(SQLiteSQL(verbatim: "SELECT ZKEY, ZIMAGE FROM ZPHOTO ORDER BY ZKEY")) {
      ($0.text(at: 0), $0.value(at: 1))
    }
    #expect(stored.map(\.0) == ["big", "small"])
    #expect(stored.map(\.1) == [.blob([UInt8](large)), .blob([UInt8](small))])
    let container = try PersistentContainer(
      bundle: Self.turnedOff, versionName: "V2",
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    let photos = try container.newContext().fetch(FetchRequest<ManagedObject>(entityName: "Photo"))
    #expect(Set(try photos.map { try $0.value(forKey: "image") }) == [.binary(large), .binary(small)])
  }
}
