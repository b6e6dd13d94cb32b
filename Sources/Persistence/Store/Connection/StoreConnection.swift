import Foundation
import SQLite

/// One context's connection to the store: reading rows into objects and writing a save, in Core
/// Data's layout.
///
/// Each context has its own (a SQLite connection belongs to one isolation domain); several
/// connections to one file see each other's commits thanks to WAL mode, and wait for each
/// other's write locks up to the busy timeout. The connection opens on first use.
package final class StoreConnection {
  let description: StoreDescription
  private var openConnection: SQLiteConnection?
  /// Whether each uniqueness constraint met so far has a `UNIQUE` index in the store that
  /// enforces it (see ``isEnforcedByStore(_:)``).
  var storeEnforcedConstraints: [ConstraintCheck: Bool] = [:]
  /// Whether the model has constraints to check before writing, with and without those the
  /// store enforces (see ``hasConstraintsToCheck(skippingStoreEnforced:)``).
  var constraintsToCheck: [Bool: Bool] = [:]

  /// Where the connection comes from and goes back to, when the store connection belongs to a
  /// container's context.
  private let idleConnections: IdleConnections?

  init(description: StoreDescription, idleConnections: IdleConnections? = nil) {
    self.description = description
    self.idleConnections = idleConnections
  }

  deinit {
    if let openConnection, let idleConnections { idleConnections.giveBack(openConnection) }
  }

  var schema: StoreSchema { description.schema }
  var layouts: ObjectLayouts { description.layouts }

  /// Whether the context's reads run in one transaction (``readTransaction(_:)``).
  private(set) var isInReadTransaction = false

  /// Runs `body` in one read transaction of the connection: every statement inside reads one
  /// snapshot of the store, and SQLite locks the file once for all of them rather than once
  /// for each (a statement run alone is a transaction of its own: system calls to lock the
  /// file and its shared memory, and as many to unlock them). Nested calls join the outer one.
  func readTransaction<Result>(_ body: () throws -> Result) throws -> Result {
    if isInReadTransaction { return try body() }
    let connection = try connection()
    isInReadTransaction = true
    defer { isInReadTransaction = false }
    return try connection.transaction(.deferred, body)
  }

  /// Runs `body` in a write transaction of the connection (`BEGIN IMMEDIATE`), for a save or
  /// a batch request named by `operation`; refused inside ``readTransaction(_:)``, which it
  /// would otherwise join, to be committed or undone with the reads rather than on its own.
  func writeTransaction<Result>(_ operation: String, _ body: (SQLiteConnection) throws -> Result) throws -> Result {
    guard !isInReadTransaction else { throw PersistenceError.writeInsideReadTransaction(operation: operation) }
    let connection = try connection()
    return try connection.transaction(.immediate) { try body(connection) }
  }

  /// The SQLite connection: on first use, an idle one of the container's, or a new one opened
  /// and configured.
  func connection() throws -> SQLiteConnection {
    if let openConnection { return openConnection }
    let connection = try idleConnections?.take() ?? Self.open(description)
    openConnection = connection
    return connection
  }

  static func open(_ description: StoreDescription) throws -> SQLiteConnection {
    let mode: SQLiteConnection.OpenMode = description.options.isReadOnly ? .readOnly : .readWrite
    let connection = try SQLiteConnection(description.location, mode: mode)
    connection.busyTimeout = .milliseconds(Int(description.options.busyTimeout * 1000))
    try QueryFunctions.register(on: connection)
    return connection
  }

  /// The error to report for a failure on this store: SQLite's failures about the file itself
  /// (read-only, disk full, damaged) in the user's terms (see ``StoreFile/explain(_:)``).
  func explain(_ error: any Error) -> any Error {
    description.fileURL.map { StoreFile($0).explain(error) } ?? error
  }

  // MARK: - Creating and checking a store

  /// What preparing a store found.
  enum PreparedStore {
    /// The store is at the description's model version (or was just created), with the
    /// connection that read it.
    case ready(StoreMetadata, SQLiteConnection)
    /// The store was written for another model version; it was not changed.
    case otherVersion(StoreMetadata)
  }

  /// Creates the store's schema when the database is empty, or checks that an existing store
  /// was written for this model version, reading its metadata once. Called by the container,
  /// which keeps the connection of a ready store open while it lives: closing the last
  /// connection of a WAL store checkpoints and removes the WAL file, which contexts opening and
  /// closing their own connections would otherwise pay again and again.
  static func prepareStore(_ description: StoreDescription) throws -> PreparedStore {
    guard let url = description.fileURL else { return try prepareOpenStore(description) }
    do {
      return try prepareOpenStore(description)
    } catch {
      throw StoreFile(url).explain(error)
    }
  }

  /// ``prepareStore(_:)``, with SQLite's failures not yet explained.
  private static func prepareOpenStore(_ description: StoreDescription) throws -> PreparedStore {
    if case .file(let url) = description.options.location {
      let exists = FileManager.default.fileExists(atPath: url.path)
      if exists {
        // An empty file is an empty SQLite database, which becomes a new store when one may be
        // created; a directory, a text file or a truncated copy never does.
        let options = description.options
        try StoreFile(url).checkReadable(allowsEmpty: options.createIfMissing && !options.isReadOnly)
      } else {
        guard description.options.createIfMissing, !description.options.isReadOnly else {
          throw PersistenceError.storeNotFound(url.path)
        }
        try FileManager.default.createDirectory(
          at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let connection = try SQLiteConnection(.file(url.path), mode: .readWriteCreate)
        try connection.close()
      }
    }
    let connection = try open(description)
    do {
      let (metadata, isCurrent) = try prepareSchema(description, on: connection)
      if isCurrent { return .ready(metadata, connection) }
      try connection.close()
      return .otherVersion(metadata)
    } catch {
      try? connection.close()
      throw error
    }
  }

  /// The metadata of the store (created when the database is empty), and whether it is at the
  /// description's version; when it is not, nothing is changed, not even the journal mode.
  private static func prepareSchema(_ description: StoreDescription, on connection: SQLiteConnection) throws
    -> (StoreMetadata, isCurrent: Bool)
  {
    let switchesToWAL = !description.options.isReadOnly && description.fileURL != nil
    if try connection.tableExists("Z_METADATA") {
      let metadata = try readMetadata(connection)
      guard metadata.entityHashes == description.entityHashes else { return (metadata, false) }
      if switchesToWAL { try connection.enableWAL() }
      return (metadata, true)
    }
    if switchesToWAL { try connection.enableWAL() }
    guard !description.options.isReadOnly else {
      throw PersistenceError.notAStore(
        path: description.fileURL?.path ?? ":memory:",
        reason: "it is a SQLite database without a Z_METADATA table, not a Core Data store")
    }
    let existingTables = try connection.tableNames()
    guard existingTables.isEmpty else {
      throw PersistenceError.incompatibleStore(
        path: description.fileURL?.path ?? ":memory:",
        detail:
          "it holds tables (\(existingTables.prefix(5).joined(separator: ", "))) but no Z_METADATA: it is not a Core Data store"
      )
    }
    return (try createSchema(description, on: connection), true)
  }

  /// Creates every table and index, the `Z_PRIMARYKEY` rows and the metadata, in one
  /// transaction, and returns the metadata.
  @discardableResult
  static func createSchema(_ description: StoreDescription, on connection: SQLiteConnection) throws -> StoreMetadata {
    try connection.transaction(.immediate) {
      for statement in description.schema.createStatements() {
        try connection.execute(SQLiteSQL(verbatim: statement))
      }
      for row in description.schema.primaryKeyRows {
        try connection.execute(
          "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (\(row.entityNumber), \(row.name), \(row.superEntityNumber), 0)"
        )
      }
      let metadata = StoreMetadata(model: description.model)
      try writeMetadata(metadata, on: connection)
      return metadata
    }
  }

  /// Reads `Z_METADATA`.
  package static func readMetadata(_ connection: SQLiteConnection) throws -> StoreMetadata {
    let row = try connection.firstRow("SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") { statement in
      (statement.isNull(at: 0) ? "" : statement.text(at: 0), statement.data(at: 1))
    }
    guard let (uuid, plist) = row else {
      throw PersistenceError.storeFailure("the store's Z_METADATA table has no row")
    }
    return try StoreMetadata(storeUUID: uuid, propertyList: plist)
  }

  /// Reads the metadata of a store file without opening it as a container.
  package static func readMetadata(at url: URL) throws -> StoreMetadata {
    let file = StoreFile(url)
    try file.checkReadable(allowsEmpty: false)
    do {
      let connection = try SQLiteConnection(file.readOnlyLocation, mode: .readOnly)
      defer { try? connection.close() }
      // Another process may hold the store's lock for a moment (switching it to WAL, recovering
      // its WAL): wait as the container's connections do, rather than fail with SQLITE_BUSY.
      connection.busyTimeout = .seconds(5)
      guard try connection.tableExists("Z_METADATA") else {
        throw PersistenceError.notAStore(
          path: url.path, reason: "it is a SQLite database without a Z_METADATA table, not a Core Data store")
      }
      return try readMetadata(connection)
    } catch {
      throw file.explain(error)
    }
  }

  /// Replaces `Z_METADATA`'s row.
  package static func writeMetadata(_ metadata: StoreMetadata, on connection: SQLiteConnection) throws {
    let plist = try metadata.propertyListData()
    try connection.execute("DELETE FROM Z_METADATA")
    try connection.execute(
      "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, \(metadata.storeUUID), \([UInt8](plist)))")
  }

  // MARK: - Reading rows

  /// Decodes the current row of a statement that selected a table's `selectPrefix` columns,
  /// expected to be a row of `entity` (a row of another entity of the table decodes as its own).
  func decodeRow(_ statement: SQLiteStatement, entity: EntityID, tableName: String) throws -> StoredRow {
    let cursor = StoredRowCursor(statement, store: self, entity: entity, tableName: tableName)
    try cursor.readIdentity()
    return try cursor.decode()
  }

  /// The statements of the root entity of an entity's hierarchy: its SELECT reads every column
  /// of the shared table.
  func rootStatements(of entity: EntityID) -> EntityStatements {
    description.statements[schema[entity].rootEntity.index]
  }

  /// Loads one row.
  func loadRow(entity: EntityID, primaryKey: Int64) throws -> StoredRow? {
    let statements = rootStatements(of: entity)
    let connection = try connection()
    let statement = try connection.cachedStatement(SQLiteSQL(verbatim: statements.selectPrefix + " WHERE t.Z_PK = ?"))
    try statement.bind([.integer(primaryKey)])
    defer { statement.reset() }
    guard try statement.step() else { return nil }
    return try decodeRow(statement, entity: entity, tableName: statements.tableName)
  }

  /// Loads many rows, in chunks.
  func loadRows(_ ids: [ObjectID]) throws -> [StoredRow] {
    var byRoot: [Int: [Int64]] = [:]
    for id in ids {
      guard let key = id.primaryKey else { continue }
      byRoot[schema[id.entity].rootEntity.index, default: []].append(key)
    }
    var rows: [StoredRow] = []
    let connection = try connection()
    for (root, keys) in byRoot.sorted(by: { $0.key < $1.key }) {
      let statements = description.statements[root]
      for chunk in stride(from: 0, to: keys.count, by: 500).map({ Array(keys[$0..<min($0 + 500, keys.count)]) }) {
        let placeholders = SQLiteSQL.placeholders(count: chunk.count)
        let sql = SQLiteSQL(
          verbatim: statements.selectPrefix + " WHERE t.Z_PK IN (\(placeholders))",
          arguments: chunk.map { .integer($0) })
        // One cursor for the chunk's rows (the statement is the same for all of them).
        var cursor: StoredRowCursor?
        try connection.forEachRow(sql) { statement in
          let current =
            cursor ?? StoredRowCursor(statement, store: self, entity: EntityID(root), tableName: statements.tableName)
          cursor = current
          try current.readIdentity()
          rows.append(try current.decode())
        }
      }
    }
    return rows
  }

  /// The destinations of a to-many relationship of a saved object, in order.
  func loadToMany(entity: EntityID, primaryKey: Int64, relationship slot: ObjectLayout.RelationshipSlot) throws
    -> [ObjectID]
  {
    guard let mapping = schema[entity].toMany(named: slot.relationship.name) else { return [] }
    let destinationTable = SQLiteIdentifier.quote(schema[mapping.destination].tableName)
    let sql: String
    switch mapping.storage {
    case .inverseForeignKey(let key):
      let order = key.orderColumn.map { "\(SQLiteIdentifier.quote($0)), Z_PK" } ?? "Z_PK"
      sql =
        "SELECT Z_PK, Z_ENT FROM \(SQLiteIdentifier.quote(key.table)) WHERE \(SQLiteIdentifier.quote(key.foreignKeyColumn)) = ? ORDER BY \(order)"
    case .joinTable(let join):
      let order = join.orderColumn.map { "j.\(SQLiteIdentifier.quote($0)), d.Z_PK" } ?? "d.Z_PK"
      sql =
        "SELECT d.Z_PK, d.Z_ENT FROM \(SQLiteIdentifier.quote(join.table)) AS j JOIN \(destinationTable) AS d ON d.Z_PK = j.\(SQLiteIdentifier.quote(join.destinationColumn)) WHERE j.\(SQLiteIdentifier.quote(join.sourceColumn)) = ? ORDER BY \(order)"
    }
    let connection = try connection()
    let statement = try connection.cachedStatement(SQLiteSQL(verbatim: sql))
    try statement.bind([.integer(primaryKey)])
    defer { statement.reset() }
    var ids: [ObjectID] = []
    while try statement.step() {
      let number = Int(statement.int64(at: 1))
      let destination = description.entity(number: number) ?? mapping.destination
      ids.append(ObjectID(entity: destination, primaryKey: statement.int64(at: 0)))
    }
    return ids
  }
}
