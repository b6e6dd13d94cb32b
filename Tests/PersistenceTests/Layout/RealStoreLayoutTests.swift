import DataModel
import Persistence
import TestSupport
import Testing

/// The layout modelc derives equals the schema Core Data wrote: the same statements (tables,
/// columns, types, order; index names, columns, uniqueness), in the same order, byte for byte,
/// and the same `Z_PRIMARYKEY` rows.
///
/// Everything these tests read is in `Tests/Fixtures`, so they run in a fresh clone. The
/// schemas (`stores/*.schema.sql`, `*.primarykey.txt`) were extracted from stores Core Data wrote
/// for two corpus projects; the models are this repository's own, written by hand to have the
/// shape that decides a layout — entity names, attribute names and types, relationships with their
/// inverses, cardinality and ordering, fetch indexes and uniqueness constraints — and nothing
/// else (no class names, no defaults, no optionality, no version hash modifiers):
///
/// - `models/BookmarkShape.xcdatamodeld`, five versions of one self-referencing `BookmarkEntity`:
///   `Bookmarks 1` (two Booleans, three strings; `children`/`parent` ordered one-to-many,
///   `favorites`/`favoriteFolder` ordered one-to-many), `Bookmarks 2` (+ single-element fetch
///   indexes `byUUID`, `byURL`), `Bookmarks 3` (`isFavorite` gone; `isPendingDeletion`, a date
///   `modifiedAt`; two-element fetch indexes and `byIsPendingDeletion`), `Bookmarks 4`
///   (`favoriteFolder` becomes the to-many `favoriteFolders`: a many-to-many with an ordered side,
///   so a join table), `Bookmarks 5` (+ one string).
/// - `models/DoseLogShape.xcdatamodel`, six unrelated entities with every scalar type Core Data
///   maps to INTEGER, FLOAT, TIMESTAMP, VARCHAR and BLOB, ascending and descending
///   single-element fetch indexes (some of which also make `Z_<Entity>_<property>` indexes), a
///   two-element index, and single-property uniqueness constraints.
@Suite("Layout equals real Core Data stores")
struct RealStoreLayoutTests {
  static let bookmarkStores = [
    ("Bookmarks_V1", "Bookmarks 1"), ("Bookmarks_V2", "Bookmarks 2"), ("Bookmarks_V3", "Bookmarks 3"),
    ("Bookmarks_V4", "Bookmarks 4"), ("Bookmarks_V5", "Bookmarks 5"),
  ]

  static func schema(fixture bundle: String, version: String) throws -> StoreSchema {
    let path = TestPaths.fixtures.appendingPathComponent("models").appendingPathComponent(bundle).path
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

  @Test("Six entities with fetch indexes and uniqueness constraints lay out as LoopKit's Model.sqlite (framework 1048)")
  func loopKit() throws {
    let schema = try Self.schema(fixture: "DoseLogShape.xcdatamodel", version: "DoseLogShape")
    try Self.expectMatch(schema, fixture: "LoopKit-Model")
  }

  @Test("Each Bookmarks version lays out as the store Core Data wrote for it", arguments: bookmarkStores)
  func bookmarks(store: String, version: String) throws {
    let schema = try Self.schema(fixture: "BookmarkShape.xcdatamodeld", version: version)
    try Self.expectMatch(schema, fixture: store)
  }

  @Test("Bookmarks V4 maps favorites ⇄ favoriteFolders to Z_1FAVORITES as Core Data does")
  func bookmarksManyToMany() throws {
    let schema = try Self.schema(fixture: "BookmarkShape.xcdatamodeld", version: "Bookmarks 4")
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
