import DataModel
import Foundation
import Migration
import TestSupport
import Testing

@Suite("Migrating stores written by Core Data")
struct CoreDataStoreMigrationTests {
  static let project = "duckduckgo__BrowserServicesKit"

  @Test(
    "Bookmarks V1 migrates to each later version: Core Data's tables and columns, every value kept",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)),
    arguments: [2, 3, 4, 5])
  func bookmarks(target: Int) throws {
    let bundle = try ModelBundle(
      contentsOf: TestPaths.corpus!.appendingPathComponent("models/\(Self.project)/BookmarksModel.xcdatamodeld").path)
    let store = try #require(try StoreSnapshot.copyCorpusStore(Self.project, "Bookmarks_V1.sqlite"))
    let targetName = "BookmarksModel \(target)"
    let before = try StoreSnapshot.values(of: store, bundle: bundle, version: "BookmarksModel")
    let linksBefore = try StoreSnapshot.links(of: store, bundle: bundle, version: "BookmarksModel")
    let migration = StoreMigration(storeURL: store, bundle: bundle)
    #expect(try migration.storeVersion().name == "BookmarksModel")
    try migration.run(to: bundle.version(named: targetName), options: .init(keepsBackup: false))
    #expect(try migration.storeVersion().name == targetName)

    // Same tables and columns as Core Data's own store of that version.
    let reference = try #require(try StoreSnapshot.copyCorpusStore(Self.project, "Bookmarks_V\(target).sqlite"))
    #expect(try StoreSnapshot.tableShapes(of: store) == StoreSnapshot.tableShapes(of: reference))

    // Every shared attribute keeps its value, object by object.
    let after = try StoreSnapshot.values(of: store, bundle: bundle, version: targetName)
    #expect(after.keys == before.keys)
    for (entity, rows) in before {
      #expect(after[entity]?.count == rows.count, "\(entity) count")
      for (key, values) in rows {
        let migrated = try #require(after[entity]?[key], "\(entity) \(key) missing")
        for (name, value) in values where migrated.keys.contains(name) {
          #expect(migrated[name] == value, "\(entity) \(key).\(name)")
        }
      }
    }
    // Parent/child links survive (the relationship exists in every version).
    let linksAfter = try StoreSnapshot.links(of: store, bundle: bundle, version: targetName)
    for (key, links) in linksBefore["BookmarkEntity"] ?? [:] {
      #expect(linksAfter["BookmarkEntity"]?[key]?["parent"] == links["parent"], "parent of \(key)")
      #expect(linksAfter["BookmarkEntity"]?[key]?["children"] == links["children"], "children of \(key)")
      // Favorites keep their order, whether stored through the inverse key (V1-V3) or the join
      // table of the many-to-many favorites ⇄ favoriteFolders (V4, V5).
      #expect(linksAfter["BookmarkEntity"]?[key]?["favorites"] == links["favorites"], "favorites of \(key)")
      let folders =
        linksAfter["BookmarkEntity"]?[key]?["favoriteFolders"] ?? linksAfter["BookmarkEntity"]?[key]?["favoriteFolder"]
      #expect(folders == links["favoriteFolder"], "favorite folders of \(key)")
    }
    #expect(linksBefore["BookmarkEntity"]?.values.contains { !($0["favorites"] ?? []).isEmpty } == true)
  }
}
