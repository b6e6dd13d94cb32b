import Foundation
import Persistence
import SQLite
import TestSupport
import Testing

@Suite(
  "modelc store",
  .enabled(if: ModelcProcess.executable != nil, Comment(rawValue: ModelcProcess.absentReason)))
struct StoreCommandTests {
  let tasks = TestPaths.tasksModel.path
  let scratch = ScratchDirectory()

  func modelc(_ arguments: String...) throws -> ModelcProcess.Result {
    try ModelcProcess.run(arguments)
  }

  func json(_ text: String) throws -> JSONValue {
    try JSONParser.parse(text)
  }

  /// An export with the store's UUID taken out of every `_id`, to compare two stores.
  func normalizedExport(_ store: String, model: String? = nil) throws -> String {
    let result = try modelc("store", "export", store, "--model", model ?? tasks)
    #expect(result.status == 0, "\(result.error)")
    return result.output.replacingOccurrences(
      of: #"x-coredata://[0-9A-F-]+/"#, with: "x-coredata://STORE/", options: .regularExpression)
  }

  static let sample = """
    {
      "Project": [{"_id": "p", "name": "Home", "tasks": ["t1"]}],
      "Tag": [{"_id": "g", "name": "chores"}],
      "Task": [{"_id": "t1", "id": "8D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "Sweep \\"the\\" floor 🧹",
                "priority": 3, "dueDate": "2026-02-01T08:30:00.250Z", "project": "p", "tags": ["g"]}]
    }
    """

  @Test("create makes a store at the current or named version, and never overwrites one")
  func create() throws {
    let store = scratch.path("new.sqlite")
    let created = try modelc("store", "create", store, "--model", tasks)
    #expect(created.status == 0)
    #expect(created.output.hasPrefix("created \(store) at version 'Tasks 4' (4 entities, store UUID "))
    let info = try json(try modelc("store", "info", store, "--model", tasks, "--format", "json").output)
    #expect(info["version"] == .string("Tasks 4"))
    #expect(info["isCurrentVersion"] == .bool(true))
    let bytes = FileManager.default.contents(atPath: store)

    let again = try modelc("store", "create", store, "--model", tasks)
    #expect(again.status == 1)
    #expect(
      again.error.hasPrefix(
        "modelc store create: error: '\(store)' already exists; 'modelc store create' never overwrites a store"))
    #expect(FileManager.default.contents(atPath: store) == bytes)

    let old = scratch.path("old.sqlite")
    #expect(try modelc("store", "create", old, "--model", tasks, "--version", "Tasks").status == 0)
    #expect(
      try modelc("store", "info", old, "--model", tasks).output.contains(
        "version: Tasks (the current version is Tasks 4)"))

    let unknown = try modelc("store", "create", scratch.path("x.sqlite"), "--model", tasks, "--version", "Tasks 9")
    #expect(unknown.status == 1)
    #expect(unknown.error.contains("the model has no version 'Tasks 9'"))
    #expect(unknown.error.contains("note: its versions are: Tasks, Tasks 2, Tasks 3, Tasks 4"))
    #expect(!FileManager.default.fileExists(atPath: scratch.path("x.sqlite")))
    #expect(try modelc("store", "create", scratch.path("y.sqlite")).status == 2)
    #expect(try modelc("store", "frobnicate").status == 2)
  }

  @Test("import and export carry externally stored binary values and composite attributes")
  func externalDataAndComposites() throws {
    let model = TestPaths.fixtures.appendingPathComponent("models/Media.xcdatamodel").path
    let store = scratch.path("Media.sqlite")
    #expect(try modelc("store", "create", store, "--model", model).status == 0)
    // 200,000 bytes go to a file of the store's _EXTERNAL_DATA folder; 10 stay in the row.
    let large = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    let sample = """
      {"Photo": [
        {"_id": "a", "title": "Large", "image": "\(large.base64EncodedString())",
         "place": {"name": "Quay", "position": {"latitude": 48.5, "longitude": -2.25}}},
        {"_id": "b", "title": "Small", "image": "AAECAwQFBgcICQ==", "place": null}
      ]}
      """
    let imported = try modelc("store", "import", store, "--model", model, try scratch.write("media.json", sample))
    #expect(imported.status == 0, "\(imported.error)")
    let folder = ExternalDataFolder(storeAt: URL(fileURLWithPath: store))
    #expect(folder.fileNames().count == 1)

    let exported = try json(try modelc("store", "export", store, "--model", model).output)
    let photos = try #require(exported["Photo"]?.arrayValue)
    #expect(photos.first?["image"] == .string(large.base64EncodedString()))
    #expect(
      photos.first.map { JSONWriter.compact($0["place"] ?? .null) }
        == #"{"name":"Quay","position":{"latitude":48.5,"longitude":-2.25}}"#)
    #expect(photos.last?["image"] == .string("AAECAwQFBgcICQ=="))
    #expect(photos.last?["place"] == .null)

    // Into another store and out again: the same document.
    let copy = scratch.path("Copy.sqlite")
    #expect(try modelc("store", "create", copy, "--model", model).status == 0)
    let exportFile = try scratch.write(
      "media-export.json", try modelc("store", "export", store, "--model", model).output)
    #expect(try modelc("store", "import", copy, "--model", model, exportFile).status == 0)
    #expect(try normalizedExport(copy, model: model) == (try normalizedExport(store, model: model)))
    #expect(ExternalDataFolder(storeAt: URL(fileURLWithPath: copy)).fileNames().count == 1)
  }

  @Test("import then export gives the objects back with identities in Core Data's URI form")
  func importExport() throws {
    let store = scratch.path("tasks.sqlite")
    #expect(try modelc("store", "create", store, "--model", tasks).status == 0)
    let file = try scratch.write("sample.json", Self.sample)
    let imported = try modelc("store", "import", store, "--model", tasks, file)
    #expect(imported.status == 0, "\(imported.error)")
    #expect(imported.output == "imported 3 objects into \(store) (Project 1, Tag 1, Task 1)\n")

    let uuid = try #require(
      try json(try modelc("store", "info", store, "--model", tasks, "--format", "json").output)["storeUUID"]?
        .stringValue)
    let exported = try json(try modelc("store", "export", store, "--model", tasks).output)
    let task = try #require(exported["Task"]?.arrayValue?.first)
    #expect(task["_id"] == .string("x-coredata://\(uuid)/Task/p1"))
    #expect(task["title"] == .string("Sweep \"the\" floor 🧹"))
    #expect(task["priority"] == .number("3"))
    #expect(task["completedAt"] == .null)
    #expect(task["dueDate"] == .string("2026-02-01T08:30:00.250Z"))
    #expect(task["notes"] == .array([]))
    #expect(task["project"] == .string("x-coredata://\(uuid)/Project/p1"))
    #expect(task["tags"] == .array([.string("x-coredata://\(uuid)/Tag/p1")]))
    #expect(exported.objectValue?.map(\.key) == ["Note", "Project", "Tag", "Task"])
    #expect(exported["Note"] == .array([]))

    let onlyTags = try json(try modelc("store", "export", store, "--model", tasks, "--entity", "Tag").output)
    #expect(onlyTags.objectValue?.map(\.key) == ["Tag"])
    let unknown = try modelc("store", "export", store, "--model", tasks, "--entity", "Tagz")
    #expect(unknown.status == 1)
    #expect(unknown.error.contains("the model has no entity 'Tagz'; did you mean 'Tag'?"))

    // The export imports into another store and exports the same.
    let copy = scratch.path("copy.sqlite")
    #expect(try modelc("store", "create", copy, "--model", tasks).status == 0)
    let exportFile = try scratch.write("export.json", try modelc("store", "export", store, "--model", tasks).output)
    #expect(try modelc("store", "import", copy, "--model", tasks, exportFile).status == 0)
    #expect(try normalizedExport(copy) == (try normalizedExport(store)))
  }

  @Test("A refused import lists every problem with entity, _id and property, and changes nothing")
  func refusedImport() throws {
    let store = scratch.path("tasks.sqlite")
    #expect(try modelc("store", "create", store, "--model", tasks).status == 0)
    #expect(
      try modelc("store", "import", store, "--model", tasks, try scratch.write("ok.json", Self.sample)).status == 0)
    let before = try normalizedExport(store)
    let bad = try scratch.write(
      "bad.json",
      """
      {"Task": [
        {"_id": "a", "id": "1D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "A", "priority": 40000},
        {"_id": "b", "id": "2D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": 5, "colour": "red"},
        {"_id": "c", "id": "8D2B0A4E-6C1A-4E43-9F6B-8D5C0F2A1B3C", "title": "Dup of the stored id"}
      ],
       "Tag": [{"_id": "g", "name": "chores"}]}
      """)
    let result = try modelc("store", "import", store, "--model", tasks, bad)
    #expect(result.status == 1)
    let lines = result.error.split(separator: "\n").map(String.init)
    #expect(
      lines.first
        == "modelc store import: error: the import of '\(bad)' was refused (5 problems); the store is unchanged")
    #expect(lines.contains("  Task _id \"a\", property 'priority': 40000 overflows Integer 16 (-32768…32767)"))
    #expect(
      lines.contains("  Task _id \"b\", property 'title': expected a string for this String attribute, found a number"))
    #expect(
      lines.contains("  Task _id \"b\", property 'colour': entity 'Task' has no attribute or relationship 'colour'"))
    // The model's rules are checked in the same run: uniqueness against the store.
    #expect(lines.contains { $0.hasPrefix("  Tag _id \"g\", property 'name': must be unique; the store already has") })
    #expect(lines.contains { $0.hasPrefix("  Task _id \"c\", property 'id': must be unique; the store already has") })
    #expect(lines.count == 6, "\(result.error)")
    #expect(try normalizedExport(store) == before)

    // A file without problems of its own is still refused by the model's rules.
    let clash = try scratch.write("clash.json", #"{"Tag": [{"_id": "g", "name": "chores"}]}"#)
    let refused = try modelc("store", "import", store, "--model", tasks, clash)
    #expect(refused.status == 1)
    #expect(
      refused.error.contains(
        "  Tag _id \"g\", property 'name': must be unique; the store already has an object with this value"))
    #expect(try normalizedExport(store) == before)
    #expect(try modelc("store", "import", scratch.path("none.sqlite"), "--model", tasks, clash).status == 1)
  }

  @Test("A store naming its join table's columns otherwise still exports; info lists the difference")
  func storeOwnNames() throws {
    // A messenger's store, written by Core Data, numbered a join column modelc did not number
    // (Z_23USERS1), and `store export` failed with "no such column: j.Z_23USERS". Here the
    // Tasks store's tags join table gets such a name.
    let store = scratch.path("renamed.sqlite")
    #expect(try modelc("store", "seed", store, "--model", tasks, "--rows", "3").status == 0)
    let before = try normalizedExport(store)
    let bundle = try ModelBundle(contentsOf: tasks)
    let join = try #require(StoreSchema(model: bundle.currentVersion).joinTables.first)
    let connection = try SQLiteConnection(.file(store), mode: .readWrite)
    try connection.execute(
      SQLiteSQL(
        verbatim: "ALTER TABLE \(join.name) RENAME COLUMN \(join.destinationColumn) TO \(join.destinationColumn)1"))
    #expect(try normalizedExport(store) == before)
    let info = try modelc("store", "info", store, "--model", tasks)
    #expect(info.status == 0)
    #expect(
      info.output.contains(
        "layout: 1 difference from the layout derived from the model\n  column \(join.destinationColumn) of \(join.name)"
      ),
      "\(info.output)")
    #expect(info.output.contains("is \(join.destinationColumn)1 in the store; the store's name is used"))
  }

  @Test("info shows version, framework, counts per entity and history; a foreign store is refused")
  func info() throws {
    let store = scratch.path("tasks.sqlite")
    #expect(try modelc("store", "seed", store, "--model", tasks, "--rows", "4").status == 0)
    let text = try modelc("store", "info", store, "--model", tasks)
    #expect(text.status == 0)
    let lines = text.output.split(separator: "\n").map(String.init)
    #expect(lines[0] == "store: \(store)")
    #expect(lines[1] == "version: Tasks 4 (the current version)")
    #expect(lines[2] == "written by: Core Data framework version 1333 (NSPersistenceFrameworkVersion)")
    #expect(lines[3].hasPrefix("store UUID: "))
    #expect(
      Array(lines[4...9]) == [
        "objects:", "  Note     4", "  Project  4", "  Tag      4", "  Task     4", "  total    16",
      ])
    #expect(Array(lines.suffix(2)) == ["migration history: none", "layout: as derived from the model"])

    let other = try scratch.model(
      "Other",
      #"<entity name="Thing" representedClassName="Thing"><attribute name="x" optional="YES" attributeType="String"/></entity>"#
    )
    let foreign = try modelc("store", "info", store, "--model", other)
    #expect(foreign.status == 1)
    #expect(foreign.error.contains("error: the store's version hashes match no version of the model 'Other'"))
    #expect(try modelc("store", "export", store, "--model", other).status == 1)
    #expect(try modelc("store", "info", scratch.path("missing.sqlite"), "--model", tasks).error.contains("no store at"))
  }

  @Test("seed: the same seed gives the same store; errors name the entity and attribute")
  func seed() throws {
    let first = scratch.path("a.sqlite")
    let second = scratch.path("b.sqlite")
    let third = scratch.path("c.sqlite")
    let seeded = try modelc("store", "seed", first, "--model", tasks, "--rows", "25", "--seed", "5")
    #expect(
      seeded.output
        == "seeded \(first) at version 'Tasks 4' with seed 5: 100 objects (Note 25, Project 25, Tag 25, Task 25)\n")
    #expect(try modelc("store", "seed", second, "--model", tasks, "--rows", "25", "--seed", "5").status == 0)
    #expect(try modelc("store", "seed", third, "--model", tasks, "--rows", "25", "--seed", "6").status == 0)
    #expect(try normalizedExport(first) == (try normalizedExport(second)))
    #expect(try normalizedExport(first) != (try normalizedExport(third)))
    #expect(try modelc("store", "seed", first, "--model", tasks, "--rows", "5", "--seed", "5").status == 0)
    let info = try json(try modelc("store", "info", first, "--model", tasks, "--format", "json").output)
    #expect(info["objects"]?["Task"] == .number("30"))

    let pattern = try scratch.model(
      "Pattern",
      #"<entity name="Code" representedClassName="Code"><attribute name="value" attributeType="String" regularExpressionString="(?=x)x"/></entity>"#
    )
    let refused = try modelc("store", "seed", scratch.path("p.sqlite"), "--model", pattern)
    #expect(refused.status == 1)
    #expect(refused.error.contains("Code.value: cannot generate strings matching the pattern (?=x)x"))
    #expect(try modelc("store", "seed", first, "--model", tasks, "--rows", "-1").status == 2)
    #expect(try modelc("store", "seed", first, "--model", tasks, "--seed", "x").status == 2)
  }

  @Test("Two processes writing one store at once: both commits land, and the store is sound")
  func twoProcesses() throws {
    let store = scratch.path("shared.sqlite")
    #expect(try modelc("store", "create", store, "--model", tasks).status == 0)
    func file(_ prefix: String) throws -> String {
      let tags = (0..<300).map { #"{"_id": "\#(prefix)\#($0)", "name": "\#(prefix)-\#($0)"}"# }
      return try scratch.write("\(prefix).json", #"{"Tag": [\#(tags.joined(separator: ","))]}"#)
    }
    let a = try ModelcProcess.start(["store", "import", store, "--model", tasks, try file("a")])
    let b = try ModelcProcess.start(["store", "import", store, "--model", tasks, try file("b")])
    let resultA = try ProcessRun.finish(a)
    let resultB = try ProcessRun.finish(b)
    #expect(resultA.status == 0, "\(resultA.error)")
    #expect(resultB.status == 0, "\(resultB.error)")

    let free = try scratch.model(
      "Free",
      """
      <entity name="Note" representedClassName="Note">
        <attribute name="text" attributeType="String"/>
        <attribute name="at" attributeType="Date"/>
        <relationship name="folder" optional="YES" maxCount="1" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
      </entity>
      <entity name="Folder" representedClassName="Folder">
        <attribute name="name" attributeType="String"/>
        <relationship name="notes" optional="YES" toMany="YES" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
      </entity>
      """)
    let notes = scratch.path("notes.sqlite")
    #expect(try modelc("store", "create", notes, "--model", free).status == 0)
    let seeds = try (1...3).map {
      try ModelcProcess.start(
        ["store", "seed", notes, "--model", free, "--rows", "400", "--seed", "\($0)"])
    }
    for started in seeds {
      let result = try ProcessRun.finish(started)
      #expect(result.status == 0, "\(result.error)")
    }

    for (path, table, count) in [(store, "ZTAG", 600), (notes, "ZNOTE", 1200), (notes, "ZFOLDER", 1200)] {
      let connection = try SQLiteConnection(.file(path), mode: .readOnly)
      defer { try? connection.close() }
      #expect(try connection.integrityCheck() == ["ok"])
      #expect(try connection.firstRow(SQLiteSQL(verbatim: "SELECT COUNT(*) FROM \(table)")) { $0.int(at: 0) } == count)
      #expect(
        try connection.firstRow(SQLiteSQL(verbatim: "SELECT COUNT(DISTINCT Z_PK) FROM \(table)")) { $0.int(at: 0) }
          == count)
    }
  }

  @Test(
    "info names the version of the stores Core Data wrote, and export gives every object",
    .enabled(if: TestPaths.corpus != nil, Comment(rawValue: TestPaths.corpusAbsentReason)),
    arguments: [
      ("LoopKit__LoopKit", "Model.sqlite.v1.original", "Model.xcdatamodeld", "Model", 1048),
      ("duckduckgo__BrowserServicesKit", "Bookmarks_V1.sqlite", "BookmarksModel.xcdatamodeld", "BookmarksModel", 1251),
      (
        "duckduckgo__BrowserServicesKit", "Bookmarks_V4.sqlite", "BookmarksModel.xcdatamodeld", "BookmarksModel 4", 1333
      ),
      (
        "duckduckgo__BrowserServicesKit", "Bookmarks_V5.sqlite", "BookmarksModel.xcdatamodeld", "BookmarksModel 5", 1251
      ),
    ])
  func coreDataStores(project: String, file: String, bundle: String, version: String, framework: Int) throws {
    let store = try #require(try TestPaths.copyOfCorpusStore(project, file, into: scratch.url)).path
    let model = try #require(TestPaths.corpusModel(project, bundle)).path
    let info = try modelc("store", "info", store, "--model", model, "--format", "json")
    #expect(info.status == 0, "\(info.error)")
    let details = try json(info.output)
    #expect(details["version"] == .string(version))
    #expect(details["frameworkVersion"] == .number("\(framework)"))
    #expect(details["history"] == .array([]))
    let export = try modelc("store", "export", store, "--model", model)
    #expect(export.status == 0, "\(export.error)")
    let document = try json(export.output)
    for (entity, count) in details["objects"]?.objectValue ?? [] {
      #expect(
        document[entity]?.arrayValue.map { JSONValue.integer($0.count) } ?? .integer(0) == count, "\(file) \(entity)")
    }
    #expect(
      try modelc("store", "info", store, "--model", model).output.contains(
        "version: \(version) (the current version is "))
  }
}
