import DataModel
import Foundation
import Persistence
import SQLite

/// Runs the three stages of a heavyweight step over its entity plans (see ``HeavyweightStep``).
final class StageRunner {
  let step: HeavyweightStep
  let connection: SQLiteConnection
  let manager: MigrationManager
  let sourceContainer: PersistentContainer
  let destinationContainer: PersistentContainer
  /// One policy per entity mapping, kept for all three stages (as Core Data does).
  let policies: [EntityMigrationPolicy]
  let destinationSchema: StoreSchema
  /// How many failures of the model's rules are listed (all are counted).
  static let listedFailures = 50

  init(
    step: HeavyweightStep, connection: SQLiteConnection, manager: MigrationManager,
    sourceContainer: PersistentContainer, destinationContainer: PersistentContainer, policies: [EntityMigrationPolicy]
  ) {
    self.step = step
    self.connection = connection
    self.manager = manager
    self.sourceContainer = sourceContainer
    self.destinationContainer = destinationContainer
    self.policies = policies
    self.destinationSchema = StoreSchema(model: step.destination)
  }

  func run(_ plans: [HeavyweightStep.EntityPlan]) throws {
    for plan in plans {
      manager.currentEntityMapping = plan.mapping
      try callPolicy(plan, stage: "beginEntityMapping") {
        try policies[plan.index].beginEntityMapping(plan.mapping, manager: manager)
      }
      PhaseTrace.record("migrate: heavyweight stage 1 (\(plan.mapping.name))")
      switch plan.route {
      case .sql(let compiled): try createInstances(compiled, plan: plan)
      case .objects: try createInstances(plan)
      case .nothing: break
      }
      try callPolicy(plan, stage: "endInstanceCreation") {
        try policies[plan.index].endInstanceCreation(forMapping: plan.mapping, manager: manager)
      }
    }
    for plan in plans {
      manager.currentEntityMapping = plan.mapping
      PhaseTrace.record("migrate: heavyweight stage 2 (\(plan.mapping.name))")
      switch plan.route {
      case .sql(let compiled): try createRelationships(compiled, plan: plan)
      case .objects: try createRelationships(plan)
      case .nothing: break
      }
      try callPolicy(plan, stage: "endRelationshipCreation") {
        try policies[plan.index].endRelationshipCreation(forMapping: plan.mapping, manager: manager)
      }
    }
    PhaseTrace.record("migrate: heavyweight stage 3 (validation)")
    for plan in plans {
      manager.currentEntityMapping = plan.mapping
      try callPolicy(plan, stage: "performCustomValidation") {
        try policies[plan.index].performCustomValidation(forMapping: plan.mapping, manager: manager)
      }
    }
    try validateDestination()
    for plan in plans {
      manager.currentEntityMapping = plan.mapping
      try callPolicy(plan, stage: "endEntityMapping") {
        try policies[plan.index].endEntityMapping(plan.mapping, manager: manager)
      }
    }
    manager.currentEntityMapping = nil
  }

  // MARK: - Stage 1

  private func createInstances(_ compiled: EntityMappingSQL, plan: HeavyweightStep.EntityPlan) throws {
    let table = SQLiteIdentifier.quote(compiled.sourceTable)
    var bounds = SQLiteSQL(verbatim: "SELECT MIN(t.Z_PK), MAX(t.Z_PK), COUNT(*) FROM \(table) AS t WHERE ")
    bounds += compiled.condition
    guard
      let (low, high, total) = try connection.firstRow(
        bounds,
        { row in
          row.isNull(at: 0) ? nil : (row.int64(at: 0), row.int64(at: 1), Int(row.int64(at: 2)))
        }) ?? nil
    else { return }
    // Keys: the source's own unless one is taken in the destination table (objects keep their
    // URIs, as the store keeps its UUID), else shifted past the largest used or reserved.
    var collisions = SQLiteSQL(
      verbatim:
        "SELECT EXISTS (SELECT 1 FROM \(table) AS t JOIN destination.\(SQLiteIdentifier.quote(compiled.destinationTable)) AS d ON d.Z_PK = t.Z_PK WHERE "
    )
    collisions += compiled.condition
    collisions += ")"
    let collides = try connection.firstRow(collisions) { $0.int64(at: 0) != 0 } ?? false
    let offset =
      collides ? try reservedKeys(forHierarchy: compiled.destinationHierarchy, table: compiled.destinationTable) : 0
    try setMaximumKey(offset + high, forHierarchy: compiled.destinationHierarchy)
    var done = 0
    var start = low
    let chunk = Int64(max(1, step.chunkSize))
    report(plan, "creating objects (SQL)", done: 0, total: total)
    while start <= high {
      let end = min(high, start + chunk - 1)
      try connection.transaction(.immediate) {
        let statements = compiled.instanceStatements(offset: offset, range: start...end)
        try connection.execute(statements[0])
        done += connection.changes
        try connection.execute(statements[1])
      }
      report(plan, "creating objects (SQL)", done: done, total: total)
      start = end + 1
    }
  }

  /// The largest key used or reserved in a destination hierarchy's table.
  private func reservedKeys(forHierarchy numbers: [Int], table: String) throws -> Int64 {
    let list = numbers.map(String.init).joined(separator: ", ")
    let recorded =
      try connection.firstRow(
        SQLiteSQL(verbatim: "SELECT IFNULL(MAX(Z_MAX), 0) FROM destination.Z_PRIMARYKEY WHERE Z_ENT IN (\(list))")
      ) { $0.int64(at: 0) } ?? 0
    let present =
      try connection.firstRow(
        SQLiteSQL(verbatim: "SELECT IFNULL(MAX(Z_PK), 0) FROM destination.\(SQLiteIdentifier.quote(table))")
      ) { $0.int64(at: 0) } ?? 0
    return max(recorded, present)
  }

  private func setMaximumKey(_ key: Int64, forHierarchy numbers: [Int]) throws {
    try connection.execute(
      SQLiteSQL(
        verbatim:
          "UPDATE destination.Z_PRIMARYKEY SET Z_MAX = MAX(Z_MAX, ?) WHERE Z_ENT IN (\(numbers.map(String.init).joined(separator: ", ")))",
        arguments: [.integer(key)]))
  }

  private func createInstances(_ plan: HeavyweightStep.EntityPlan) throws {
    guard let sourceName = plan.mapping.sourceEntity, let sourceEntity = step.source.entityID(named: sourceName) else {
      return
    }
    let table = SQLiteIdentifier.quote(StoreSchema(model: step.source)[sourceEntity].tableName)
    var countSQL = SQLiteSQL(verbatim: "SELECT COUNT(*) FROM \(table) AS t WHERE ")
    countSQL += plan.condition
    let total = try connection.firstRow(countSQL) { Int($0.int64(at: 0)) } ?? 0
    let policy = policies[plan.index]
    var last = Int64.min
    var done = 0
    report(plan, "creating objects", done: 0, total: total)
    while true {
      var select = SQLiteSQL(verbatim: "SELECT t.Z_PK FROM \(table) AS t WHERE (")
      select += plan.condition
      select += SQLiteSQL(
        verbatim: ") AND t.Z_PK > ? ORDER BY t.Z_PK LIMIT ?",
        arguments: [.integer(last), .integer(Int64(step.batchSize))])
      let keys = try connection.mapRows(select) { $0.int64(at: 0) }
      guard let lastKey = keys.last else { break }
      try readingBatch {
        try createInstances(plan, keys: keys, sourceEntity: sourceEntity, sourceName: sourceName, policy: policy)
      }
      try saveBatch(plan)
      done += keys.count
      last = lastKey
      report(plan, "creating objects", done: done, total: total)
    }
  }

  /// Stage 1 for one batch of source keys: each source object, filtered, given to the policy.
  private func createInstances(
    _ plan: HeavyweightStep.EntityPlan, keys: [Int64], sourceEntity: EntityID, sourceName: String,
    policy: EntityMigrationPolicy
  ) throws {
    for key in keys {
      guard let object = manager.sourceContext.object(with: ObjectID(entity: sourceEntity, primaryKey: key)) else {
        continue
      }
      if let filter = plan.filterInMemory {
        let matches: Bool
        do {
          matches = try filter.evaluate(with: object)
        } catch {
          throw MigrationEngineError.expression(
            entityMapping: plan.mapping.name, property: nil, object: "\(sourceName) \(object.objectID)",
            detail: "its source filter cannot be evaluated: \(error)")
        }
        guard matches else { continue }
      }
      try callPolicy(plan, stage: "createDestinationInstances", object: object) {
        try policy.createDestinationInstances(forSource: object, in: plan.mapping, manager: manager)
      }
    }
  }

  // MARK: - Stage 2

  private func createRelationships(_ compiled: EntityMappingSQL, plan: HeavyweightStep.EntityPlan) throws {
    guard !compiled.relationships.isEmpty else { return }
    report(plan, "setting relationships (SQL)", done: 0, total: compiled.relationships.count)
    for (number, write) in compiled.relationships.enumerated() {
      try connection.transaction(.immediate) { try connection.execute(write.sql) }
      report(plan, "setting relationships (SQL)", done: number + 1, total: compiled.relationships.count)
    }
  }

  private func createRelationships(_ plan: HeavyweightStep.EntityPlan) throws {
    guard let destinationName = plan.mapping.destinationEntity,
      let destinationEntity = step.destination.entityID(named: destinationName)
    else { return }
    let total = try manager.associations.count(mapping: plan.index)
    let policy = policies[plan.index]
    var position: (source: Int64, row: Int64) = (Int64.min, Int64.min)
    var done = 0
    report(plan, "setting relationships", done: 0, total: total)
    while true {
      let rows = try manager.associations.associations(mapping: plan.index, after: position, limit: step.batchSize)
      guard let lastRow = rows.last else { break }
      try readingBatch {
        for row in rows {
          // Objects a policy made of other entities and associated too are its own business.
          guard let entity = destinationSchema.mapping(forEntityNumber: row.entity)?.entity,
            step.destination.entity(entity, isKindOf: destinationEntity),
            let object = manager.destinationContext.object(with: ObjectID(entity: entity, primaryKey: row.destination))
          else { continue }
          try callPolicy(plan, stage: "createRelationships", object: object) {
            try policy.createRelationships(forDestination: object, in: plan.mapping, manager: manager)
          }
        }
      }
      try saveBatch(plan)
      done += rows.count
      position = (lastRow.source, lastRow.row)
      report(plan, "setting relationships", done: done, total: total)
    }
  }

  // MARK: - Stage 3

  /// Checks every destination object against the destination model's rules; refuses the
  /// migration listing the failures, each with the source object it was made from.
  private func validateDestination() throws {
    var listed: [String] = []
    var total = 0
    for entity in step.destination.entities where !entity.isAbstract {
      let layout = destinationSchema[entity.id]
      // Only the rows that may break a rule are loaded and checked as objects (all of them
      // when a rule cannot be screened in SQL).
      let suspect: SQLiteSQL
      switch ruleScreen(for: entity.id) {
      case .noRule: continue
      case .everyRow: suspect = "1"
      case .rows(let condition): suspect = condition
      }
      var last = Int64.min
      while true {
        var select = SQLiteSQL(
          verbatim:
            "SELECT Z_PK FROM destination.\(SQLiteIdentifier.quote(layout.tableName)) AS t WHERE t.Z_ENT = ? AND t.Z_PK > ? AND (",
          arguments: [.integer(Int64(layout.entityNumber)), .integer(last)])
        select += suspect
        select += SQLiteSQL(verbatim: ") ORDER BY t.Z_PK LIMIT ?", arguments: [.integer(Int64(step.batchSize))])
        let keys = try connection.mapRows(select) { $0.int64(at: 0) }
        guard let lastKey = keys.last else { break }
        let failures: [ValidationFailure]
        do {
          // The batch's rows in one query, not one per object as faults fire.
          let objects = try manager.destinationContext.loadedObjects(
            with: keys.map { ObjectID(entity: entity.id, primaryKey: $0) })
          failures = try manager.destinationContext.validationFailures(of: objects)
        } catch {
          throw MigrationEngineError.verification("validating \(entity.name): \(error)")
        }
        total += failures.count
        for failure in failures where listed.count < Self.listedFailures {
          listed.append(try describe(failure, layout: layout))
        }
        renewContexts()
        last = lastKey
      }
    }
    guard total == 0 else { throw MigrationEngineError.validation(listed, total: total) }
  }

  private func describe(_ failure: ValidationFailure, layout: EntityStoreLayout) throws -> String {
    let object = "\(failure.entity) p\(failure.objectID.primaryKey ?? 0)"
    let text = "\(object).\(failure.property): \(failure.message)\(failure.value.map { " (value: \($0))" } ?? "")"
    guard let key = failure.objectID.primaryKey,
      let origin = try connection.firstRow(
        SQLiteSQL(
          verbatim:
            "SELECT MAPPING, SOURCE FROM \(AssociationTable.qualifiedName) WHERE DESTINATION_ENT = ? AND DESTINATION = ? LIMIT 1",
          arguments: [.integer(Int64(layout.entityNumber)), .integer(key)]),
        { (Int($0.int64(at: 0)), $0.int64(at: 1)) })
    else { return text }
    let mapping = step.mappingModel.entityMappings[origin.0]
    return
      "\(text) — made by entity mapping '\(mapping.name)' from \(mapping.sourceEntity ?? "?") p\(origin.1) of the store"
  }

  /// Which rows of an entity stage 3 checks as objects.
  enum RuleScreen {
    /// None: no rule of the model applies to the entity's stored rows (uniqueness is the new
    /// file's UNIQUE indexes' business).
    case noRule
    /// Every row: some rule cannot be screened in SQL.
    case everyRow
    /// The rows for which the condition (on the destination row `t`) holds: every row that may
    /// break a rule, and as few others as it can.
    case rows(SQLiteSQL)
  }

  /// Which rows of `entity` may break a rule of the model.
  ///
  /// It is conservative: a required value or to-one that is NULL, a number or date outside its
  /// range (stored as Core Data stores them: dates as seconds since 2001), a string whose
  /// character count puts its UTF-16 length possibly outside its bounds (one character is one or
  /// two UTF-16 units), data outside its length bounds. Patterns, decimals, external or
  /// transformed data, composites and to-many counts are not screened. Uniqueness is enforced
  /// by the new file's UNIQUE indexes as the rows are written.
  func ruleScreen(for entity: EntityID) -> RuleScreen {
    let model = step.destination
    let layout = destinationSchema[entity]
    var terms: [SQLiteSQL] = []
    for id in [entity] + model.ancestors(of: entity) {
      let description = model[id]
      for attribute in description.attributes where !attribute.isTransient {
        let range = (attribute.minValue?.numericValue, attribute.maxValue?.numericValue)
        let hasRange = range.0 != nil || range.1 != nil
        if attribute.isOptional && !hasRange && (attribute.regularExpression ?? "").isEmpty { continue }
        guard let column = layout.column(forAttribute: attribute.name) else { return .everyRow }
        let name = "t.\(SQLiteIdentifier.quote(column.column))"
        if !attribute.isOptional { terms.append(SQLiteSQL(verbatim: "\(name) IS NULL")) }
        if !(attribute.regularExpression ?? "").isEmpty && attribute.attributeType == .string { return .everyRow }
        guard hasRange else { continue }
        switch attribute.attributeType {
        case .integer16, .integer32, .integer64, .double, .float, .date, .boolean:
          if let minimum = range.0 { terms.append(SQLiteSQL(verbatim: "\(name) < ?", arguments: [.real(minimum)])) }
          if let maximum = range.1 { terms.append(SQLiteSQL(verbatim: "\(name) > ?", arguments: [.real(maximum)])) }
        case .string:
          if let minimum = range.0 {
            terms.append(SQLiteSQL(verbatim: "length(\(name)) < ?", arguments: [.real(minimum)]))
          }
          if let maximum = range.1 {
            terms.append(SQLiteSQL(verbatim: "2 * length(\(name)) > ?", arguments: [.real(maximum)]))
          }
        case .binary where !attribute.allowsExternalBinaryDataStorage:
          if let minimum = range.0 {
            terms.append(SQLiteSQL(verbatim: "length(CAST(\(name) AS BLOB)) < ?", arguments: [.real(minimum)]))
          }
          if let maximum = range.1 {
            terms.append(SQLiteSQL(verbatim: "length(CAST(\(name) AS BLOB)) > ?", arguments: [.real(maximum)]))
          }
        default:
          return .everyRow
        }
      }
      for relationship in description.relationships where !relationship.isTransient {
        if relationship.isToMany {
          if !relationship.isOptional || (relationship.minCountValue ?? 0) > 0 || (relationship.maxCountValue ?? 0) > 0
          {
            return .everyRow
          }
          continue
        }
        guard !relationship.isOptional else { continue }
        guard let toOne = layout.toOne(named: relationship.name) else { return .everyRow }
        terms.append(SQLiteSQL(verbatim: "t.\(SQLiteIdentifier.quote(toOne.foreignKeyColumn)) IS NULL"))
      }
    }
    return terms.isEmpty ? .noRule : .rows(terms.joined(separator: " OR "))
  }

  // MARK: - Verification

  /// Every association points at a destination object that exists.
  func verifyAssociations(_ plans: [HeavyweightStep.EntityPlan]) throws {
    let numbers = try connection.mapRows(
      SQLiteSQL(verbatim: "SELECT DISTINCT DESTINATION_ENT FROM \(AssociationTable.qualifiedName)")
    ) { Int($0.int64(at: 0)) }
    for number in numbers {
      guard let layout = destinationSchema.mapping(forEntityNumber: number) else {
        throw MigrationEngineError.verification("objects were made of an unknown entity number \(number)")
      }
      let missing =
        try connection.firstRow(
          SQLiteSQL(
            verbatim:
              "SELECT COUNT(*) FROM \(AssociationTable.qualifiedName) AS a WHERE a.DESTINATION_ENT = ? AND NOT EXISTS (SELECT 1 FROM destination.\(SQLiteIdentifier.quote(layout.tableName)) AS d WHERE d.Z_PK = a.DESTINATION AND d.Z_ENT = a.DESTINATION_ENT)",
            arguments: [.integer(Int64(number))])
        ) { Int($0.int64(at: 0)) } ?? 0
      guard missing == 0 else {
        throw MigrationEngineError.verification(
          "\(missing) object(s) of \(layout.name) made by the mapping are missing from the new store")
      }
    }
    for plan in plans {
      guard case .sql(let compiled) = plan.route else { continue }
      var count = SQLiteSQL(
        verbatim: "SELECT COUNT(*) FROM \(SQLiteIdentifier.quote(compiled.sourceTable)) AS t WHERE ")
      count += compiled.condition
      let expected = try connection.firstRow(count) { Int($0.int64(at: 0)) } ?? 0
      let made = try manager.associations.count(mapping: plan.index)
      guard expected == made else {
        throw MigrationEngineError.verification(
          "entity mapping '\(plan.mapping.name)' made \(made) object(s) from \(expected) source object(s)")
      }
    }
  }

  // MARK: - Batches

  /// Runs a batch's work before its save in read transactions of the source context, the
  /// destination context and the step's connection (the associations): each object's reads — a
  /// source or destination fault, a to-many relationship, its associations — would otherwise be
  /// a transaction each, for which SQLite locks and unlocks the files (about twenty system calls
  /// an object, more time than the reads). The source is never written; the destination is
  /// written only by the batch's save, after `body`. A policy that saves a context inside is
  /// refused (``PersistenceError/writeInsideReadTransaction(operation:)``): the batch's save is
  /// the engine's.
  private func readingBatch(_ body: () throws -> Void) throws {
    try manager.sourceContext.withReadTransaction {
      try manager.destinationContext.withReadTransaction {
        try connection.transaction(.deferred, body)
      }
    }
  }

  /// Saves the destination objects of a batch (without the model's rules: stage 3 checks
  /// them once every stage is done), records their associations, and releases both contexts.
  private func saveBatch(_ plan: HeavyweightStep.EntityPlan) throws {
    do {
      try manager.destinationContext.save(validating: false)
    } catch {
      throw MigrationEngineError.policy(
        entityMapping: plan.mapping.name, policy: policyName(plan), stage: "saving a batch", object: nil,
        error: "\(error)")
    }
    try manager.flushAssociations()
    renewContexts()
  }

  private func renewContexts() {
    manager.sourceContext = sourceContainer.newContext()
    manager.destinationContext = destinationContainer.newContext()
  }

  private func policyName(_ plan: HeavyweightStep.EntityPlan) -> String {
    plan.mapping.policyClassName ?? "EntityMigrationPolicy"
  }

  /// Runs a policy hook, wrapping what it throws with the mapping, stage and object.
  private func callPolicy(
    _ plan: HeavyweightStep.EntityPlan, stage: String, object: ManagedObject? = nil, _ body: () throws -> Void
  ) throws {
    do {
      try body()
    } catch let error as MigrationEngineError {
      throw error
    } catch {
      throw MigrationEngineError.policy(
        entityMapping: plan.mapping.name, policy: policyName(plan), stage: stage,
        object: object.map { "\($0.entityName) \($0.objectID)" }, error: "\(error)")
    }
  }

  private func report(_ plan: HeavyweightStep.EntityPlan, _ what: String, done: Int, total: Int) {
    let progress = MigrationProgress(
      step: step.stepNumber, stepCount: step.stepCount, summary: "\(plan.mapping.name): \(what)", rowsDone: done,
      rowsTotal: total)
    manager.progress = progress
    step.progress?(progress)
  }
}
