import Foundation
import TestSupport
import Testing

/// `modelc migrate` through mapping models, as a user runs it: the mapped step runs, dry runs
/// and `--sql` say how, and a mapping that needs policy classes is refused with the store
/// untouched.
@Suite("modelc migrate through mapping models")
struct MigrateHeavyweightTests {
  static let model = TestPaths.fixtures.appendingPathComponent("models/Bookshelf.xcdatamodeld").path
  static let mappingFixture = TestPaths.fixtures.appendingPathComponent(
    "mappings/BookshelfToBookshelf2.xcmappingmodel")

  /// A seeded store at the first version and a folder with the fixture mapping.
  static func prepare(_ scratch: ScratchDirectory) throws -> (store: String, mappings: String) {
    let store = scratch.path("shelf.sqlite")
    let seeded = try ModelcProcess.run([
      "store", "seed", store, "--model", model, "--version", "Bookshelf", "--rows", "30", "--seed", "7",
    ])
    #expect(seeded.status == 0, "\(seeded.error)")
    let mappings = scratch.path("Migrations")
    try FileManager.default.createDirectory(atPath: mappings, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      atPath: mappingFixture.path, toPath: mappings + "/BookshelfToBookshelf2.xcmappingmodel")
    return (store, mappings)
  }

  static func export(_ store: String, version: String) throws -> String {
    let exported = try ModelcProcess.run([
      "store", "export", store, "--model", model + "/\(version).xcdatamodel",
    ])
    #expect(exported.status == 0, "\(exported.error)")
    return exported.output
  }

  @Test("A mapped step then an inferred one run from the command line; the dry run says how")
  func migrates() throws {
    guard ModelcProcess.executable != nil else {
      print("skipped: \(ModelcProcess.absentReason)")
      return
    }
    let scratch = ScratchDirectory()
    let (store, mappings) = try Self.prepare(scratch)
    let before = try Self.export(store, version: "Bookshelf")

    let dryRun = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--mappings", mappings, "--dry-run"])
    #expect(dryRun.status == 0, "\(dryRun.error)")
    #expect(dryRun.output.contains("in 2 steps (1 mapped, 1 inferred)"), "\(dryRun.output)")
    #expect(dryRun.output.contains("mapped by \(mappings)/BookshelfToBookshelf2.xcmappingmodel\n"), "\(dryRun.output)")
    #expect(dryRun.output.contains("AuthorToAuthor [copy] Author → Author: SQL"), "\(dryRun.output)")
    #expect(dryRun.output.contains("Remark [add] – → Remark: nothing to move"), "\(dryRun.output)")
    #expect(dryRun.output.contains("'Bookshelf 2' → 'Bookshelf 3', inferred"), "\(dryRun.output)")
    let sql = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--mappings", mappings, "--sql"])
    #expect(sql.status == 0, "\(sql.error)")
    #expect(sql.output.contains("INSERT INTO destination.\"ZAUTHOR\""), "\(sql.output)")
    #expect(sql.output.contains("INSERT INTO destination.\"MODELC_ASSOCIATION\""), "\(sql.output)")
    #expect(try Self.export(store, version: "Bookshelf") == before, "a dry run changed the store")

    let migrated = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--mappings", mappings])
    #expect(migrated.status == 0, "\(migrated.error)")
    #expect(migrated.output.contains("from 'Bookshelf' to 'Bookshelf 3'"), "\(migrated.output)")
    #expect(!migrated.error.contains("\u{1B}[2K"), "progress written to a pipe")
    let after = try Self.export(store, version: "Bookshelf 3")
    // Every author's name is now its full name, every tag's name its label in capitals.
    let old = try JSONSerialization.jsonObject(with: Data(before.utf8)) as? [String: Any]
    let new = try JSONSerialization.jsonObject(with: Data(after.utf8)) as? [String: Any]
    let oldNames = Self.values(old, entity: "Author", key: "name")
    #expect(!oldNames.isEmpty)
    #expect(Self.values(new, entity: "Author", key: "fullName") == oldNames)
    #expect(
      Self.values(new, entity: "Tag", key: "label")
        == Self.values(old, entity: "Tag", key: "name").map { $0.uppercased() }
    )
    #expect(Self.values(new, entity: "Book", key: "title") == Self.values(old, entity: "Book", key: "title"))
  }

  @Test("A mapping that names a policy class is refused before anything changes, naming the class")
  func refusesPolicies() throws {
    guard ModelcProcess.executable != nil else {
      print("skipped: \(ModelcProcess.absentReason)")
      return
    }
    let scratch = ScratchDirectory()
    let (store, mappings) = try Self.prepare(scratch)
    // Give the Book mapping a policy class, as Xcode writes it in the file.
    let file = mappings + "/BookshelfToBookshelf2.xcmappingmodel/xcmapping.xml"
    var xml = try String(contentsOfFile: file, encoding: .utf8)
    let book = #"<attribute name="sourcename" type="string">Book</attribute>"#
    guard let range = xml.range(of: book) else {
      Issue.record("the fixture does not map Book as expected")
      return
    }
    xml.replaceSubrange(
      range,
      with: book + #"<attribute name="migrationpolicyclassname" type="string">Shelf.BookPolicy</attribute>"#)
    try xml.write(toFile: file, atomically: true, encoding: .utf8)
    let before = try Data(contentsOf: URL(fileURLWithPath: store))
    let refused = try ModelcProcess.run(["migrate", store, "--model", Self.model, "--mappings", mappings])
    #expect(refused.status == 1)
    #expect(refused.error.contains("Shelf.BookPolicy"), "\(refused.error)")
    #expect(refused.error.contains("MigrationPolicies"), "\(refused.error)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
    let files = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path)
    #expect(!files.contains { $0.contains("modelc-migrating") || $0.contains("modelc-backup") }, "\(files)")
  }

  /// The values of one attribute of every object of an entity in an export, sorted.
  static func values(_ export: [String: Any]?, entity: String, key: String) -> [String] {
    guard let objects = export?[entity] as? [[String: Any]] else { return [] }
    return objects.compactMap { $0[key] as? String }.sorted()
  }
}
