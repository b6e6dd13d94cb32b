import DataModel
import Foundation
import Persistence
import SQLite

/// Migrates a store file to a version of its model, atomically.
///
/// The store's version is found from the hashes in its metadata, never from names. Every step
/// of the plan runs inside ONE SQLite transaction on the store itself: the whole migration
/// commits, or the store stays exactly as it was — also when the process is killed at any
/// moment (SQLite discards an uncommitted transaction when the store is next opened). Before
/// committing, the rebuilt tables pass `PRAGMA integrity_check`, `PRAGMA foreign_key_check`
/// passes, and the object count of every copied entity equals its count before. A backup of the
/// original store is written next to it first, unless the caller opts out.
public struct StoreMigration: Sendable {
  /// What a run may do.
  public struct Options: Sendable {
    /// Write a backup of the store before migrating (`<store>.modelc-backup-<version>-<time>.sqlite`
    /// next to it).
    public var keepsBackup: Bool
    /// Rows per statement when copying large tables (progress is reported between them).
    public var chunkSize: Int
    /// Called with progress while tables are copied and objects migrated.
    public var progress: (@Sendable (MigrationProgress) -> Void)?
    /// Objects per batch on the object path of a mapped step: each batch is saved and
    /// released before the next, so memory depends on this, not on the store.
    public var batchSize: Int

    public init(
      keepsBackup: Bool = true, chunkSize: Int = 50_000, batchSize: Int = 1_000,
      progress: (@Sendable (MigrationProgress) -> Void)? = nil
    ) {
      self.keepsBackup = keepsBackup
      self.chunkSize = chunkSize
      self.batchSize = batchSize
      self.progress = progress
    }
  }

  /// The store file.
  public let storeURL: URL
  /// The model bundle with every version.
  public let bundle: ModelBundle
  /// Mapping models for the steps they cover (see ``MigrationPlanner``).
  public let mappingModels: [MappingModel]
  /// The policy classes the mapping models name.
  public let policies: MigrationPolicies

  /// A migration of the store at `storeURL` between versions of `bundle`, through
  /// `mappingModels` for the steps they cover and inference for the others, with `policies`
  /// providing the policy classes the mapping models name.
  public init(
    storeURL: URL, bundle: ModelBundle, mappingModels: [MappingModel] = [],
    policies: MigrationPolicies = MigrationPolicies()
  ) {
    self.storeURL = storeURL
    self.bundle = bundle
    self.mappingModels = mappingModels
    self.policies = policies
  }

  /// The version the store is at, found through its hashes.
  ///
  /// ```swift
  /// let migration = StoreMigration(storeURL: storeURL, bundle: try ModelBundle(contentsOf: "Tasks.xcdatamodeld"))
  /// print(try migration.storeVersion().name)  // "Tasks 2"
  /// ```
  ///
  /// - Throws: `PersistenceError`: `.incompatibleStore` when the store's hashes match no
  ///   version of the bundle; `.storeNotFound`, `.notAStore` or `.storeInaccessible` when the
  ///   file cannot be read as a store. `StoreMetadataError` when its `Z_METADATA` is not a
  ///   property list.
  public func storeVersion() throws -> ModelVersion {
    let metadata = try StoreConnection.readMetadata(at: storeURL)
    guard let version = metadata.matchingVersion(in: bundle) else {
      throw PersistenceError.incompatibleStore(
        path: storeURL.path,
        detail:
          "its version hashes match no version of the model '\(bundle.name)'; it was written for another model, or for a version no longer in the bundle"
      )
    }
    return version
  }

  /// The plan from the store's version to `target` (default: the bundle's current version).
  ///
  /// Versions with identical hashes cannot be told apart by a store; when the store matches
  /// several, the plan starts from the latest of them that comes before the target (a store that
  /// already matches the target needs nothing).
  ///
  /// ```swift
  /// let plan = try migration.plan()
  /// for step in plan.steps { print(step.source.name, "→", step.destination.name, step.mapping.isInferred) }
  /// ```
  ///
  /// - Throws: What ``storeVersion()`` throws; ``MigrationPlanningError`` when no migration
  ///   leads to the target (inference refuses a step and no mapping model covers it — its
  ///   ``MigrationPlanningError/refusals`` say why — or the store is at a later version).
  public func plan(to target: ModelVersion? = nil) throws -> MigrationPlan {
    let target = target ?? bundle.currentVersion
    let stored = try StoreConnection.readMetadata(at: storeURL).entityHashes
    if stored == target.versionHashes.entityHashes {
      return MigrationPlan(source: target, destination: target, steps: [])
    }
    let matching = bundle.versions.indices.filter { bundle.versions[$0].versionHashes.entityHashes == stored }
    guard let last = matching.last else {
      _ = try storeVersion()  // Throws the "matches no version" error.
      throw PersistenceError.incompatibleStore(path: storeURL.path, detail: "its version hashes match no version")
    }
    let targetIndex = bundle.index(ofVersionNamed: target.name) ?? bundle.versions.count
    let source = bundle.versions[matching.last { $0 < targetIndex } ?? last]
    return try MigrationPlanner.plan(bundle: bundle, from: source, to: target, mappingModels: mappingModels)
  }

  /// The SQL each step would run on this store, for `--sql` and `--dry-run`.
  ///
  /// - Throws: A `SQLiteError` when the store cannot be read; ``MigrationBuildError`` when a
  ///   step's SQL cannot be built.
  public func operations(for plan: MigrationPlan) throws -> [[MigrationOperation]] {
    let connection = try SQLiteConnection(.file(storeURL.path), mode: .readOnly)
    defer { try? connection.close() }
    var indexes = try Self.indexes(on: connection)
    var result: [[MigrationOperation]] = []
    for step in plan.steps {
      // A mapped step writes a new file: its SQL is in `entityMappingRoutes(of:)`.
      result.append(
        step.mapping.isInferred
          ? try StepSQLBuilder(
            source: step.source, destination: step.destination, mapping: step.mapping, existingIndexes: indexes
          ).build().operations : [])
      indexes = Dictionary(
        StoreSchema(model: step.destination).indexes.map { ($0.name, $0.createStatement()) },
        uniquingKeysWith: { first, _ in first })
    }
    return result
  }

  /// The SQL a migration to `target` runs, statement by statement, with the bound values written
  /// in as literals: what `modelc migrate --sql` prints, and what the `sqlite3` shell runs to
  /// do the same migration (between `BEGIN IMMEDIATE;` and `COMMIT;`).
  ///
  /// The statements are recorded as the migration runs, inside a transaction that is then
  /// rolled back: the chunked copies show each chunk's real bounds, and the store is left as it
  /// was. Only statements that change the store are listed (the reads that verify it are not).
  ///
  /// ```swift
  /// let sql = try migration.script(to: bundle.version(named: "Tasks 3"))
  /// print((["BEGIN IMMEDIATE;"] + sql.joined().map { $0 + ";" } + ["COMMIT;"]).joined(separator: "\n"))
  /// ```
  ///
  /// - Returns: the statements of each step of the plan, in order.
  /// - Throws: What ``plan(to:)`` and ``run(to:options:)`` throw; ``MigrationBuildError`` when
  ///   the plan has mapped steps (they write a new file, not SQL on this one). The store is
  ///   unchanged either way.
  public func script(to target: ModelVersion? = nil, options: Options = Options()) throws -> [[String]] {
    let plan = try plan(to: target)
    guard !plan.isEmpty else { return [] }
    guard plan.steps.allSatisfy(\.mapping.isInferred) else {
      throw MigrationBuildError(
        "the plan has mapped steps, which write a new store file; their SQL is in entityMappingRoutes(of:)")
    }
    let connection = try SQLiteConnection(.file(storeURL.path), mode: .readWrite)
    defer { try? connection.close() }
    connection.busyTimeout = .seconds(10)
    var statements: [[String]] = []
    struct RolledBack: Error {}
    do {
      try connection.transaction(.immediate) {
        try connection.recordingWrites(to: { statements[statements.count - 1].append($0) }) {
          for (index, step) in plan.steps.enumerated() {
            statements.append([])
            _ = try run(step, number: index + 1, of: plan.steps.count, on: connection, options: options)
            _ = try inlineExternalData(for: step, on: connection)
          }
        }
        throw RolledBack()
      }
    } catch is RolledBack {}
    return statements
  }

  /// Runs the migration to `target` (default: the current version).
  ///
  /// Inferred steps run in one transaction on the store; a plan with mapped steps builds a new
  /// file and swaps it in. Either way the store is at the old version with all its data, or at
  /// the new one with all of it. A plan with nothing to do returns an empty report.
  ///
  /// ```swift
  /// let report = try StoreMigration(storeURL: storeURL, bundle: bundle, mappingModels: mappings)
  ///   .run(options: .init(keepsBackup: true))
  /// print(report.backupURL?.path ?? "no backup")
  /// ```
  ///
  /// - Throws: What ``plan(to:)`` throws; ``MigrationVerificationError`` when the migrated
  ///   store fails a check before commit (integrity, foreign keys, object counts, a missing
  ///   external-data file); ``MigrationBuildError`` when a step's SQL cannot be built;
  ///   ``MigrationEngineError`` from a mapped step (a missing policy class, an expression or
  ///   value that fails, a policy that throws, destination objects that break the model's
  ///   rules); `SQLiteError` or `PersistenceError` when the store cannot be read or written
  ///   (a full disk, a lock held past the busy timeout). The store is unchanged in every case.
  @discardableResult
  public func run(to target: ModelVersion? = nil, options: Options = Options()) throws -> MigrationReport {
    let plan = try plan(to: target)
    let started = Date()
    guard !plan.isEmpty else {
      // What a run killed after its swap left (its working files' links) goes.
      removeWorkFiles()
      return MigrationReport(plan: plan, backupURL: nil, records: [], duration: 0)
    }
    if plan.steps.contains(where: { !$0.mapping.isInferred }) {
      return try runThroughNewFiles(plan, options: options, started: started)
    }
    let connection = try SQLiteConnection(.file(storeURL.path), mode: .readWrite)
    defer { try? connection.close() }
    connection.busyTimeout = .seconds(10)

    var backupURL: URL?
    if options.keepsBackup {
      PhaseTrace.record("migrate: backup")
      backupURL = try writeBackup(of: connection, version: plan.source.name)
    }
    var records: [MigrationRecord] = []
    var inlinedFiles: [String] = []
    try connection.transaction(.immediate) {
      PhaseTrace.record("migrate: transaction")
      for (index, step) in plan.steps.enumerated() {
        records.append(try run(step, number: index + 1, of: plan.steps.count, on: connection, options: options))
        inlinedFiles += try inlineExternalData(for: step, on: connection)
      }
      PhaseTrace.record("migrate: commit")
    }
    // Files whose values now live in their rows go only once the rows are committed (the backup
    // keeps its own copies).
    let folder = ExternalDataFolder(storeAt: storeURL)
    for name in inlinedFiles { try? FileManager.default.removeItem(at: folder.fileURL(named: name)) }
    return MigrationReport(
      plan: plan, backupURL: backupURL, records: records, duration: Date().timeIntervalSince(started))
  }

  // MARK: - Steps

  func run(
    _ step: MigrationPlan.Step, number: Int, of total: Int, on connection: SQLiteConnection, options: Options
  ) throws -> MigrationRecord {
    let built = try StepSQLBuilder(
      source: step.source, destination: step.destination, mapping: step.mapping,
      existingIndexes: try Self.indexes(on: connection)
    ).build()
    // Counts before, for every entity whose rows are copied.
    var before: [String: [Int: Int]] = [:]
    for table in Set(built.copiedEntities.map(\.sourceTable)) {
      before[table] = try counts(in: table, on: connection)
    }
    let removed = try recordRemovedObjects(of: step, on: connection)
    for operation in built.operations {
      try execute(operation, step: number, of: total, on: connection, options: options, counts: before)
    }
    let touched = try clearReferences(to: removed, in: step, on: connection)
    PhaseTrace.record("migrate: verify")
    try writeBookkeeping(for: step, on: connection)

    // Verification.
    var after: [String: [Int: Int]] = [:]
    for table in Set(built.copiedEntities.map(\.destinationTable)) {
      after[table] = try counts(in: table, on: connection)
    }
    for pair in built.copiedEntities {
      let expected = before[pair.sourceTable]?[pair.sourceNumber] ?? 0
      let actual = after[pair.destinationTable]?[pair.destinationNumber] ?? 0
      guard expected == actual else {
        throw MigrationVerificationError(
          "entity number \(pair.destinationNumber) in \(pair.destinationTable) has \(actual) objects after the step '\(step.source.name)' → '\(step.destination.name)', \(expected) before"
        )
      }
    }
    // `quick_check` of each rebuilt table: its pages, records and NOT NULL constraints, in one
    // pass. It leaves out `integrity_check`'s cross-check of each index against the table and
    // its check of UNIQUE indexes, for a table this transaction has just written through SQLite
    // itself: its indexes were maintained (and their UNIQUE constraints enforced) by SQLite as
    // the rows went in, as on the heavyweight path's new file. The counts above and the layout
    // checks below cover what matters to the layout. At 100,000 tasks the cross-check was a
    // third of the step's instructions.
    for table in built.rebuiltTables.sorted() {
      let problems = try connection.mapRows(
        SQLiteSQL(verbatim: "PRAGMA quick_check(\(SQLiteIdentifier.quote(table)))")
      ) { $0.text(at: 0) }
      guard problems == ["ok"] else {
        throw MigrationVerificationError(
          "integrity check of \(table) failed: \(problems.prefix(5).joined(separator: "; "))")
      }
    }
    let violations = try connection.foreignKeyCheck()
    guard violations.isEmpty else {
      throw MigrationVerificationError("foreign key check failed: \(violations.count) violation(s)")
    }
    // What the layout relies on and SQLite cannot check: entity numbers, key counters, to-one
    // columns and join rows pointing at rows that exist.
    let problems = try LayoutVerification.problems(
      of: StoreSchema(model: step.destination), on: connection, tables: built.rebuiltTables.union(touched))
    guard problems.isEmpty else {
      throw MigrationVerificationError(
        "the store does not hold together after the step '\(step.source.name)' → '\(step.destination.name)': "
          + problems.joined(separator: "; "))
    }
    let rebuilt = built.rebuiltTables.count
    let altered = built.operations.filter { $0.kind == .addColumn || $0.kind == .renameColumn }.count
    let record = MigrationRecord(
      date: Date(), fromVersion: step.source.name, toVersion: step.destination.name,
      fromChecksum: step.source.versionHashes.checksum, toChecksum: step.destination.versionHashes.checksum,
      kind: step.mapping.isInferred ? "lightweight" : "mapped",
      detail:
        "\(rebuilt) table\(rebuilt == 1 ? "" : "s") rebuilt, \(altered) column\(altered == 1 ? "" : "s") changed in place"
    )
    try MigrationHistory.append(record, on: connection)
    return record
  }

  /// Objects of an entity a step removes, kept in a temporary table: their rows are dropped with
  /// the entity, and what pointed at them is cleared afterwards.
  private struct RemovedObjects {
    /// The name of the root entity of the table that held them.
    var rootEntity: String
    /// The temporary table of their `Z_PK`s.
    var table: String
  }

  /// Records the keys of the objects of every entity `step` removes (a sub-entity whose parent
  /// stays shares its table with objects that stay), before the step drops their rows.
  private func recordRemovedObjects(of step: MigrationPlan.Step, on connection: SQLiteConnection) throws
    -> [RemovedObjects]
  {
    let removedNames = Set(
      step.mapping.entityMappings.filter { $0.kind == .remove }.compactMap(\.sourceEntity))
    guard !removedNames.isEmpty else { return [] }
    let schema = StoreSchema(model: step.source)
    var byRoot: [String: [Int]] = [:]
    for mapping in schema.entities where removedNames.contains(mapping.name) {
      byRoot[step.source[mapping.rootEntity].name, default: []].append(mapping.entityNumber)
    }
    var removed: [RemovedObjects] = []
    for (root, numbers) in byRoot.sorted(by: { $0.key < $1.key }) {
      guard let rootID = step.source.entityID(named: root) else { continue }
      let table = "modelc_removed_\(removed.count)"
      try connection.execute(
        SQLiteSQL(
          verbatim:
            "CREATE TEMP TABLE \(SQLiteIdentifier.quote(table)) AS SELECT Z_PK FROM \(SQLiteIdentifier.quote(schema[rootID].tableName)) WHERE Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))"
        ))
      removed.append(RemovedObjects(rootEntity: root, table: table))
    }
    return removed
  }

  /// Clears what pointed at objects a step removed, as Core Data's migration leaves such
  /// relationships unset: to-one columns (with their entity and ordering columns) become NULL
  /// and join rows go. Only references to the removed objects are touched; any other broken
  /// reference is left for the verification to refuse.
  ///
  /// - Returns: the tables changed, for the verification.
  private func clearReferences(
    to removed: [RemovedObjects], in step: MigrationPlan.Step, on connection: SQLiteConnection
  ) throws -> Set<String> {
    guard !removed.isEmpty else { return [] }
    var touched: Set<String> = []
    let schema = StoreSchema(model: step.destination)
    func rootName(_ id: EntityID) -> String { step.destination[schema[id].rootEntity].name }
    for group in removed {
      let keys = "SELECT Z_PK FROM temp.\(SQLiteIdentifier.quote(group.table))"
      var cleared: Set<String> = []
      for entity in schema.entities {
        for toOne in entity.toOneRelationships
        where rootName(toOne.destination) == group.rootEntity
          && cleared.insert("\(toOne.table).\(toOne.foreignKeyColumn)").inserted
        {
          touched.insert(toOne.table)
          let columns = [toOne.foreignKeyColumn, toOne.entityColumn, toOne.orderColumn].compactMap { $0 }
          let assignments = columns.map { "\(SQLiteIdentifier.quote($0)) = NULL" }.joined(separator: ", ")
          try connection.execute(
            SQLiteSQL(
              verbatim:
                "UPDATE \(SQLiteIdentifier.quote(toOne.table)) SET \(assignments) WHERE \(SQLiteIdentifier.quote(toOne.foreignKeyColumn)) IN (\(keys))"
            ))
        }
      }
      for join in schema.joinTables {
        var columns: [String] = []
        if rootName(join.relationship.entity) == group.rootEntity { columns.append(join.sourceColumn) }
        if let destination = step.destination[join.relationship].destination, rootName(destination) == group.rootEntity
        {
          columns.append(join.destinationColumn)
        }
        if !columns.isEmpty { touched.insert(join.name) }
        for column in columns {
          try connection.execute(
            SQLiteSQL(
              verbatim:
                "DELETE FROM \(SQLiteIdentifier.quote(join.name)) WHERE \(SQLiteIdentifier.quote(column)) IN (\(keys))")
          )
        }
      }
      try connection.execute(SQLiteSQL(verbatim: "DROP TABLE temp.\(SQLiteIdentifier.quote(group.table))"))
    }
    return touched
  }

  /// Moves into their rows the values of attributes that no longer allow external storage: a
  /// row holding a reference to a file of `_EXTERNAL_DATA` gets the file's bytes. Returns the
  /// names of the files read, to be removed after the commit.
  ///
  /// - Throws: ``MigrationVerificationError`` when a referenced file is missing or unreadable:
  ///   the migration is refused rather than leaving a reference nothing can read.
  func inlineExternalData(for step: MigrationPlan.Step, on connection: SQLiteConnection) throws -> [String] {
    let schema = StoreSchema(model: step.destination)
    let folder = ExternalDataFolder(storeAt: storeURL)
    var names: [String] = []
    for entity in step.destination.entities {
      guard let destinationID = step.destination.entityID(named: entity.name) else { continue }
      for attribute in entity.attributes
      where attribute.attributeType == .binary && !attribute.allowsExternalBinaryDataStorage && attribute.isPersistent {
        let sourceName = step.mapping.entityMapping(forDestination: entity.name)?.sourceEntity
        let sourceAttribute =
          step.mapping.entityMapping(forDestination: entity.name)?.propertyMapping(for: attribute.name)?.value?
          .sourceKeyPath.flatMap { keyPath in
            sourceName.flatMap { step.source.entityID(named: $0) }.flatMap {
              step.source.attribute(named: keyPath, in: $0)
            }
          }
        guard sourceAttribute?.allowsExternalBinaryDataStorage == true,
          let column = schema[destinationID].column(forAttribute: attribute.name)
        else { continue }
        let table = SQLiteIdentifier.quote(schema[destinationID].tableName)
        let quoted = SQLiteIdentifier.quote(column.column)
        let rows = try connection.mapRows(
          SQLiteSQL(
            verbatim: "SELECT Z_PK, \(quoted) FROM \(table) WHERE substr(\(quoted), 1, 1) = X'02'")
        ) { ($0.int64(at: 0), $0.value(at: 1)) }
        for (key, stored) in rows {
          guard let name = ExternalDataReference.fileName(in: stored),
            let bytes = FileManager.default.contents(atPath: folder.fileURL(named: name).path)
          else {
            throw MigrationVerificationError(
              "\(entity.name) \(key).\(attribute.name) refers to an external data file that is missing from \(folder.url.path); the value cannot be moved into the store"
            )
          }
          try connection.execute(
            SQLiteSQL(
              verbatim: "UPDATE \(table) SET \(quoted) = ? WHERE Z_PK = ?",
              arguments: [.blob([UInt8](bytes)), .integer(key)]))
          names.append(name)
        }
      }
    }
    return names
  }

  private func execute(
    _ operation: MigrationOperation, step: Int, of total: Int, on connection: SQLiteConnection, options: Options,
    counts: [String: [Int: Int]]
  ) throws {
    guard let table = operation.chunkedSourceTable else {
      try connection.execute(operation.sql)
      return
    }
    let bounds =
      try connection.firstRow(
        SQLiteSQL(verbatim: "SELECT IFNULL(MIN(Z_PK), 0), IFNULL(MAX(Z_PK), -1) FROM \(SQLiteIdentifier.quote(table))")
      ) { ($0.int64(at: 0), $0.int64(at: 1)) } ?? (0, -1)
    let totalRows = counts[table]?.values.reduce(0, +) ?? 0
    var done = 0
    var low = bounds.0
    let chunk = Int64(max(1, options.chunkSize))
    while low <= bounds.1 {
      let high = min(bounds.1, low + chunk - 1)
      var sql = operation.sql
      sql += SQLiteSQL(verbatim: " AND t.Z_PK BETWEEN ? AND ?", arguments: [.integer(low), .integer(high)])
      try connection.execute(sql)
      done += connection.changes
      options.progress?(
        MigrationProgress(
          step: step, stepCount: total, summary: operation.summary, rowsDone: done, rowsTotal: totalRows))
      low = high + 1
    }
  }

  /// `Z_PRIMARYKEY`, metadata (keeping every key modelc does not own) and the model cache.
  private func writeBookkeeping(for step: MigrationPlan.Step, on connection: SQLiteConnection) throws {
    let schema = StoreSchema(model: step.destination)
    try connection.execute("DELETE FROM Z_PRIMARYKEY")
    for row in schema.primaryKeyRows {
      let mapping = schema[schema.mapping(forEntityNumber: row.entityNumber)?.entity ?? EntityID(0)]
      try connection.execute(
        SQLiteSQL(
          verbatim:
            "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, (SELECT IFNULL(MAX(Z_PK), 0) FROM \(SQLiteIdentifier.quote(mapping.tableName))))",
          arguments: [.integer(Int64(row.entityNumber)), .text(row.name), .integer(Int64(row.superEntityNumber))]))
    }
    var metadata = try StoreConnection.readMetadata(connection)
    metadata.setModel(step.destination)
    try StoreConnection.writeMetadata(metadata, on: connection)
    if try connection.tableExists("Z_MODELCACHE") {
      try connection.execute("DELETE FROM Z_MODELCACHE")
    }
  }

  private func counts(in table: String, on connection: SQLiteConnection) throws -> [Int: Int] {
    var result: [Int: Int] = [:]
    try connection.forEachRow(
      SQLiteSQL(verbatim: "SELECT Z_ENT, COUNT(*) FROM \(SQLiteIdentifier.quote(table)) GROUP BY Z_ENT")
    ) { result[Int($0.int64(at: 0))] = Int($0.int64(at: 1)) }
    return result
  }

  static func indexes(on connection: SQLiteConnection) throws -> [String: String] {
    var result: [String: String] = [:]
    try connection.forEachRow("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
      result[$0.text(at: 0)] = $0.text(at: 1)
    }
    return result
  }

  /// Copies the store (a consistent snapshot, WAL included) next to it before migrating.
  private func writeBackup(of connection: SQLiteConnection, version: String) throws -> URL {
    let url = backupURL(version: version)
    let partial = url.appendingPathExtension("partial")
    try connection.vacuum(into: partial.path)
    try FileManager.default.moveItem(at: partial, to: url)
    // Values stored outside the file (external binary storage) belong to the backup too.
    try ExternalDataFolder.copy(fromStoreAt: storeURL, toStoreAt: url)
    return url
  }

  /// A free name for a backup of the store at `version`, next to it; a backup a killed
  /// migration left half written goes.
  func backupURL(version: String) -> URL {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
    let safeVersion = version.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" }
    let stem = "\(storeURL.lastPathComponent).modelc-backup-\(String(safeVersion))-\(formatter.string(from: Date()))"
    let folder = storeURL.deletingLastPathComponent()
    // Two migrations within one second (a run killed after its backup, then run again) would
    // name their backups alike: the later one gets a number, and the earlier backup is kept.
    var url = folder.appendingPathComponent("\(stem).sqlite")
    var number = 2
    while FileManager.default.fileExists(atPath: url.path) {
      url = folder.appendingPathComponent("\(stem)-\(number).sqlite")
      number += 1
    }
    // A backup a killed migration left half written goes: its name has another time in it.
    for leftover in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    where leftover.hasPrefix("\(storeURL.lastPathComponent).modelc-backup-") && leftover.hasSuffix(".sqlite.partial") {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(leftover))
    }
    return url
  }
}

/// What a migration did.
public struct MigrationReport: Sendable {
  /// The plan that ran.
  public var plan: MigrationPlan
  /// Where the backup is, when one was written.
  public var backupURL: URL?
  /// The history records of the steps.
  public var records: [MigrationRecord]
  /// How long it took, in seconds.
  public var duration: TimeInterval
}

/// Progress of a migration: rows copied so far in the current operation.
public struct MigrationProgress: Sendable {
  public var step: Int
  public var stepCount: Int
  public var summary: String
  public var rowsDone: Int
  public var rowsTotal: Int
}

/// The migrated store failed a check before commit; nothing was changed.
public struct MigrationVerificationError: Error, Sendable, CustomStringConvertible {
  public var message: String

  init(_ message: String) {
    self.message = message
  }

  public var description: String { "the migration was rolled back: \(message)" }
}
