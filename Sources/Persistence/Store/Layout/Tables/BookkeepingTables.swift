/// The three tables Core Data keeps beside the entity tables, exactly as it declares them.
///
/// Seen in every real store in the corpus (LoopKit, framework 1048; Bookmarks, 1251 and 1333),
/// created after all entity tables and indexes, in this order.
enum BookkeepingTables {
  /// `Z_PRIMARYKEY`: one row per entity — number, name, super-entity number (0 for a root) and
  /// the highest primary key handed out in the entity's hierarchy.
  static let primaryKey = TableDefinition(
    name: "Z_PRIMARYKEY", kind: .bookkeeping,
    columns: [
      ColumnDefinition(name: "Z_ENT", type: .integer, isPrimaryKey: true),
      ColumnDefinition(name: "Z_NAME", type: .varchar),
      ColumnDefinition(name: "Z_SUPER", type: .integer),
      ColumnDefinition(name: "Z_MAX", type: .integer),
    ])

  /// `Z_METADATA`: one row, `Z_VERSION` 1, the store UUID, and the metadata property list.
  static let metadata = TableDefinition(
    name: "Z_METADATA", kind: .bookkeeping,
    columns: [
      ColumnDefinition(name: "Z_VERSION", type: .integer, isPrimaryKey: true),
      ColumnDefinition(name: "Z_UUID", type: .varchar255),
      ColumnDefinition(name: "Z_PLIST", type: .blob),
    ])

  /// `Z_MODELCACHE`: one row holding the raw-DEFLATE-compressed archived model.
  static let modelCache = TableDefinition(
    name: "Z_MODELCACHE", kind: .bookkeeping,
    columns: [ColumnDefinition(name: "Z_CONTENT", type: .blob)])

  /// The three tables in creation order.
  static let all = [primaryKey, metadata, modelCache]
}
