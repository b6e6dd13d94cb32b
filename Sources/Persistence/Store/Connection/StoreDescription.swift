import Foundation
import SQLite

/// Everything about one store that all its connections share: the model version, its layout in
/// Core Data's schema, object layouts (compiled once per version: ``CompiledModel``), and where
/// the store lives.
final class StoreDescription: Sendable {
  let model: ModelVersion
  let schema: StoreSchema
  let layouts: ObjectLayouts
  let options: StoreOptions
  /// The SQLite location every connection opens.
  let location: SQLiteConnection.Location
  /// For in-memory stores, the connection that keeps the shared database alive.
  private let keepAlive: KeepAliveConnection?
  /// Per-entity SQL prepared once.
  let statements: [EntityStatements]
  /// Whether an entity has an attribute whose values may be stored in files: a save of a model
  /// without one reads nothing for them.
  let storesExternally: Bool
  /// The entity of each `Z_ENT` value, indexed by the number (cheaper per row than a mapping).
  private let entitiesByNumber: [EntityID?]
  /// The model's entity version hashes (`NSStoreModelVersionHashes`), computed once: a store is
  /// compatible when its metadata holds exactly these.
  let entityHashes: [String: Data]

  /// Describes a store of `model`. `schema` is the layout with an existing store's own names,
  /// when they differ from the derived ones (compiled for this store alone, not cached).
  init(model: ModelVersion, options: StoreOptions, schema: StoreSchema? = nil) throws {
    let compiled = schema.map { CompiledModel(model: model, schema: $0) } ?? CompiledModelCache.shared.compiled(model)
    self.model = model
    self.schema = compiled.schema
    self.layouts = compiled.layouts
    self.statements = compiled.statements
    self.storesExternally = compiled.statements.contains { !$0.externalColumns.isEmpty }
    self.entitiesByNumber = compiled.entitiesByNumber
    self.entityHashes = compiled.entityHashes
    self.options = options
    switch options.location {
    case .file(let url):
      self.location = options.isReadOnly ? StoreFile(url).readOnlyLocation : .file(url.path)
      self.keepAlive = nil
    case .inMemory:
      let name = "modelc-memory-\(UUID().uuidString)"
      self.location = .sharedInMemory(name: name)
      self.keepAlive = KeepAliveConnection(try SQLiteConnection(.sharedInMemory(name: name)))
    }
    if case .file(let url) = options.location {
      self.externalDataDirectory = ExternalDataFolder(storeAt: url).url
    } else {
      self.externalDataDirectory = nil
    }
  }

  /// The URL of the store file, for file stores.
  var fileURL: URL? {
    if case .file(let url) = options.location { return url }
    return nil
  }

  /// The entity whose `Z_ENT` is `number`.
  func entity(number: Int) -> EntityID? {
    number >= 0 && number < entitiesByNumber.count ? entitiesByNumber[number] : nil
  }

  /// The folder where Core Data keeps externally stored binary values (computed once: URL
  /// operations are far too slow for the row-decoding path).
  let externalDataDirectory: URL?

  /// The store's external-data folder, for writing; nil for in-memory stores.
  var externalDataFolder: ExternalDataFolder? {
    externalDataDirectory.map { ExternalDataFolder(url: $0) }
  }
}

/// Holds the connection that keeps a shared in-memory database alive; never used otherwise.
final class KeepAliveConnection: @unchecked Sendable {
  private let connection: SQLiteConnection

  init(_ connection: SQLiteConnection) {
    self.connection = connection
  }
}

/// A column an entity reads or writes, and where its value lives in an object.
enum ColumnSource: Sendable {
  case attribute(slot: Int, kind: StoredValueCodec.Kind)
  case toOneKey(slot: Int)
  case toOneEntity(slot: Int)
  case toOneOrder(slot: Int)
}

/// The SQL of one entity: its INSERT statement (an update's statement depends on the columns it
/// changes: ``updateSQL(of:checked:)``), and how to decode a row of its table (which may hold
/// columns of sibling entities too) into its slots.
///
/// A class: a save and a fetch reach it once per object, and a reference costs one retain where
/// a copy of the struct cost one per field.
final class EntityStatements: Sendable {
  let mapping: EntityStoreLayout
  let tableName: String
  /// The entity's own columns (after Z_PK, Z_ENT, Z_OPT), in order, for writing.
  let columns: [(name: String, source: ColumnSource)]
  /// The columns of attributes: each one's position in ``columns`` and its attribute slot.
  let attributeColumns: [(index: Int, slot: Int)]
  /// The columns of to-one relationships (key, entity and order): each one's position in
  /// ``columns`` and its relationship slot.
  let toOneColumns: [(index: Int, slot: Int)]
  /// The columns of attributes whose values may be stored in files: each one's name and slot.
  let externalColumns: [(name: String, slot: Int)]
  /// Every column of the table, for reading: `SELECT t.Z_PK, t.Z_ENT, t.Z_OPT, … FROM table AS t`.
  let selectPrefix: String
  /// How to read a row of this entity from the columns of `selectPrefix`.
  let decoder: RowDecoder
  let insertSQL: String

  init(mapping: EntityStoreLayout, layout: ObjectLayout, tableColumns: [String]) {
    self.mapping = mapping
    self.tableName = mapping.tableName
    var columns: [(name: String, source: ColumnSource)] = []
    for column in mapping.attributes {
      guard let slot = layout.attributeSlots[column.name] else { continue }
      columns.append((column.column, .attribute(slot: slot, kind: StoredValueCodec.Kind(layout.attributes[slot]))))
    }
    for toOne in mapping.toOneRelationships {
      guard let slot = layout.relationshipSlots[toOne.name] else { continue }
      columns.append((toOne.foreignKeyColumn, .toOneKey(slot: slot)))
      if let entityColumn = toOne.entityColumn { columns.append((entityColumn, .toOneEntity(slot: slot))) }
      if let orderColumn = toOne.orderColumn { columns.append((orderColumn, .toOneOrder(slot: slot))) }
    }
    self.columns = columns
    var attributeColumns: [(index: Int, slot: Int)] = []
    var toOneColumns: [(index: Int, slot: Int)] = []
    for (index, column) in columns.enumerated() {
      switch column.source {
      case .attribute(let slot, _): attributeColumns.append((index, slot))
      case .toOneKey(let slot), .toOneEntity(let slot), .toOneOrder(let slot): toOneColumns.append((index, slot))
      }
    }
    self.attributeColumns = attributeColumns
    self.externalColumns = columns.compactMap { column in
      guard case .attribute(let slot, let kind) = column.source, kind.storesExternally else { return nil }
      return (column.name, slot)
    }
    self.toOneColumns = toOneColumns
    let positions = Dictionary(tableColumns.enumerated().map { ($1, $0 + 3) }, uniquingKeysWith: { first, _ in first })
    // Each column's position in the SELECT, and where its value goes.
    let plan = columns.compactMap { column in positions[column.name].map { ($0, column.source) } }
    self.decoder = RowDecoder(plan: plan, layout: layout)
    let table = SQLiteIdentifier.quote(mapping.tableName)
    self.selectPrefix =
      "SELECT t.Z_PK, t.Z_ENT, t.Z_OPT\(tableColumns.map { ", t.\(SQLiteIdentifier.quote($0))" }.joined()) FROM \(table) AS t"
    let names = columns.map { SQLiteIdentifier.quote($0.name) }
    let insertColumns = ["Z_PK", "Z_ENT", "Z_OPT"] + names
    self.insertSQL =
      "INSERT INTO \(table) (\(insertColumns.joined(separator: ", "))) VALUES (\(SQLiteSQL.placeholders(count: insertColumns.count)))"
  }

  /// Every column of each root table, in the order of the hierarchy's entities.
  static func tableColumns(schema: StoreSchema, model: ModelVersion) -> [Int: [String]] {
    var result: [Int: [String]] = [:]
    for index in model.entities.indices {
      let mapping = schema[EntityID(index)]
      var names = result[mapping.rootEntity.index] ?? []
      var seen = Set(names)
      var own = mapping.attributes.map(\.column)
      for toOne in mapping.toOneRelationships {
        own.append(toOne.foreignKeyColumn)
        if let column = toOne.entityColumn { own.append(column) }
        if let column = toOne.orderColumn { own.append(column) }
      }
      for name in own where seen.insert(name).inserted { names.append(name) }
      result[mapping.rootEntity.index] = names
    }
    return result
  }
}
