import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

/// The stores Core Data wrote (LoopKit, framework 1048; Bookmarks V1–V5, 1251 and 1333) open
/// read-only at the version their hashes match, give back every object with its values, and
/// have the layout a store created here for the same version has.
@Suite(
  "Real Core Data stores",
  .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)))
struct RealStoreTests {
  struct Case: CustomStringConvertible, Sendable {
    var project: String
    var file: String
    var bundle: String
    var version: String
    var description: String { file }
  }

  static let cases =
    [
      Case(
        project: "LoopKit__LoopKit", file: "Model.sqlite.v1.original", bundle: "Model.xcdatamodeld", version: "Model")
    ]
    + (1...5).map {
      Case(
        project: "duckduckgo__BrowserServicesKit", file: "Bookmarks_V\($0).sqlite",
        bundle: "BookmarksModel.xcdatamodeld",
        version: $0 == 1 ? "BookmarksModel" : "BookmarksModel \($0)")
    }

  static func bundle(_ item: Case) throws -> ModelBundle {
    try ModelBundle(contentsOf: try #require(TestPaths.corpusModel(item.project, item.bundle)).path)
  }

  /// The database file and its write-ahead log. SQLite creates an empty `-wal` (and `-shm`)
  /// beside a WAL-mode store even for a read-only connection, so a missing log counts as empty.
  static func readBytes(_ url: URL) -> [Data] {
    ["", "-wal"].map { FileManager.default.contents(atPath: url.path + $0) ?? Data() }
  }

  @Test("Opens read-only at the version its hashes match; the export has every object and value", arguments: cases)
  func export(_ item: Case) throws {
    let directory = try TemporaryDirectory()
    let url = try #require(try TestPaths.copyOfCorpusStore(item.project, item.file, into: directory.url))
    let bytes = Self.readBytes(url)
    let bundle = try Self.bundle(item)
    let metadata = try StoreMetadata.read(fromStoreAt: url)
    let version = try #require(metadata.matchingVersion(in: bundle))
    #expect(version.name == item.version)
    let container = try PersistentContainer(
      bundle: bundle, versionName: version.name,
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    #expect(container.storeUUID == metadata.storeUUID)
    // Core Data's tables and columns are exactly the derived ones: nothing adopted or reported.
    #expect(container.layoutDifferences.isEmpty, "\(container.layoutDifferences)")
    let context = container.newContext()
    let document = try StoreExport.json(of: context)
    #expect(context.lastAccessError == nil)

    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    let schema = StoreSchema(model: version)
    // Core Data wrote each table with the text modelc writes: the open knows the layout from the
    // tables' text, and reading every table's columns finds the same.
    #expect(schema.isLaidOutAsDerived(tableStatements: try connection.tableStatements()))
    #expect(schema.adopting(existingTables: try connection.columnNamesByTable()).differences.isEmpty)
    var total = 0
    for mapping in schema.entities where !mapping.isAbstract {
      let objects = try #require(document[mapping.name]?.arrayValue, "\(mapping.name) is missing")
      let rows = try connection.firstRow(
        "SELECT COUNT(*) FROM \(identifier: mapping.tableName) WHERE Z_ENT = \(mapping.entityNumber)"
      ) { $0.int(at: 0) }
      #expect(objects.count == rows, "\(mapping.name)")
      total += objects.count
      // Every stored value came back: null exactly where the column is NULL.
      for object in objects {
        let id = try #require(object["_id"]?.stringValue.flatMap(ObjectJSON.parseIdentifier))
        #expect(id.storeUUID == metadata.storeUUID && id.entityName == mapping.name)
        for column in mapping.attributes {
          let isNull = try connection.firstRow(
            "SELECT \(identifier: column.column) IS NULL FROM \(identifier: mapping.tableName) WHERE Z_PK = \(id.primaryKey)"
          ) { $0.bool(at: 0) }
          #expect((object[column.name] == .null) == isNull, "\(mapping.name).\(column.name) of p\(id.primaryKey)")
        }
      }
    }
    #expect(total > 0)
    // Nothing was written.
    #expect(Self.readBytes(url) == bytes)
  }

  @Test(
    "A store created here for the same version has the same tables, columns, indexes and Z_PRIMARYKEY", arguments: cases
  )
  func sameLayout(_ item: Case) throws {
    let directory = try TemporaryDirectory()
    let real = try #require(try TestPaths.copyOfCorpusStore(item.project, item.file, into: directory.url))
    let created = directory.url.appendingPathComponent("created.sqlite")
    _ = try PersistentContainer(bundle: try Self.bundle(item), versionName: item.version, options: .file(created))
    let expected = try Layout(real)
    let actual = try Layout(created)
    #expect(actual.objects == expected.objects)
    for (table, columns) in expected.columns {
      #expect(actual.columns[table] == columns, "columns of \(table)")
    }
    #expect(actual.columns.keys.sorted() == expected.columns.keys.sorted())
    #expect(actual.indexes == expected.indexes)
    #expect(actual.primaryKeys == expected.primaryKeys)
  }

  /// A store's layout read live from `sqlite_master` and the table and index pragmas.
  struct Layout {
    /// `type name on table`, in creation order.
    var objects: [String] = []
    /// Per table: `name type notnull pk` per column, in order.
    var columns: [String: [String]] = [:]
    /// Per index: `table unique: columns`.
    var indexes: [String: String] = [:]
    /// `Z_ENT|Z_NAME|Z_SUPER`.
    var primaryKeys: [String] = []

    init(_ url: URL) throws {
      let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
      defer { try? connection.close() }
      try connection.forEachRow("SELECT type, name, tbl_name FROM sqlite_master ORDER BY rowid") {
        objects.append("\($0.text(at: 0)) \($0.text(at: 1)) on \($0.text(at: 2))")
      }
      for table in try connection.tableNames() {
        columns[table] = try connection.columns(in: table).map {
          "\($0.name) \($0.declaredType) \($0.isNotNull) \($0.primaryKeyPosition)"
        }
        for index in try connection.indexes(on: table) {
          indexes[index.name] = "\(table) \(index.isUnique): \(index.columns.map { $0 ?? "<expression>" })"
        }
      }
      try connection.forEachRow("SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
        primaryKeys.append("\($0.int(at: 0))|\($0.text(at: 1))|\($0.int(at: 2))")
      }
    }
  }
}
