import Foundation
import Migration
import Persistence
import SQLite
import TestSupport
import Testing

/// A migration verifies what Core Data's layout relies on and SQLite cannot check (no foreign keys
/// are declared): each damage below, made in a copy of a good store, refuses the migration with
/// the table and column named, and leaves the store as it was.
@Suite("Verifying a store's layout after a migration step")
struct LayoutVerificationTests {
  static func version(_ name: String, extra: String = "", entity: String = "") -> ModelVersion {
    let (version, diagnostics) = ModelReader.readVersion(
      xml: """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            \(entity)
            <entity name="Project" representedClassName="Project" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="project" inverseEntity="Task"/>
            </entity>
            <entity name="Tag" representedClassName="Tag" syncable="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="tasks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Task" inverseName="tags" inverseEntity="Task"/>
            </entity>
            <entity name="Task" representedClassName="Task" syncable="YES">
                <attribute name="title" attributeType="String"/>
                \(extra)
                <relationship name="project" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Project" inverseName="tasks" inverseEntity="Project"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="tasks" inverseEntity="Tag"/>
            </entity>
        </model>
        """, name: name)
    precondition(!diagnostics.containsErrors, "\(diagnostics)")
    return version!
  }

  static let bundle = ModelBundle(
    name: "Work",
    versions: [
      version("V1"),
      // A new first entity renumbers the others, so the step rewrites every table, and the
      // verification reads them all (a step that only adds columns in place reads nothing).
      version(
        "V2", extra: #"<attribute name="notes" optional="YES" attributeType="String"/>"#,
        entity:
          #"<entity name="Area" representedClassName="Area" syncable="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>"#
      ),
    ])

  /// A store at V1 with a project, two tags and two tasks linked to them.
  static func store() throws -> URL {
    let url = TestPaths.temporaryDirectory("layout-verification").appendingPathComponent("Work.sqlite")
    let container = try PersistentContainer(bundle: bundle, versionName: "V1", options: .file(url))
    let context = container.newContext()
    let project = try context.insert(entityNamed: "Project")
    try project.setValue(.string("Home"), forKey: "name")
    var tags: [ManagedObject] = []
    for name in ["red", "blue"] {
      let tag = try context.insert(entityNamed: "Tag")
      try tag.setValue(.string(name), forKey: "name")
      tags.append(tag)
    }
    for title in ["paint", "fix"] {
      let task = try context.insert(entityNamed: "Task")
      try task.setValue(.string(title), forKey: "title")
      try task.setObject(project, forKey: "project")
      for tag in tags { try task.addObject(tag, forKey: "tags") }
    }
    try context.save()
    return url
  }

  static func damage(_ url: URL, _ sql: String) throws {
    let connection = try SQLiteConnection(.file(url.path))
    defer { try? connection.close() }
    try connection.execute(SQLiteSQL(verbatim: sql))
  }

  /// Every table's rows, for comparing a store before and after a refused migration.
  static func contents(_ url: URL) throws -> [String] {
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    let tables = try connection.mapRows(
      SQLiteSQL(verbatim: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    ) { $0.text(at: 0) }
    var rows: [String] = []
    for table in tables {
      let columns = try connection.mapRows(
        SQLiteSQL(verbatim: "SELECT * FROM \(SQLiteIdentifier.quote(table)) ORDER BY 1")
      ) { row in (0..<row.columnCount).map { row.value(at: $0).sqlLiteral }.joined(separator: "|") }
      rows += columns.map { "\(table): \($0)" }
    }
    return rows
  }

  @Test("A sound store migrates")
  func soundStore() throws {
    let url = try Self.store()
    try StoreMigration(storeURL: url, bundle: Self.bundle).run(options: .init(keepsBackup: false))
    #expect(try StoreMigration(storeURL: url, bundle: Self.bundle).storeVersion().name == "V2")
  }

  @Test("A key counter below the table's highest key is found; a migration step rewrites the counters from the rows")
  func keyCounter() throws {
    let url = try Self.store()
    try Self.damage(url, "UPDATE Z_PRIMARYKEY SET Z_MAX = 1 WHERE Z_NAME = 'Task'")
    do {
      let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
      defer { try? connection.close() }
      let problems = try LayoutVerification.problems(
        of: StoreSchema(model: Self.bundle.version(named: "V1")!), on: connection)
      #expect(problems.count == 1)
      #expect(problems.first?.contains("Z_MAX of Task's entities is 1, below the highest Z_PK 2") == true)
    }
    try StoreMigration(storeURL: url, bundle: Self.bundle).run(options: .init(keepsBackup: false))
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    #expect(
      try LayoutVerification.problems(of: StoreSchema(model: Self.bundle.version(named: "V2")!), on: connection).isEmpty
    )
  }

  @Test(
    "A row of an entity its table does not hold, and a join row to a missing object, are found",
    arguments: [
      ("UPDATE ZTAG SET Z_ENT = 77 WHERE ZNAME = 'red'", "Z_ENT 77"),
      ("DELETE FROM ZTAG WHERE ZNAME = 'blue'", "join row"),
    ])
  func foundInPlace(_ sql: String, _ named: String) throws {
    // A step that rewrites these tables copies only the rows of known entities and the join rows
    // whose objects exist, so the damage is read here, as a step that leaves them in place does.
    let url = try Self.store()
    try Self.damage(url, sql)
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    let problems = try LayoutVerification.problems(
      of: StoreSchema(model: Self.bundle.version(named: "V1")!), on: connection)
    #expect(problems.count == 1)
    #expect(problems.first?.contains(named) == true, "\(problems)")
  }

  @Test(
    "Each damage refuses the migration, naming where it is, and changes nothing",
    arguments: [
      ("UPDATE ZTASK SET ZPROJECT = 999 WHERE ZTITLE = 'fix'", "ZTASK.ZPROJECT"),
      ("UPDATE ZTASK SET ZPROJECT = (SELECT Z_PK FROM ZTAG LIMIT 1) + 100", "ZTASK.ZPROJECT"),
    ])
  func damaged(_ sql: String, _ named: String) throws {
    let url = try Self.store()
    try Self.damage(url, sql)
    let before = try Self.contents(url)
    #expect {
      try StoreMigration(storeURL: url, bundle: Self.bundle).run(options: .init(keepsBackup: false))
    } throws: { error in
      error is MigrationVerificationError && "\(error)".contains(named)
    }
    #expect(try Self.contents(url) == before)
    #expect(try StoreMigration(storeURL: url, bundle: Self.bundle).storeVersion().name == "V1")
  }
}
