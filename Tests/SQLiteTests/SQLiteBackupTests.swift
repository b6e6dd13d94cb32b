import Foundation
import TestSupport
import Testing

@testable import SQLite

/// Online backup and `VACUUM INTO` produce identical databases.
@Suite struct SQLiteBackupTests {
  private func populate(_ db: SQLiteConnection) throws {
    try db.execute(
      """
      CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, payload BLOB);
      CREATE INDEX item_name ON item (name);
      """)
    try db.transaction(.immediate) {
      let insert = try db.prepare("INSERT INTO item (name, payload) VALUES (?, ?)")
      for index in 0..<2_000 {
        try insert.execute([.text("item \(index)"), .blob(Array(repeating: UInt8(index % 256), count: 100))])
      }
    }
    try db.setUserVersion(42)
  }

  private func dump(_ db: SQLiteConnection) throws -> [[SQLiteValue]] {
    let schema = try db.mapRows("SELECT type, name, sql FROM sqlite_schema ORDER BY name") { $0.rowValues }
    let rows = try db.mapRows("SELECT * FROM item ORDER BY id") { $0.rowValues }
    return schema + rows + [[.integer(Int64(try db.userVersion()))]]
  }

  @Test func backupProducesAnIdenticalDatabase() throws {
    let directory = try TemporaryDirectory()
    let source = try SQLiteConnection(path: directory.path("source.sqlite"))
    try populate(source)
    let destination = try SQLiteConnection(path: directory.path("copy.sqlite"))
    try destination.execute("CREATE TABLE replaced (x)")
    var reports: [(Int, Int)] = []
    try source.backup(to: destination, pagesPerStep: 5) { reports.append(($0, $1)) }
    #expect(try dump(destination) == dump(source))
    #expect(try destination.integrityCheck() == ["ok"])
    #expect(reports.count > 1)
    #expect(reports.last?.0 == 0)
    #expect(!(try destination.tableExists("replaced")))
  }

  @Test func backupToMemoryAndBack() throws {
    let source = try SQLiteConnection()
    try populate(source)
    let memory = try SQLiteConnection()
    try source.backup(to: memory)
    #expect(try dump(memory) == dump(source))
  }

  @Test func vacuumIntoWritesACompactedCopy() throws {
    let directory = try TemporaryDirectory()
    let source = try SQLiteConnection(path: directory.path("source.sqlite"))
    try populate(source)
    try source.execute("DELETE FROM item WHERE id % 2 = 0")
    let path = directory.path("it's a copy.sqlite")
    try source.vacuum(into: path)
    let copy = try SQLiteConnection(path: path, mode: .readOnly)
    #expect(try dump(copy) == dump(source))
    let sourceSize = try FileManager.default.attributesOfItem(atPath: directory.path("source.sqlite"))[.size] as? Int
    let copySize = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
    #expect(copySize ?? .max < sourceSize ?? 0)
  }
}
