import DataModel
import Foundation
import Persistence
import SQLite

/// Checks the data of a real store against the versions after the one it is at: counts the
/// objects that a later version's rules would refuse (nil where a value becomes required,
/// duplicates where values become unique, values outside new bounds) and the values a step
/// drops.
///
/// The store's version is found from the entity hashes in its metadata, as Core Data finds it.
/// The store is opened read-only and only read. Each later version is compared with the store's
/// own version (so renames are followed through every step), and each problem is reported once,
/// for the first step that introduces it. Counts are exact and per entity: an object is counted
/// under its own entity (its `Z_ENT`), not under its parent.
public struct StoreDataChecker {
  /// The store file.
  public var storePath: String
  /// The model bundle the store belongs to.
  public var bundle: ModelBundle
  /// The bundle's path, for findings.
  public var modelPath: String

  public init(storePath: String, bundle: ModelBundle, modelPath: String) {
    self.storePath = storePath
    self.bundle = bundle
    self.modelPath = modelPath
  }

  /// The version of ``bundle`` the store is at, or nil when its hashes match none.
  ///
  /// - Throws: What `StoreMetadata.read(fromStoreAt:)` throws: `PersistenceError` when the file
  ///   is missing or not a store, `StoreMetadataError` when its metadata is damaged.
  public static func storeVersion(of storePath: String, in bundle: ModelBundle) throws -> ModelVersion? {
    let metadata = try StoreMetadata.read(fromStoreAt: URL(fileURLWithPath: storePath))
    return metadata.matchingVersion(in: bundle)
  }

  /// Every finding about the store's data; throws when the store cannot be read.
  ///
  /// - Throws: What ``storeVersion(of:in:)`` throws, and a `SQLiteError` when the store's rows
  ///   cannot be read.
  public func findings() throws -> [Finding] {
    guard let storeVersion = try Self.storeVersion(of: storePath, in: bundle),
      let storeIndex = bundle.index(ofVersionNamed: storeVersion.name)
    else { return [] }
    guard storeIndex < bundle.currentVersionIndex else { return [] }
    let connection = try SQLiteConnection(.file(storePath), mode: .readOnly)
    defer { try? connection.close() }
    let schema = StoreSchema(model: storeVersion)
    var seen = Set<String>()
    var findings: [Finding] = []
    for index in (storeIndex + 1)...bundle.currentVersionIndex {
      let step = VersionStep(
        modelPath: modelPath, source: bundle.versions[index - 1], destination: bundle.versions[index])
      let query = StepQuery(
        store: storeVersion, schema: schema, target: bundle.versions[index], step: step, storePath: storePath,
        connection: connection)
      for finding in try query.findings() {
        let key = [finding.rule, finding.entity ?? "", finding.property ?? ""].joined(separator: "\u{0}")
        if seen.insert(key).inserted { findings.append(finding) }
      }
    }
    return findings
  }
}

/// The data checks of one later version against the store's version.
private struct StepQuery {
  let store: ModelVersion
  let schema: StoreSchema
  let target: ModelVersion
  let step: VersionStep
  let storePath: String
  let connection: SQLiteConnection

  private func finding(
    _ rule: CheckRule, _ message: String, help: String, at location: SourceLocation?, entity: String,
    property: String?
  ) -> Finding {
    Finding(
      rule: rule, message: message, help: help, location: location, model: step.modelPath,
      fromVersion: step.source.name, toVersion: step.destination.name, entity: entity, property: property)
  }

  private func count(_ sql: SQLiteSQL) throws -> Int {
    try connection.firstRow(sql) { $0.int(at: 0) } ?? 0
  }

  private func objects(_ n: Int) -> String { "\(n) object\(n == 1 ? "" : "s")" }

  func findings() throws -> [Finding] {
    let diff = ModelDiff(from: store, to: target)
    let targetLocator = ElementLocator(version: target)
    let storeLocator = ElementLocator(version: store)
    var findings: [Finding] = []
    for entityDiff in diff.entities {
      guard let sourceName = entityDiff.sourceEntity, let sourceEntity = store.entity(named: sourceName),
        let mapping = schema.mapping(forEntityNamed: sourceName)
      else { continue }
      let table = mapping.tableName
      let own = mapping.entityNumber
      guard let destinationName = entityDiff.destinationEntity, let entity = target.entity(named: destinationName)
      else {
        let removed = try count("SELECT COUNT(*) FROM \(identifier: table) WHERE Z_ENT = \(own)")
        if removed > 0 {
          findings.append(
            finding(
              RuleCatalogue.dataLoss,
              "entity '\(sourceName)' is removed in '\(target.name)': \(objects(removed)) in '\(storePath)' would be deleted",
              help:
                "export or move the objects first, or keep the entity (set a renaming identifier if it was renamed)",
              at: storeLocator.entity(sourceName), entity: sourceName, property: nil))
        }
        continue
      }
      let sourceAttributes = store.allAttributes(of: sourceEntity.id)
      let targetAttributes = target.allAttributes(of: entity.id)
      let matches = ModelDiffer.match(
        sources: sourceAttributes.map { ($0.name, $0.versionIdentity) },
        destinations: targetAttributes.map { ($0.name, $0.versionIdentity, $0.renamingIdentifier) })
      for (index, attribute) in targetAttributes.enumerated() where attribute.isPersistent {
        let at = targetLocator.property(attribute.name, of: destinationName)
        guard let sourceIndex = matches[index], sourceAttributes[sourceIndex].isPersistent,
          let column = mapping.column(forAttribute: sourceAttributes[sourceIndex].name)
        else {
          // A new required attribute without a default leaves every existing object without a value.
          if !attribute.isOptional && attribute.defaultValue == nil {
            let all = try count("SELECT COUNT(*) FROM \(identifier: table) WHERE Z_ENT = \(own)")
            if all > 0 {
              findings.append(
                nullsFinding(all, attribute: attribute.name, entity: destinationName, at: at, added: true))
            }
          }
          continue
        }
        let old = sourceAttributes[sourceIndex]
        if !attribute.isOptional && old.isOptional {
          let nulls = try count(
            "SELECT COUNT(*) FROM \(identifier: table) WHERE Z_ENT = \(own) AND \(identifier: column.column) IS NULL")
          if nulls > 0 {
            findings.append(
              nullsFinding(nulls, attribute: attribute.name, entity: destinationName, at: at, added: false))
          }
        }
        if old.minValue != attribute.minValue || old.maxValue != attribute.maxValue,
          let outside = try outOfRange(attribute, column: column.column, table: table, entityNumber: own),
          outside.count > 0
        {
          findings.append(
            finding(
              RuleCatalogue.dataOutOfRange,
              "\(objects(outside.count)) of '\(destinationName)' in '\(storePath)' hold \(outside.what) of '\(attribute.name)' outside \(outside.bounds), which '\(target.name)' sets",
              help:
                "objects holding them fail validation when next saved: fix the values, or relax minValueString/maxValueString of <attribute name=\"\(attribute.name)\">",
              at: at, entity: destinationName, property: attribute.name))
        }
      }
      findings += try uniqueness(
        entity: entity, sourceEntity: sourceEntity, mapping: mapping, sourceAttributes: sourceAttributes,
        targetAttributes: targetAttributes, matches: matches, locator: targetLocator)
      for change in entityDiff.changes where change.losesData {
        guard let lost = try lostValues(change, sourceEntity: sourceEntity, mapping: mapping), lost.count > 0 else {
          continue
        }
        let at =
          change.kind == .attributeRemoved || change.kind == .relationshipRemoved
          ? storeLocator.property(change.property, of: sourceName)
          : targetLocator.property(change.property, of: destinationName)
        findings.append(
          finding(
            RuleCatalogue.dataLoss, "\(lost.sentence) (\(change.detail))",
            help:
              "make sure the data is no longer needed, or keep it (a renaming identifier keeps a renamed property's values)",
            at: at, entity: destinationName, property: change.property))
      }
    }
    return findings
  }

  private func nullsFinding(_ n: Int, attribute: String, entity: String, at: SourceLocation?, added: Bool) -> Finding {
    finding(
      RuleCatalogue.dataNullsInRequired,
      "\(objects(n)) of '\(entity)' in '\(storePath)' have no value for '\(attribute)', which '\(target.name)' \(added ? "adds as required without a default" : "makes required")",
      help:
        "the migration fails validation on these objects: give them a value first, or keep '\(attribute)' optional (optional=\"YES\")",
      at: at, entity: entity, property: attribute)
  }

  /// Values outside the target attribute's bounds: (count, what is compared, the bounds).
  private func outOfRange(_ attribute: AttributeDescription, column: String, table: String, entityNumber: Int) throws
    -> (count: Int, what: String, bounds: String)?
  {
    let value: SQLiteSQL
    let what: String
    switch attribute.attributeType {
    case .string:
      value = "length(\(identifier: column))"
      what = "lengths"
    case .binary:
      value = "length(\(identifier: column))"
      what = "byte lengths"
    case _ where attribute.attributeType.isNumeric || attribute.attributeType == .date:
      value = "\(identifier: column)"
      what = "values"
    default:
      return nil
    }
    var conditions: [SQLiteSQL] = []
    var bounds: [String] = []
    if let minimum = attribute.minValue?.numericValue {
      conditions.append("\(value) < \(minimum)")
      bounds.append("minimum \(attribute.minValueString ?? attribute.minDateTimeInterval ?? String(minimum))")
    }
    if let maximum = attribute.maxValue?.numericValue {
      conditions.append("\(value) > \(maximum)")
      bounds.append("maximum \(attribute.maxValueString ?? attribute.maxDateTimeInterval ?? String(maximum))")
    }
    guard !conditions.isEmpty else { return nil }
    let n = try count(
      "SELECT COUNT(*) FROM \(identifier: table) WHERE Z_ENT = \(entityNumber) AND \(identifier: column) IS NOT NULL AND (\(conditions.joined(separator: " OR ")))"
    )
    return (n, what, bounds.joined(separator: " and "))
  }

  /// Duplicates under uniqueness constraints the target adds.
  private func uniqueness(
    entity: EntityDescription, sourceEntity: EntityDescription, mapping: EntityStoreLayout,
    sourceAttributes: [AttributeDescription], targetAttributes: [AttributeDescription], matches: [Int: Int],
    locator: ElementLocator
  ) throws -> [Finding] {
    var findings: [Finding] = []
    let existing = Set(sourceEntity.uniquenessConstraints.map { Set($0.properties) })
    for constraint in entity.uniquenessConstraints {
      // The constraint's properties, by their names in the store's version, and their columns.
      var sourceNames: [String] = []
      var columns: [String] = []
      for property in constraint.properties {
        if let index = targetAttributes.firstIndex(where: { $0.name == property }), let sourceIndex = matches[index],
          let column = mapping.column(forAttribute: sourceAttributes[sourceIndex].name)
        {
          sourceNames.append(sourceAttributes[sourceIndex].name)
          columns.append(column.column)
        } else if let toOne = mapping.toOne(named: property) {
          sourceNames.append(property)
          columns.append(toOne.foreignKeyColumn)
        } else {
          break
        }
      }
      guard columns.count == constraint.properties.count, !existing.contains(Set(sourceNames)) else { continue }
      let numbers = mapping.entityNumbersInHierarchy.map { SQLiteSQL("\($0)") }.joined(separator: ", ")
      let notNull = columns.map { SQLiteSQL("\(identifier: $0) IS NOT NULL") }.joined(separator: " AND ")
      let row = try connection.firstRow(
        """
        SELECT COUNT(*), COALESCE(SUM(n), 0) FROM (SELECT COUNT(*) AS n FROM \(identifier: mapping.tableName) \
        WHERE Z_ENT IN (\(numbers)) AND \(notNull) GROUP BY \(identifiers: columns) HAVING COUNT(*) > 1)
        """
      ) { ($0.int(at: 0), $0.int(at: 1)) }
      guard let (groups, duplicates) = row, groups > 0 else { continue }
      let names = constraint.properties.joined(separator: ", ")
      findings.append(
        finding(
          RuleCatalogue.dataDuplicatesInUnique,
          "\(objects(duplicates)) of '\(entity.name)' in '\(storePath)' share \(groups) value\(groups == 1 ? "" : "s") of (\(names)), which '\(target.name)' makes unique",
          help:
            "the migration cannot keep both: merge or change the duplicates first, or drop the uniqueness constraint on (\(names))",
          at: constraint.location ?? locator.entity(entity.name), entity: entity.name,
          property: constraint.properties.count == 1 ? constraint.properties[0] : nil))
    }
    return findings
  }

  /// What a data-losing change drops from this entity's own objects.
  private func lostValues(_ change: SchemaChange, sourceEntity: EntityDescription, mapping: EntityStoreLayout) throws
    -> (count: Int, sentence: String)?
  {
    let table = mapping.tableName
    let own = mapping.entityNumber
    // The property by its name in the store's version.
    let sourceProperty: String? = {
      guard let property = change.property else { return nil }
      if change.kind == .attributeRemoved || change.kind == .relationshipRemoved { return property }
      let target = self.target
      guard let entityID = target.entityID(named: change.entity) else { return property }
      if let attribute = target.attribute(named: property, in: entityID) {
        let sources = store.allAttributes(of: sourceEntity.id)
        return sources.first {
          $0.versionIdentity == attribute.versionIdentity || $0.name == attribute.renamingIdentifier
        }?
        .name ?? property
      }
      if let relationship = target.relationship(named: property, in: entityID)?.relationship {
        let sources = store.allRelationships(of: sourceEntity.id).map(\.relationship)
        return sources.first {
          $0.versionIdentity == relationship.versionIdentity || $0.name == relationship.renamingIdentifier
        }?.name ?? property
      }
      return property
    }()
    guard let property = sourceProperty else { return nil }
    if let column = mapping.column(forAttribute: property) {
      let n = try count(
        "SELECT COUNT(*) FROM \(identifier: table) WHERE Z_ENT = \(own) AND \(identifier: column.column) IS NOT NULL")
      return (
        n,
        "\(objects(n)) of '\(change.entity)' in '\(storePath)' \(n == 1 ? "holds" : "hold") a value of '\(property)' that migrating to '\(target.name)' drops"
      )
    }
    if let toOne = mapping.toOne(named: property) {
      let n = try count(
        "SELECT COUNT(*) FROM \(identifier: table) WHERE Z_ENT = \(own) AND \(identifier: toOne.foreignKeyColumn) IS NOT NULL"
      )
      return (
        n,
        "\(objects(n)) of '\(change.entity)' in '\(storePath)' \(n == 1 ? "has" : "have") a link through '\(property)' that migrating to '\(target.name)' drops"
      )
    }
    if let toMany = mapping.toMany(named: property) {
      let links: SQLiteSQL
      switch toMany.storage {
      case .inverseForeignKey(let key):
        links =
          "SELECT \(identifier: key.foreignKeyColumn) AS s FROM \(identifier: key.table) WHERE \(identifier: key.foreignKeyColumn) IN (SELECT Z_PK FROM \(identifier: table) WHERE Z_ENT = \(own))"
      case .joinTable(let join):
        links =
          "SELECT \(identifier: join.sourceColumn) AS s FROM \(identifier: join.table) WHERE \(identifier: join.sourceColumn) IN (SELECT Z_PK FROM \(identifier: table) WHERE Z_ENT = \(own))"
      }
      if change.kind == .toManyBecameToOne {
        let n = try count("SELECT COUNT(*) FROM (SELECT s FROM (\(links)) GROUP BY s HAVING COUNT(*) > 1)")
        return (
          n,
          "\(objects(n)) of '\(change.entity)' in '\(storePath)' \(n == 1 ? "has" : "have") more than one object in '\(property)'; migrating to '\(target.name)' keeps one each"
        )
      }
      let n = try count("SELECT COUNT(*) FROM (\(links))")
      return (
        n,
        "\(n) link\(n == 1 ? "" : "s") of '\(property)' from objects of '\(change.entity)' in '\(storePath)' \(n == 1 ? "is" : "are") dropped by migrating to '\(target.name)'"
      )
    }
    return nil
  }
}
