import Foundation
import Migration
import Persistence
import SQLite
import TestSupport

/// Reading every stored value of a store, for comparing before and after a migration.
enum StoreSnapshot {
  /// entity name → primary key → attribute name → value, for every persistent attribute.
  typealias Values = [String: [Int64: [String: AttributeValue?]]]

  static func values(of url: URL, bundle: ModelBundle, version: String) throws -> Values {
    let container = try PersistentContainer(
      bundle: bundle, versionName: version,
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    let context = container.newContext()
    var result: Values = [:]
    for entity in container.model.entities where !entity.isAbstract {
      var request = FetchRequest<ManagedObject>(entityName: entity.name)
      request.includesSubentities = false
      for object in try context.fetch(request) {
        var row: [String: AttributeValue?] = [:]
        for attribute in object.layout.attributes where attribute.isPersistent {
          row[attribute.name] = try object.value(forKey: attribute.name)
        }
        result[entity.name, default: [:]][object.objectID.primaryKey ?? 0] = row
      }
    }
    return result
  }

  /// Links of every persistent relationship: entity → key → relationship → destination keys.
  static func links(of url: URL, bundle: ModelBundle, version: String) throws -> [String: [Int64: [String: [Int64]]]] {
    let container = try PersistentContainer(
      bundle: bundle, versionName: version,
      options: StoreOptions(location: .file(url), isReadOnly: true, createIfMissing: false))
    let context = container.newContext()
    var result: [String: [Int64: [String: [Int64]]]] = [:]
    for entity in container.model.entities where !entity.isAbstract {
      var request = FetchRequest<ManagedObject>(entityName: entity.name)
      request.includesSubentities = false
      for object in try context.fetch(request) {
        var row: [String: [Int64]] = [:]
        for item in object.layout.relationships where item.relationship.isPersistent {
          let name = item.relationship.name
          if item.relationship.isToMany {
            let keys = try object.objects(forKey: name).compactMap(\.objectID.primaryKey)
            row[name] = item.relationship.isOrdered ? keys : keys.sorted()
          } else {
            row[name] = try object.object(forKey: name).flatMap(\.objectID.primaryKey).map { [$0] } ?? []
          }
        }
        result[entity.name, default: [:]][object.objectID.primaryKey ?? 0] = row
      }
    }
    return result
  }

  /// Copies a corpus store with its -wal and -shm into a fresh temporary folder.
  static func copyCorpusStore(_ project: String, _ file: String) throws -> URL? {
    guard let source = TestPaths.corpusStore(project, file) else { return nil }
    let directory = TestPaths.temporaryDirectory("corpus-store")
    let destination = directory.appendingPathComponent(file)
    for suffix in ["", "-wal", "-shm"] {
      let from = URL(fileURLWithPath: source.path + suffix)
      guard FileManager.default.fileExists(atPath: from.path) else { continue }
      let to = URL(fileURLWithPath: destination.path + suffix)
      try FileManager.default.copyItem(at: from, to: to)
      try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: to.path)
    }
    return destination
  }

  /// Table name → [(column, declared type)] of every table but sqlite's own, via sqlite_master.
  static func tableShapes(of url: URL) throws -> [String: [String]] {
    let connection = try SQLiteConnection(.file(url.path), mode: .readOnly)
    defer { try? connection.close() }
    var shapes: [String: [String]] = [:]
    for table in try connection.tableNames() where !table.hasPrefix("sqlite_") && table != MigrationHistory.tableName {
      shapes[table] = try connection.columns(in: table).map { "\($0.name) \($0.declaredType)" }.sorted()
    }
    return shapes
  }
}
