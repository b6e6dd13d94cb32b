import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

/// Binary attributes that allow external storage are written as Core Data writes them: values
/// longer than 128 KiB in a file of `.<store>_SUPPORT/_EXTERNAL_DATA/` named by an uppercase
/// UUID, the column holding `0x02`, the name and `0x00`; shorter ones inline after `0x01`. Files
/// follow their rows through updates, deletions (one by one and in batches) and failed saves.
@Suite("External binary storage")
struct ExternalStorageTests {
  static let model = ContextFixtures.model(
    """
    <entity name="Photo" representedClassName="Photo">
      <attribute name="key" attributeType="String"/>
      <attribute name="caption" optional="YES" attributeType="String"/>
      <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
      <attribute name="thumbnail" optional="YES" attributeType="Binary"/>
      <uniquenessConstraints>
        <uniquenessConstraint><constraint value="key"/></uniquenessConstraint>
      </uniquenessConstraints>
    </entity>
    """)

  /// Bytes that are not all alike, of a given length.
  static func bytes(_ count: Int, seed: UInt8 = 0) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
  }

  /// A store in a fresh folder.
  struct Store {
    let directory: TemporaryDirectory
    let url: URL
    let container: PersistentContainer

    init() throws {
      directory = try TemporaryDirectory()
      url = directory.url.appendingPathComponent("Photos.sqlite")
      container = try PersistentContainer(model: ExternalStorageTests.model, options: .file(url))
    }

    var folder: ExternalDataFolder { ExternalDataFolder(storeAt: url) }

    /// The raw `ZIMAGE` column of the photo with this key.
    func storedImage(_ key: String) throws -> SQLiteValue {
      let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
      defer { try? connection.close() }
      return try connection.firstRow(
        SQLiteSQL(verbatim: "SELECT ZIMAGE FROM ZPHOTO WHERE ZKEY = ?", arguments: [.text(key)])
      ) { $0.value(at: 0) } ?? .null
    }

    @discardableResult
    func insert(_ key: String, image: Data?, in context: ObjectContext) throws -> ManagedObject {
      let photo = try context.insert(entityNamed: "Photo")
      try photo.setValue(.string(key), forKey: "key")
      try photo.setValue(image.map { .binary($0) }, forKey: "image")
      return photo
    }

    func photo(_ key: String, in context: ObjectContext) throws -> ManagedObject {
      try #require(
        try context.fetch(
          FetchRequest<ManagedObject>(entityName: "Photo", predicate: try FetchPredicate(format: "key == %@", key))
        ).first)
    }
  }

  @Test("The folder of a store is .<name>_SUPPORT/_EXTERNAL_DATA beside it")
  func folderPath() {
    let folder = ExternalDataFolder(storeAt: URL(fileURLWithPath: "/data/app/Foo.sqlite"))
    #expect(folder.url.path == "/data/app/.Foo_SUPPORT/_EXTERNAL_DATA")
    #expect(folder.supportURL.path == "/data/app/.Foo_SUPPORT")
  }

  @Test("Column bytes: 0x01 before inline bytes, 0x02 + UUID + 0x00 for a file")
  func referenceBytes() {
    let name = "6F99DCEB-E351-44B4-A9EE-E419C7F1A040"
    let reference = ExternalDataReference.reference(to: name)
    #expect(reference.count == 38)
    #expect(reference.first == 0x02 && reference.last == 0x00)
    #expect(ExternalDataReference.fileName(in: reference) == name)
    #expect(ExternalDataReference.inline(Data([7, 8])) == [0x01, 7, 8])
    #expect(ExternalDataReference.fileName(in: [0x01, 7, 8]) == nil)
    // A name that would leave the folder is no reference.
    #expect(ExternalDataReference.fileName(in: [0x02] + Array("../x".utf8) + [0]) == nil)
    #expect(!ExternalDataReference.isExternal(byteCount: 131_072))
    #expect(ExternalDataReference.isExternal(byteCount: 131_073))
  }

  @Test("A value longer than 128 KiB goes to a file; one of 128 KiB stays in the row")
  func threshold() throws {
    let store = try Store()
    let large = Self.bytes(131_073)
    let limit = Self.bytes(131_072, seed: 3)
    let context = store.container.newContext()
    try store.insert("large", image: large, in: context)
    try store.insert("limit", image: limit, in: context)
    try store.insert("none", image: nil, in: context)
    try context.save()

    let files = store.folder.fileNames()
    try #require(files.count == 1)
    #expect(UUID(uuidString: files[0])?.uuidString == files[0], "file names are uppercase UUIDs")
    #expect(FileManager.default.contents(atPath: store.folder.fileURL(named: files[0]).path) == large)
    #expect(try store.storedImage("large") == .blob([0x02] + Array(files[0].utf8) + [0]))
    #expect(try store.storedImage("limit") == .blob([0x01] + [UInt8](limit)))
    #expect(try store.storedImage("none") == .null)

    let fresh = store.container.newContext()
    #expect(try store.photo("large", in: fresh).value(forKey: "image") == .binary(large))
    #expect(try store.photo("limit", in: fresh).value(forKey: "image") == .binary(limit))
    // fetchDictionaries reads the file too.
    var request = FetchRequest<ManagedObject>(
      entityName: "Photo", predicate: try FetchPredicate(format: "key == 'large'"))
    request.propertiesToFetch = ["image"]
    let rows = try fresh.fetchDictionaries(request)
    #expect(rows.first?["image"] == .attribute(.binary(large)))
  }

  @Test("A plain Binary attribute keeps any value in the row, without a marker")
  func plainBinaryStaysInline() throws {
    let store = try Store()
    let context = store.container.newContext()
    let photo = try store.insert("a", image: nil, in: context)
    try photo.setValue(.binary(Self.bytes(200_000)), forKey: "thumbnail")
    try context.save()
    #expect(store.folder.fileNames().isEmpty)
  }

  @Test("An in-memory store keeps long values inline")
  func inMemoryStoresInline() throws {
    let container = try PersistentContainer(model: Self.model, options: .inMemory)
    let context = container.newContext()
    let photo = try context.insert(entityNamed: "Photo")
    try photo.setValue(.string("a"), forKey: "key")
    try photo.setValue(.binary(Self.bytes(200_000)), forKey: "image")
    try context.save()
    let fresh = container.newContext()
    let fetched = try fresh.fetch(FetchRequest<ManagedObject>(entityName: "Photo"))
    #expect(try fetched.first?.value(forKey: "image") == .binary(Self.bytes(200_000)))
  }

  @Test("Replacing a value removes the old file after the save; an unchanged value keeps its file")
  func updates() throws {
    let store = try Store()
    let context = store.container.newContext()
    let photo = try store.insert("a", image: Self.bytes(200_000), in: context)
    try context.save()
    let first = store.folder.fileNames()
    try #require(first.count == 1)

    // Another attribute changes: the file stays as it is.
    try photo.setValue(.string("sunset"), forKey: "caption")
    try context.save()
    #expect(store.folder.fileNames() == first)
    #expect(try store.storedImage("a") == .blob([0x02] + Array(first[0].utf8) + [0]))

    // A new long value: a new file, the old one gone.
    try photo.setValue(.binary(Self.bytes(300_000, seed: 9)), forKey: "image")
    try context.save()
    let second = store.folder.fileNames()
    #expect(second.count == 1 && second != first)
    #expect(
      FileManager.default.contents(atPath: store.folder.fileURL(named: second[0]).path) == Self.bytes(300_000, seed: 9))

    // A short value: inline, and no file left.
    try photo.setValue(.binary(Data([1, 2, 3])), forKey: "image")
    try context.save()
    #expect(store.folder.fileNames().isEmpty)
    #expect(try store.storedImage("a") == .blob([0x01, 1, 2, 3]))

    // Long again, then nil.
    try photo.setValue(.binary(Self.bytes(140_000)), forKey: "image")
    try context.save()
    #expect(store.folder.fileNames().count == 1)
    try photo.setValue(nil, forKey: "image")
    try context.save()
    #expect(store.folder.fileNames().isEmpty)
    #expect(try store.storedImage("a") == .null)
  }

  @Test("Deleting an object removes its file once the save commits")
  func deletion() throws {
    let store = try Store()
    let context = store.container.newContext()
    let kept = try store.insert("kept", image: Self.bytes(150_000, seed: 1), in: context)
    let gone = try store.insert("gone", image: Self.bytes(150_000, seed: 2), in: context)
    try context.save()
    #expect(store.folder.fileNames().count == 2)
    context.delete(gone)
    try context.save()
    let left = store.folder.fileNames()
    #expect(left.count == 1)
    #expect(try store.storedImage("kept") == .blob([0x02] + Array(left[0].utf8) + [0]))
    #expect(try kept.value(forKey: "image") == .binary(Self.bytes(150_000, seed: 1)))
  }

  @Test("A failed save leaves no new file and every old reference valid")
  func failedSave() throws {
    let store = try Store()
    let context = store.container.newContext()
    let old = try store.insert("old", image: Self.bytes(150_000, seed: 4), in: context)
    let replaced = try store.insert("replaced", image: Self.bytes(150_000, seed: 5), in: context)
    try context.save()
    let before = store.folder.fileNames()
    try #require(before.count == 2)

    // One save that deletes a photo, replaces another's image and inserts two new photos
    // with long images, the second breaking the uniqueness of `key` in the store's index:
    // the transaction fails after the new files were written.
    context.delete(old)
    try replaced.setValue(.binary(Self.bytes(160_000, seed: 6)), forKey: "image")
    try store.insert("new", image: Self.bytes(170_000, seed: 7), in: context)
    try store.insert("new", image: Self.bytes(180_000, seed: 8), in: context)
    #expect(throws: SaveError.self) { try context.save() }

    #expect(store.folder.fileNames() == before, "no orphan, no removed file")
    let fresh = store.container.newContext()
    #expect(try store.photo("old", in: fresh).value(forKey: "image") == .binary(Self.bytes(150_000, seed: 4)))
    #expect(try store.photo("replaced", in: fresh).value(forKey: "image") == .binary(Self.bytes(150_000, seed: 5)))
  }

  @Test("Batch deletes and batch updates remove the files of the values they remove")
  func batches() throws {
    let store = try Store()
    let context = store.container.newContext()
    try store.insert("a", image: Self.bytes(150_000, seed: 1), in: context)
    try store.insert("b", image: Self.bytes(150_000, seed: 2), in: context)
    try store.insert("c", image: Self.bytes(150_000, seed: 3), in: context)
    try context.save()
    #expect(store.folder.fileNames().count == 3)

    try context.execute(BatchDeleteRequest(entityName: "Photo", predicate: try FetchPredicate(format: "key == 'a'")))
    #expect(store.folder.fileNames().count == 2)

    var update = BatchUpdateRequest(entityName: "Photo", propertiesToUpdate: ["image": .attribute(.binary(Data([9])))])
    update.predicate = try FetchPredicate(format: "key == 'b'")
    try context.execute(update)
    #expect(store.folder.fileNames().count == 1)
    #expect(try store.storedImage("b") == .blob([0x01, 9]))

    // Updating another attribute leaves the files alone.
    try context.execute(
      BatchUpdateRequest(entityName: "Photo", propertiesToUpdate: ["caption": .attribute(.string("x"))]))
    #expect(store.folder.fileNames().count == 1)
    #expect(
      try store.photo("c", in: store.container.newContext()).value(forKey: "image")
        == .binary(Self.bytes(150_000, seed: 3)))
  }

  @Test("Export writes externally stored values; import into another store writes them to its folder")
  func exportAndImport() throws {
    let store = try Store()
    let large = Self.bytes(200_000, seed: 11)
    let context = store.container.newContext()
    try store.insert("a", image: large, in: context)
    try context.save()

    let document = try StoreExport.json(of: store.container.newContext())
    let photo = try #require(document["Photo"]?.arrayValue?.first)
    #expect(photo["image"] == .string(large.base64EncodedString()))

    let other = try Store()
    try StoreImport.importJSON(JSONWriter.compact(document), into: other.container.newContext())
    #expect(other.folder.fileNames().count == 1)
    #expect(try other.photo("a", in: other.container.newContext()).value(forKey: "image") == .binary(large))
  }

  @Test("A copy of a store reads its external values once the folder is copied with it")
  func copyFolder() throws {
    let store = try Store()
    let large = Self.bytes(200_000, seed: 12)
    let context = store.container.newContext()
    try store.insert("a", image: large, in: context)
    try context.save()

    // A copy of the store file alone refers to files it does not have.
    let copy = store.directory.url.appendingPathComponent("Backup.sqlite")
    let source = try SQLiteConnection(.file(store.url.path))
    let target = try SQLiteConnection(.file(copy.path))
    try source.backup(to: target)
    try target.close()
    try source.close()
    let bare = try PersistentContainer(model: Self.model, options: .file(copy))
    #expect(throws: (any Error).self) {
      _ = try bare.newContext().fetchDictionaries(FetchRequest<ManagedObject>(entityName: "Photo"))
    }

    try ExternalDataFolder.copy(fromStoreAt: store.url, toStoreAt: copy)
    #expect(ExternalDataFolder(storeAt: copy).fileNames() == store.folder.fileNames())
    let copied = try PersistentContainer(model: Self.model, options: .file(copy))
    #expect(try store.photo("a", in: copied.newContext()).value(forKey: "image") == .binary(large))

    // Copying a store without external data does nothing.
    let empty = store.directory.url.appendingPathComponent("Empty.sqlite")
    try ExternalDataFolder.copy(fromStoreAt: empty, toStoreAt: store.directory.url.appendingPathComponent("E2.sqlite"))
    #expect(!FileManager.default.fileExists(atPath: ExternalDataFolder(storeAt: empty).supportURL.path))
  }
}
