import DataModel
import Persistence
import TestSupport
import Testing

/// The layout of each corpus model version equals the schema Core Data wrote for it: the same
/// statements (tables, columns, types, order; index names, columns, uniqueness), in the same
/// order, and the same `Z_PRIMARYKEY` rows.
@Suite(
  "Layout equals real Core Data stores",
  .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
struct RealStoreLayoutTests {
  static let bookmarkStores = [
    ("Bookmarks_V1", "BookmarksModel"), ("Bookmarks_V2", "BookmarksModel 2"), ("Bookmarks_V3", "BookmarksModel 3"),
    ("Bookmarks_V4", "BookmarksModel 4"), ("Bookmarks_V5", "BookmarksModel 5"),
  ]

  static func schema(bundle: String, version: String) throws -> StoreSchema {
    let path = TestPaths.corpus!.appendingPathComponent("models").appendingPathComponent(bundle).path
    let model = try #require(try ModelBundle(contentsOf: path).version(named: version))
    return StoreSchema(model: model)
  }

  static func expectMatch(_ schema: StoreSchema, fixture name: String) throws {
    let fixture = try SchemaFixture(named: name)
    let generated = schema.createStatements()
    #expect(generated.map(SchemaFixture.normalized) == fixture.statements.map(SchemaFixture.normalized), "\(name)")
    #expect(generated.map(SchemaFixture.createdName) == fixture.statements.map(SchemaFixture.createdName), "\(name)")
    // Whitespace too: the generated text is Core Data's byte for byte.
    #expect(generated == fixture.statements, "\(name) byte for byte")
    let rows = schema.primaryKeyRows.map { "\($0.entityNumber)|\($0.name)|\($0.superEntityNumber)" }
    #expect(rows == fixture.primaryKeys.map { "\($0.number)|\($0.name)|\($0.superNumber)" }, "\(name)")
    #expect(schema.unsupportedIndexes.isEmpty)
  }

  @Test("LoopKit's Model version lays out as Model.sqlite.v1.original (framework 1048)")
  func loopKit() throws {
    let schema = try Self.schema(bundle: "LoopKit__LoopKit/Model.xcdatamodeld", version: "Model")
    try Self.expectMatch(schema, fixture: "LoopKit-Model")
  }

  @Test("Each Bookmarks version lays out as the store Core Data wrote for it", arguments: bookmarkStores)
  func bookmarks(store: String, version: String) throws {
    let schema = try Self.schema(bundle: "duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld", version: version)
    try Self.expectMatch(schema, fixture: store)
  }

  @Test("Bookmarks V4 maps favorites ⇄ favoriteFolders to Z_1FAVORITES as Core Data does")
  func bookmarksManyToMany() throws {
    let schema = try Self.schema(
      bundle: "duckduckgo__BrowserServicesKit/BookmarksModel.xcdatamodeld", version: "BookmarksModel 4")
    let entity = try #require(schema.mapping(forEntityNamed: "BookmarkEntity"))
    let favorites = try #require(entity.toMany(named: "favorites"))
    #expect(
      favorites.storage
        == .joinTable(
          .init(
            table: "Z_1FAVORITES", sourceColumn: "Z_1FAVORITEFOLDERS", destinationColumn: "Z_1FAVORITES",
            orderColumn: "Z_FOK_1FAVORITES")))
    let folders = try #require(entity.toMany(named: "favoriteFolders"))
    #expect(
      folders.storage
        == .joinTable(
          .init(
            table: "Z_1FAVORITES", sourceColumn: "Z_1FAVORITES", destinationColumn: "Z_1FAVORITEFOLDERS",
            orderColumn: nil)))
    let children = try #require(entity.toMany(named: "children"))
    #expect(
      children.storage
        == .inverseForeignKey(
          .init(
            table: "ZBOOKMARKENTITY", inverseName: "parent", foreignKeyColumn: "ZPARENT", entityColumn: nil,
            orderColumn: "Z_FOK_PARENT")))
    #expect(entity.toOne(named: "parent")?.orderColumn == "Z_FOK_PARENT")
  }
}
