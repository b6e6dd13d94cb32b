import Foundation
import Migration
import Persistence
import TestSupport
import Testing

/// Binary values kept in files (external storage) survive mapped steps, also when the object
/// path writes new ones and when the step reads a working copy.
@Suite("Heavyweight migrations and external binary data")
struct HeavyweightExternalDataTests {
  static func version(_ name: String, _ body: String) -> ModelVersion {
    ProgressiveMigrationTests.version(name, body)
  }

  static let bundle = ModelBundle(
    name: "Album",
    versions: [
      version(
        "Album",
        #"<entity name="Photo"><attribute name="caption" optional="YES" attributeType="String"/><attribute name="data" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/></entity>"#
      ),
      version(
        "Album 2",
        #"<entity name="Photo"><attribute name="caption" optional="YES" attributeType="String"/><attribute name="data" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/><attribute name="size" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/></entity>"#
      ),
      version(
        "Album 3",
        #"<entity name="Photo"><attribute name="title" attributeType="String"/><attribute name="data" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/><attribute name="thumbnail" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/></entity>"#
      ),
    ])

  /// Reads the photo's bytes and writes a thumbnail (its first half) as a new value.
  final class PhotoPolicy: EntityMigrationPolicy {
    override func createDestinationInstances(
      forSource source: ManagedObject, in mapping: MappingModel.EntityMapping, manager: MigrationManager
    ) throws {
      try super.createDestinationInstances(forSource: source, in: mapping, manager: manager)
      let photo = try manager.destinationInstances(forEntityMappingName: mapping.name, sourceInstances: [source])[0]
      if case .binary(let data)? = try source.value(forKey: "data") {
        try photo.setValue(.binary(data.prefix(data.count / 2)), forKey: "thumbnail")
      }
    }
  }

  static func photoBytes(_ index: Int) -> Data {
    Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* (index + 7)) })
  }

  @Test("Inferred then mapped through a policy: every file value reads back, new ones land in the store's folder")
  func externalValues() throws {
    let url = TestPaths.temporaryDirectory("heavyweight-external").appendingPathComponent("Album.sqlite")
    do {
      let container = try PersistentContainer(bundle: Self.bundle, versionName: "Album", options: .file(url))
      let context = container.newContext()
      for index in 0..<4 {
        let photo = try context.insert(entityNamed: "Photo")
        try photo.setValue(.string("photo \(index)"), forKey: "caption")
        try photo.setValue(.binary(Self.photoBytes(index)), forKey: "data")
      }
      try context.save()
    }
    #expect(ExternalDataFolder(storeAt: url).fileNames().count == 4, "the fixture keeps its values in files")
    let template = MappingTemplate.make(
      name: "Album2ToAlbum3", source: Self.bundle.versions[1], destination: Self.bundle.versions[2],
      sourcePath: "Album 2.xcdatamodel", destinationPath: "Album 3.xcdatamodel")
    var mapping = MappingModelLoader.load(template, bundle: Self.bundle).mapping
    mapping.entityMappings[0].policyClassName = "PhotoPolicy"
    let title = mapping.entityMappings[0].attributeMappings.firstIndex { $0.destinationProperty == "title" }!
    mapping.entityMappings[0].attributeMappings[title].value = try MappingExpression(format: "$source.caption")
    var policies = MigrationPolicies()
    policies.register(PhotoPolicy.self)
    let report = try StoreMigration(
      storeURL: url, bundle: Self.bundle, mappingModels: [mapping], policies: policies
    ).run(options: .init(keepsBackup: false, batchSize: 3))
    #expect(report.records.map(\.kind) == ["lightweight", "mapped"])

    let context = try PersistentContainer(
      bundle: Self.bundle, options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false)
    ).newContext()
    let photos = try context.fetch(FetchRequest<ManagedObject>(entityName: "Photo"))
    #expect(photos.count == 4)
    for photo in photos {
      guard case .string(let title)? = try photo.value(forKey: "title"), let index = Int(title.split(separator: " ")[1])
      else {
        Issue.record("a photo lost its title")
        continue
      }
      let bytes = Self.photoBytes(index)
      #expect(try photo.value(forKey: "data") == .binary(bytes))
      #expect(try photo.value(forKey: "thumbnail") == .binary(bytes.prefix(bytes.count / 2)))
    }
    let folder = url.deletingLastPathComponent()
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
    #expect(!files.contains { $0.contains("modelc-migrating") }, "\(files)")
    #expect(ExternalDataFolder(storeAt: url).fileNames().count >= 8)
  }
}
