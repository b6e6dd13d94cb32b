import DataModel
import Foundation

/// What Apple's mapping compiler (`mapc`) fills in when it compiles an `.xcmappingmodel`, so that
/// a mapping read from Xcode's file means what the `.cdm` made from it means (see
/// `docs/mappings.md` for which of these are observed and which are the conservative reading):
///
/// - an entity mapping's name: the stored one, else `<Source>To<Destination>`, else the one
///   entity it names (an add mapping is named after its destination);
/// - its type: custom with a policy class, add without a source, remove without a destination,
///   copy otherwise;
/// - its source: `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:",
///   "<Source>", "<filter or TRUEPREDICATE>"), $manager.sourceContext, NO)`;
/// - an attribute mapping with no stored expression: `$source.<name>` when the source entity has
///   that attribute, else nil (always nil on an add mapping);
/// - a relationship mapping with no stored expression: the destination instances, through the
///   entity mapping chosen in the inspector when there is one, else through the only entity
///   mapping of the relationship's destination entity (and its sub-entities), else through the
///   source relationship when several mappings make such objects; nil without a source
///   relationship of that name;
/// - property mappings ordered by name.
enum MappingDefaults {
  /// The entity mappings of `source` with the compiler's defaults applied.
  static func entityMappings(
    of source: MappingModelSource, sourceModel: ModelVersion?, destinationModel: ModelVersion?,
    sourceHashes: [String: Data], destinationHashes: [String: Data]
  ) -> [MappingModel.EntityMapping] {
    let names = source.entityMappings.map(name(of:))
    return source.entityMappings.enumerated().map { (index, mapping) in
      let kind = mapping.kind ?? defaultKind(of: mapping)
      var sourceExpression = mapping.sourceExpression
      if sourceExpression == nil, let entity = mapping.sourceEntity, source.format == .xcmappingmodel {
        sourceExpression = .sourceFetch(entity: entity, predicate: mapping.sourceFilter ?? "TRUEPREDICATE")
      }
      let sourceEntity = mapping.sourceEntity.flatMap { sourceModel?.entityID(named: $0) }
      var attributes: [MappingModel.PropertyMapping] = []
      for property in mapping.attributeMappings {
        var value = property.expression
        if value == nil, source.format == .xcmappingmodel, kind != .add, let model = sourceModel,
          let entity = sourceEntity,
          model.attribute(named: property.name, in: entity) != nil
        {
          value = .source(property.name)
        }
        attributes.append(MappingModel.PropertyMapping(destinationProperty: property.name, value: value))
      }
      var relationships: [MappingModel.PropertyMapping] = []
      for property in mapping.relationshipMappings {
        var value = property.expression
        if value == nil, source.format == .xcmappingmodel, kind != .add {
          value = defaultRelationshipExpression(
            property, mapping: mapping, mappings: source.entityMappings, names: names, sourceModel: sourceModel,
            destinationModel: destinationModel)
        }
        relationships.append(MappingModel.PropertyMapping(destinationProperty: property.name, value: value))
      }
      return MappingModel.EntityMapping(
        name: names[index], kind: kind, sourceEntity: mapping.sourceEntity,
        destinationEntity: mapping.destinationEntity,
        sourceFilter: mapping.sourceFilter, sourceExpression: sourceExpression,
        attributeMappings: attributes.sorted { $0.destinationProperty < $1.destinationProperty },
        relationshipMappings: relationships.sorted { $0.destinationProperty < $1.destinationProperty },
        policyClassName: mapping.policyClassName, userInfo: mapping.userInfo,
        sourceEntityVersionHash: mapping.sourceEntityVersionHash ?? mapping.sourceEntity.flatMap { sourceHashes[$0] },
        destinationEntityVersionHash: mapping.destinationEntityVersionHash
          ?? mapping.destinationEntity.flatMap { destinationHashes[$0] })
    }
  }

  /// The name an entity mapping gets.
  static func name(of mapping: MappingModelSource.EntityMappingSource) -> String {
    if let name = mapping.name { return name }
    switch (mapping.sourceEntity, mapping.destinationEntity) {
    case (let source?, let destination?): return "\(source)To\(destination)"
    case (nil, let destination?): return destination
    case (let source?, nil): return source
    case (nil, nil): return "Mapping\(mapping.number)"
    }
  }

  static func defaultKind(of mapping: MappingModelSource.EntityMappingSource) -> MappingModel.EntityMapping.Kind {
    if mapping.policyClassName != nil { return .custom }
    switch (mapping.sourceEntity, mapping.destinationEntity) {
    case (nil, nil): return .undefined
    case (nil, _): return .add
    case (_, nil): return .remove
    default: return .copy
    }
  }

  private static func defaultRelationshipExpression(
    _ property: MappingModelSource.PropertyMappingSource, mapping: MappingModelSource.EntityMappingSource,
    mappings: [MappingModelSource.EntityMappingSource], names: [String], sourceModel: ModelVersion?,
    destinationModel: ModelVersion?
  ) -> MappingExpression? {
    if let keyPath = property.sourceKeyPath, let through = property.sourceMappingName {
      // The inspector records `$source.country` (older files: `country`).
      let path = keyPath.hasPrefix("$source.") ? String(keyPath.dropFirst("$source.".count)) : keyPath
      return .function(
        .manager, selector: MappingExpression.Selector.destinationInstancesForEntityMapping,
        arguments: [.string(through), .source(path)])
    }
    guard let sourceModel, let sourceName = mapping.sourceEntity,
      let sourceID = sourceModel.entityID(named: sourceName),
      sourceModel.relationship(named: property.name, in: sourceID) != nil
    else { return nil }
    // Which entity mappings make objects the destination relationship can hold.
    var candidates: [String] = []
    if let destinationModel, let destinationName = mapping.destinationEntity,
      let destinationID = destinationModel.entityID(named: destinationName),
      let relationship = destinationModel.relationship(named: property.name, in: destinationID),
      let target = destinationModel.entityID(named: relationship.relationship.destinationEntityName)
    {
      let accepted = Set([target] + destinationModel.descendants(of: target)).map { destinationModel[$0].name }
      candidates = zip(mappings, names).filter { pair in
        pair.0.destinationEntity.map(accepted.contains) ?? false
      }.map(\.1)
    }
    if candidates.count == 1 {
      return .destinationInstances(entityMapping: candidates[0], sourceRelationship: property.name)
    }
    return .destinationInstances(sourceRelationshipNamed: property.name)
  }

  /// The filter predicate of a source fetch written as mapc writes it; nil for TRUEPREDICATE or
  /// another kind of source expression.
  static func sourceFilter(of expression: MappingExpression) -> String? {
    guard case .fetch(let request, _, _) = expression,
      case .function(let receiver, let selector, let arguments) = request,
      receiver.variableName == MappingExpression.Variable.manager,
      selector == MappingExpression.Selector.fetchRequestForSourceEntity, arguments.count == 2,
      case .string(let predicate)? = arguments[1].constantValue, predicate != "TRUEPREDICATE"
    else { return nil }
    return predicate
  }
}
