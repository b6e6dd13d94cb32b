import Foundation

/// Everything about one store that all its connections share: the model version, its layout in
/// Core Data's schema, object layouts, and where the store lives.
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
  /// The entity index of each `Z_ENT` number (-1 for numbers of no entity), for decoding rows.
  let entityIndexByNumber: [Int]

  init(model: ModelVersion, options: StoreOptions) throws {
    self.model = model
    let schema = StoreSchema(model: model)
    self.schema = schema
    let layouts = ObjectLayouts(model: model)
    self.layouts = layouts
    self.options = options
    switch options.location {
    case .file(let url):
      self.location = .file(url.path)
      self.keepAlive = nil
      self.externalDataDirectory = url.deletingLastPathComponent().appendingPathComponent(
        ".\(url.deletingPathExtension().lastPathComponent)_SUPPORT/_EXTERNAL_DATA")
    case .inMemory:
      let name = "modelc-memory-\(UUID().uuidString)"
      self.location = .sharedInMemory(name: name)
      self.keepAlive = KeepAliveConnection(try SQLiteConnection(.sharedInMemory(name: name)))
      self.externalDataDirectory = nil
    }
    let tableColumns = EntityStatements.tableColumns(schema: schema, model: model)
    self.statements = model.entities.indices.map { index in
      let mapping = schema[EntityID(index)]
      return EntityStatements(
        mapping: mapping, layout: layouts.layouts[index], tableColumns: tableColumns[mapping.rootEntity.index] ?? [])
    }
    var byNumber = [Int](repeating: -1, count: (schema.entities.map(\.entityNumber).max() ?? 0) + 1)
    for mapping in schema.entities { byNumber[mapping.entityNumber] = mapping.entity.index }
    self.entityIndexByNumber = byNumber
  }

  /// The entity index of a `Z_ENT` number, if it is one of the model's.
  func entityIndex(forNumber number: Int) -> Int? {
    guard number >= 0, number < entityIndexByNumber.count else { return nil }
    let index = entityIndexByNumber[number]
    return index >= 0 ? index : nil
  }

  /// The URL of the store file, for file stores.
  var fileURL: URL? {
    if case .file(let url) = options.location { return url }
    return nil
  }

  /// The folder where Core Data keeps externally stored binary values (computed once: it is
  /// passed to every value decoded).
  let externalDataDirectory: URL?
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
  case attribute(slot: Int, attribute: AttributeDescription)
  case toOneKey(slot: Int)
  case toOneEntity(slot: Int)
  case toOneOrder(slot: Int)

  /// The same source without the attribute's description, cheap to copy in loops over rows.
  var step: ColumnStep {
    switch self {
    case .attribute(let slot, let attribute): .attribute(slot: slot, coding: AttributeCoding(attribute))
    case .toOneKey(let slot): .toOneKey(slot: slot)
    case .toOneEntity(let slot): .toOneEntity(slot: slot)
    case .toOneOrder(let slot): .toOneOrder(slot: slot)
    }
  }
}

/// What encoding and decoding an attribute's column needs: its type and whether it allows
/// external storage. Trivially copyable, unlike `AttributeDescription`.
struct AttributeCoding: Sendable, Hashable {
  let type: AttributeType
  let allowsExternalStorage: Bool

  init(_ attribute: AttributeDescription) {
    self.type = attribute.attributeType
    self.allowsExternalStorage = attribute.allowsExternalBinaryDataStorage
  }
}

/// ``ColumnSource`` for the hot loops: reading rows and writing objects.
enum ColumnStep: Sendable {
  case attribute(slot: Int, coding: AttributeCoding)
  case toOneKey(slot: Int)
  case toOneEntity(slot: Int)
  case toOneOrder(slot: Int)
}

/// The SQL of one entity: its INSERT and UPDATE statements, and how to decode a row of its
/// table (which may hold columns of sibling entities too) into its slots. A class, so that the
/// read and write loops share it instead of copying it per row.
final class EntityStatements: Sendable {
  let mapping: EntityMapping
  /// The entity's `Z_ENT`.
  let entityNumber: Int
  let tableName: String
  /// The entity's own columns (after Z_PK, Z_ENT, Z_OPT), in order, for writing.
  let columns: [(name: String, source: ColumnSource)]
  /// Every column of the table, for reading: `SELECT t.Z_PK, t.Z_ENT, t.Z_OPT, … FROM table AS t`.
  let selectPrefix: String
  /// For reading a row of this entity: (position in the SELECT, source).
  let decodePlan: [(position: Int, source: ColumnSource)]
  /// ``decodePlan`` as cheap steps.
  let readSteps: [(position: Int, step: ColumnStep)]
  /// ``columns``' sources as cheap steps, for writing.
  let writeSteps: [ColumnStep]
  let insertSQL: String
  let updateSQL: String
  let updateCheckedSQL: String

  init(mapping: EntityMapping, layout: ObjectLayout, tableColumns: [String]) {
    self.mapping = mapping
    self.entityNumber = mapping.entityNumber
    self.tableName = mapping.tableName
    var columns: [(name: String, source: ColumnSource)] = []
    for column in mapping.attributes {
      guard let slot = layout.attributeSlots[column.name] else { continue }
      columns.append((column.column, .attribute(slot: slot, attribute: layout.attributes[slot])))
    }
    for toOne in mapping.toOneRelationships {
      guard let slot = layout.relationshipSlots[toOne.name] else { continue }
      columns.append((toOne.foreignKeyColumn, .toOneKey(slot: slot)))
      if let entityColumn = toOne.entityColumn { columns.append((entityColumn, .toOneEntity(slot: slot))) }
      if let orderColumn = toOne.orderColumn { columns.append((orderColumn, .toOneOrder(slot: slot))) }
    }
    self.columns = columns
    let positions = Dictionary(tableColumns.enumerated().map { ($1, $0 + 3) }, uniquingKeysWith: { first, _ in first })
    self.decodePlan = columns.compactMap { column in positions[column.name].map { ($0, column.source) } }
    self.readSteps = decodePlan.map { ($0.position, $0.source.step) }
    self.writeSteps = columns.map(\.source.step)
    let table = SQLiteIdentifier.quote(mapping.tableName)
    self.selectPrefix =
      "SELECT t.Z_PK, t.Z_ENT, t.Z_OPT\(tableColumns.map { ", t.\(SQLiteIdentifier.quote($0))" }.joined()) FROM \(table) AS t"
    let names = columns.map { SQLiteIdentifier.quote($0.name) }
    let insertColumns = ["Z_PK", "Z_ENT", "Z_OPT"] + names
    self.insertSQL =
      "INSERT INTO \(table) (\(insertColumns.joined(separator: ", "))) VALUES (\(insertColumns.map { _ in "?" }.joined(separator: ", ")))"
    let assignments = (names.map { "\($0) = ?" } + ["Z_OPT = Z_OPT + 1"]).joined(separator: ", ")
    self.updateSQL = "UPDATE \(table) SET \(assignments) WHERE Z_PK = ?"
    self.updateCheckedSQL = "UPDATE \(table) SET \(assignments) WHERE Z_PK = ? AND Z_OPT = ?"
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
