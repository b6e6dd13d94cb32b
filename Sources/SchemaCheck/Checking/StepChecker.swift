import DataModel
import Migration

/// The findings of one version step: whether inference can carry it out (or a mapping model
/// does), what it drops, what it requires, what looks like a forgotten renaming identifier,
/// what changes without changing a hash, and whether it can be undone.
///
/// Every finding comes from ``ModelDiff`` and ``LightweightInference`` — the same analysis
/// `modelc diff` and `modelc migrate` use — so the three commands agree about every step.
struct StepChecker {
  let step: VersionStep
  let mapping: MappingModelReference?
  let diff: ModelDiff

  init(step: VersionStep, mapping: MappingModelReference?) {
    self.step = step
    self.mapping = mapping
    self.diff = ModelDiff(from: step.source, to: step.destination)
  }

  private var source: ModelVersion { step.source }
  private var destination: ModelVersion { step.destination }
  private var sourceLocator: ElementLocator { ElementLocator(version: source) }
  private var destinationLocator: ElementLocator { ElementLocator(version: destination) }

  /// Every finding of the step.
  func findings() -> [Finding] {
    var findings = inference(diff)
    for change in diff.allChanges {
      findings += changeFindings(change)
    }
    findings += RenameDetector(step: step, diff: diff).findings()
    findings += hashUnchangedEdits(diff)
    findings += downgrade(diff)
    return findings
  }

  private func finding(
    _ rule: CheckRule, _ message: String, help: String, at location: SourceLocation?, entity: String? = nil,
    property: String? = nil
  ) -> Finding {
    Finding(
      rule: rule, message: message, help: help, location: location, model: step.modelPath,
      fromVersion: source.name, toVersion: destination.name, entity: entity, property: property)
  }

  /// Where a change is: its element in the newer version, else in the older one (a removal),
  /// else the newer version's `<model>`.
  private func location(entity: String, property: String?) -> SourceLocation? {
    if destination.entity(named: entity) != nil, let location = destinationLocator.property(property, of: entity),
      property.map({ destinationHasProperty($0, entity) }) ?? true
    {
      return location
    }
    if let sourceEntity = sourceName(of: entity), let location = sourceLocator.property(property, of: sourceEntity) {
      return location
    }
    return destinationLocator.best(entity: entity, property: property)
  }

  private func destinationHasProperty(_ property: String, _ entity: String) -> Bool {
    guard let id = destination.entityID(named: entity) else { return false }
    return destination.attribute(named: property, in: id) != nil
      || destination.relationship(named: property, in: id) != nil
  }

  /// The older name of an entity the diff names by its newer name.
  private func sourceName(of entity: String) -> String? {
    if let matched = diff.entities.first(where: { $0.destinationEntity == entity }) { return matched.sourceEntity }
    return source.entity(named: entity) != nil ? entity : nil
  }

  // MARK: - Inference

  private func inference(_ diff: ModelDiff) -> [Finding] {
    guard !diff.isHashCompatible else { return [] }
    let refusals: [MigrationRefusal]
    do {
      _ = try LightweightInference.mappingModel(from: source, to: destination)
      return []
    } catch {
      refusals = error.refusals
    }
    // A mapping model for the step carries stores across it whatever inference refuses.
    if mapping != nil { return [] }
    let first = refusals[0]
    let reasons = refusals.map { "\($0.entity)\($0.property.map { ".\($0)" } ?? ""): \($0.change) (\($0.reason))" }
    return [
      finding(
        RuleCatalogue.stepNotInferable,
        "\(step.title) cannot be migrated by lightweight inference and no mapping model covers it: \(reasons.joined(separator: "; "))",
        help:
          "add a mapping model from '\(source.name)' to '\(destination.name)' (see docs/migrations.md), or split the change into versions inference can migrate",
        at: location(entity: first.entity, property: first.property), entity: first.entity, property: first.property)
    ]
  }

  // MARK: - Single changes

  private func changeFindings(_ change: SchemaChange) -> [Finding] {
    var findings: [Finding] = []
    let at = location(entity: change.entity, property: change.property)
    let name = change.property.map { "'\(change.entity).\($0)'" } ?? "'\(change.entity)'"
    switch change.kind {
    case .attributeAdded, .attributeMadePersistent, .attributeMadeRequired:
      guard change.changesHash, let property = change.property, let entity = destination.entity(named: change.entity),
        let attribute = destination.attribute(named: property, in: entity.id), attribute.isPersistent,
        !attribute.isOptional, attribute.defaultValue == nil
      else { break }
      let what = change.kind == .attributeMadeRequired ? "was made required" : "was added as required"
      findings.append(
        finding(
          RuleCatalogue.requiredWithoutDefault,
          "attribute \(name) \(what) in '\(destination.name)' without a default value; existing objects have no value for it",
          help:
            "add defaultValueString=\"…\" to <attribute name=\"\(property)\"> (Xcode: Data Model inspector › Default Value), or keep it optional (optional=\"YES\")",
          at: at, entity: change.entity, property: property))
    case .attributeTypeChanged where change.changesHash:
      findings.append(
        finding(
          RuleCatalogue.typeChange, "attribute \(name): \(change.detail)",
          help:
            "lightweight migration cannot convert the values: add a new attribute, copy the values in a mapping model, then remove '\(change.property ?? "")'",
          at: at, entity: change.entity, property: change.property))
    default:
      break
    }
    if change.losesData && change.kind != .attributeTypeChanged {
      findings.append(
        finding(
          RuleCatalogue.dataLoss, "\(name): \(change.detail) when stores migrate to '\(destination.name)'",
          help: dataLossHelp(change.kind),
          at: at, entity: change.entity, property: change.property))
    }
    return findings
  }

  private func dataLossHelp(_ kind: SchemaChange.Kind) -> String {
    switch kind {
    case .entityRemoved:
      "if the entity was renamed, keep it and set its renaming identifier (elementID) to the old name instead"
    case .attributeRemoved, .relationshipRemoved:
      "if the property was renamed, set the new property's renaming identifier (elementID) to the old name instead of removing it"
    case .toManyBecameToOne:
      "objects beyond the first of each relationship are unlinked; keep it to-many, or decide which to keep in a mapping model"
    case .orderingChanged:
      "the order of the related objects is dropped; keep the relationship ordered if the order matters"
    default:
      "make sure the stored values are no longer needed before releasing this version"
    }
  }

  // MARK: - Changes that keep the hashes

  /// Kinds that change what a store should hold but not a version hash.
  private static let hashNeutralKinds: Set<SchemaChange.Kind> = [
    .defaultValueChanged, .validationChanged, .fetchIndexesChanged, .deletionRuleChanged, .derivationChanged,
    .transformerChanged,
  ]

  private func hashUnchangedEdits(_ diff: ModelDiff) -> [Finding] {
    var findings: [Finding] = []
    for entityDiff in diff.entities where !entityDiff.changesHash && entityDiff.sourceEntity != nil {
      for change in entityDiff.changes where Self.hashNeutralKinds.contains(change.kind) {
        let owner = change.property.map { "<attribute name=\"\($0)\">" } ?? "<entity name=\"\(change.entity)\">"
        findings.append(
          finding(
            RuleCatalogue.hashUnchangedEdit,
            "'\(change.entity)\(change.property.map { ".\($0)" } ?? "")': \(change.detail) without changing its version hash; stores at '\(source.name)' are not migrated, so the change only reaches new stores",
            help:
              "if existing stores must change too, add versionHashModifier=\"…\" to \(owner) in '\(destination.name)' to force a migration",
            at: location(entity: change.entity, property: change.property), entity: change.entity,
            property: change.property))
      }
    }
    return findings
  }

  // MARK: - Downgrade

  /// The kinds of forward change whose reverse inference can refuse: the reverse of each
  /// refusal of ``LightweightInference`` (a type change, an added or persistent-made property, a
  /// property made required, an entity made abstract, a destination change, a to-many made
  /// to-one, tightened counts, merged hierarchies), and renames, whose matching inference redoes.
  /// A step with none of them migrates back by inference, so the reverse is not computed.
  private static let reversibleRefusalKinds: Set<SchemaChange.Kind> = [
    .attributeTypeChanged, .attributeRemoved, .attributeMadeTransient, .attributeMadeOptional, .abstractChanged,
    .destinationChanged, .toOneBecameToMany, .countChanged, .relationshipMadeOptional, .relationshipRemoved,
    .relationshipMadeTransient, .parentChanged, .entityRenamed, .attributeRenamed, .relationshipRenamed,
    .attributeMovedInHierarchy, .relationshipMovedInHierarchy,
  ]

  private func downgrade(_ diff: ModelDiff) -> [Finding] {
    guard !diff.isHashCompatible,
      diff.allChanges.contains(where: { $0.changesHash && Self.reversibleRefusalKinds.contains($0.kind) })
    else { return [] }
    do {
      _ = try LightweightInference.mappingModel(from: destination, to: source)
      return []
    } catch {
      let blocks = error.refusals.map {
        "\($0.entity)\($0.property.map { ".\($0)" } ?? ""): \($0.change) (\($0.reason))"
      }
      let first = error.refusals[0]
      let reverseLocator = ElementLocator(version: source)
      let at =
        destination.entity(named: first.entity) != nil
        ? destinationLocator.best(entity: first.entity, property: first.property)
        : reverseLocator.best(entity: first.entity, property: first.property)
      return [
        finding(
          RuleCatalogue.notDowngradable,
          "a store at '\(destination.name)' cannot be migrated back to '\(source.name)' by inference (what an app rollback needs): \(blocks.joined(separator: "; "))",
          help:
            "an app rollback to the version using '\(source.name)' would need a mapping model from '\(destination.name)' back to '\(source.name)'",
          at: at, entity: first.entity, property: first.property)
      ]
    }
  }
}
