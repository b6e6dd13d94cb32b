import Foundation
import Migration
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
