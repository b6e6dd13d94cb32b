import Foundation
import SQLite

/// The stored column values of an object's externally storable attributes, read before a write
/// replaces or deletes its row.
struct StoredExternalValues {
  /// The row's `Z_OPT` when it was read.
  var version: Int64
  /// The column value of each externally storable attribute, by attribute slot.
  var values: [Int: SQLiteValue]
}

extension StoredValueCodec.Kind {
  /// Whether values of the attribute may live in a file of the store's `_EXTERNAL_DATA` folder:
  /// Binary attributes that allow external storage (Core Data keeps Transformable values in the
  /// row even with the flag).
  var storesExternally: Bool { type == .binary && allowsExternalStorage }
}

/// Writing values of Binary attributes that allow external storage (see
/// ``ExternalDataChanges`` for how files and rows stay consistent).
extension StoreConnection {
  /// The stored values of the externally storable attributes of these objects, read in the
  /// write's transaction; objects of entities without such attributes are skipped. Nothing is
  /// read for a store without a folder (in memory), whose values are all inline.
  func storedExternalValues(
    of objects: some Sequence<ManagedObject>, connection: SQLiteConnection
  ) throws -> [ObjectIdentifier: StoredExternalValues] {
    guard description.externalDataFolder != nil, description.storesExternally else { return [:] }
    var result: [ObjectIdentifier: StoredExternalValues] = [:]
    for object in objects {
      guard let key = object.objectID.primaryKey else { continue }
      let entity = object.layout.entity.index
      let columns = description.statements[entity].externalColumns
      guard !columns.isEmpty else { continue }
      let table = SQLiteIdentifier.quote(description.statements[entity].tableName)
      let list = columns.map { SQLiteIdentifier.quote($0.name) }.joined(separator: ", ")
      let sql = SQLiteSQL(verbatim: "SELECT Z_OPT, \(list) FROM \(table) WHERE Z_PK = ?", arguments: [.integer(key)])
      try connection.forEachRow(sql) { row in
        var values: [Int: SQLiteValue] = [:]
        for (index, column) in columns.enumerated() { values[column.slot] = row.value(at: index + 1) }
        result[ObjectIdentifier(object)] = StoredExternalValues(version: row.int64(at: 0), values: values)
      }
    }
    return result
  }

  /// The column value of an externally storable attribute of an object being written.
  ///
  /// An update whose value did not change keeps the file its row refers to (when the row is the
  /// version the object read); otherwise a long value gets a new file, and the file of the
  /// value it replaces is discarded.
  func externalColumnValue(
    of object: ManagedObject, slot: Int, files: inout ExternalDataChanges, previous: StoredExternalValues?
  ) throws -> SQLiteValue {
    let value = object.attributeValues[slot]
    let stored = previous?.values[slot]
    if let stored, let previous, previous.version == object.storedVersion,
      value == object.committedAttributeValue(at: slot), ExternalDataReference.fileName(in: stored) != nil
    {
      return stored
    }
    if let stored { files.discard(stored) }
    switch value {
    case nil: return .null
    case .binary(let data)?: return try files.columnValue(for: data)
    case let other?: return StoredValueCodec.encode(other, kind: StoredValueCodec.Kind(object.layout.attributes[slot]))
    }
  }
}

extension StoreConnection {
  /// The external-data files that the rows of these objects refer to, read in the caller's
  /// transaction — what a batch request that deletes the rows, or replaces the values of
  /// `attributeNames` (every externally storable attribute when nil), makes obsolete.
  func externalFileNames(
    of ids: [ObjectID], attributeNames: Set<String>? = nil, connection: SQLiteConnection
  ) throws -> [String] {
    guard description.externalDataFolder != nil else { return [] }
    var names: [String] = []
    let byEntity = Dictionary(grouping: ids.compactMap { id in id.primaryKey.map { (id.entity, $0) } }) { $0.0.index }
    for (entity, rows) in byEntity.sorted(by: { $0.key < $1.key }) {
      let statements = description.statements[entity]
      let columns = statements.mapping.attributes.filter { column in
        column.encoding == .externalBinary && attributeNames.map { $0.contains(column.name) } != false
      }
      guard !columns.isEmpty else { continue }
      let list = columns.map { SQLiteIdentifier.quote($0.column) }.joined(separator: ", ")
      let keys = rows.map(\.1)
      for start in stride(from: 0, to: keys.count, by: 500) {
        let chunk = keys[start..<min(start + 500, keys.count)]
        let sql = SQLiteSQL(
          verbatim:
            "SELECT \(list) FROM \(SQLiteIdentifier.quote(statements.tableName)) WHERE Z_PK IN (\(SQLiteSQL.placeholders(count: chunk.count)))",
          arguments: chunk.map { .integer($0) })
        try connection.forEachRow(sql) { row in
          for index in columns.indices {
            if let name = ExternalDataReference.fileName(in: row.value(at: index)) { names.append(name) }
          }
        }
      }
    }
    return names
  }
}
