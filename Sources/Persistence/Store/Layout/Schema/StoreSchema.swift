import DataModel

/// Core Data's SQLite layout of one model version: entity numbers, tables, columns, join tables
/// and indexes, with the exact `CREATE` statements Core Data runs for a new store.
///
/// The layout is pure: it derives names and SQL text from the model and never touches a
/// database. The object context, the query compiler, migrations and code generation all read a
/// store through it, so a store written here has exactly the shape Core Data writes and a store
/// written by Core Data is read with Core Data's names. Each rule, and the real store or
/// reference that confirms it, is in `docs/store-format.md`.
///
/// The model is assumed valid (`ModelValidator` runs elsewhere); references that do not
/// resolve are skipped rather than trapped on.
public struct StoreSchema: Sendable {
  /// The model version laid out.
  public let model: ModelVersion
  /// One mapping per entity, indexed by `EntityID.index`.
  public let entities: [EntityStoreLayout]
  /// The join tables: one per many-to-many pair and one per to-many without an inverse, in the
  /// order Core Data creates them.
  public let joinTables: [JoinTableMapping]
  /// The rows of `Z_PRIMARYKEY` for a new store, in entity-number order.
  public let primaryKeyRows: [PrimaryKeyRow]
  /// Every table in creation order: each root entity's table followed by the join tables its
  /// hierarchy owns, then `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE`.
  public let tables: [TableDefinition]
  /// Every index in creation order: per table, its foreign-key indexes and join-table index;
  /// then per entity (in entity-number order) its indexed properties, compound indexes, fetch
  /// indexes and uniqueness constraints.
  public let indexes: [IndexDefinition]
  /// Indexes the model declares that the layout leaves out, with the reason.
  public let unsupportedIndexes: [UnsupportedIndex]

  private let entityTableCount: Int
  /// The entity and join tables, in creation order (``tables`` without the bookkeeping ones).
  var entityTables: [TableDefinition] { Array(tables.prefix(entityTableCount)) }
  private let mappingByName: [String: Int]
  private let mappingByNumber: [Int: Int]

  /// Lays out a model version.
  public init(model: ModelVersion) {
    var builder = StoreSchemaBuilder(model: model)
    self = builder.build()
  }

  init(
    model: ModelVersion, entities: [EntityStoreLayout], joinTables: [JoinTableMapping], primaryKeyRows: [PrimaryKeyRow],
    entityTables: [TableDefinition], structuralIndexes: [IndexDefinition], entityIndexes: [IndexDefinition],
    unsupportedIndexes: [UnsupportedIndex]
  ) {
    self.model = model
    self.entities = entities
    self.joinTables = joinTables
    self.primaryKeyRows = primaryKeyRows
    self.tables = entityTables + BookkeepingTables.all
    self.indexes = structuralIndexes + entityIndexes
    self.unsupportedIndexes = unsupportedIndexes
    self.entityTableCount = entityTables.count
    var byName: [String: Int] = [:]
    var byNumber: [Int: Int] = [:]
    for (position, mapping) in entities.enumerated() {
      if byName[mapping.name] == nil { byName[mapping.name] = position }
      byNumber[mapping.entityNumber] = position
    }
    self.mappingByName = byName
    self.mappingByNumber = byNumber
  }

  /// The mapping of an entity.
  public subscript(_ id: EntityID) -> EntityStoreLayout { entities[id.index] }

  /// The mapping of the entity with this name.
  public func mapping(forEntityNamed name: String) -> EntityStoreLayout? {
    mappingByName[name].map { entities[$0] }
  }

  /// The mapping of the entity with this number (`Z_ENT`).
  public func mapping(forEntityNumber number: Int) -> EntityStoreLayout? {
    mappingByNumber[number].map { entities[$0] }
  }

  /// The table with this name.
  public func table(named name: String) -> TableDefinition? {
    tables.first { $0.name == name }
  }

  /// The statements that create a new store's schema, in Core Data's order: the entity and join
  /// tables, the indexes, then `Z_PRIMARYKEY`, `Z_METADATA` and `Z_MODELCACHE` — the order of
  /// `sqlite_master` in a store Core Data created. Identifiers are bare, as Core Data writes
  /// them, and double-quoted only when a name could not be read bare (see `docs/store-format.md`).
  public func createStatements() -> [String] {
    let entityTables = tables.prefix(entityTableCount)
    let bookkeeping = tables.dropFirst(entityTableCount)
    return entityTables.map { $0.createStatement() } + indexes.map { $0.createStatement() }
      + bookkeeping.map { $0.createStatement() }
  }
}
