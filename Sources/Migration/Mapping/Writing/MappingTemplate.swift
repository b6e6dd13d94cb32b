import DataModel
import Foundation

/// A new mapping model between two versions, filled in as Xcode's "New Mapping Model" fills it:
/// one entity mapping per destination entity, from the source entity it continues (by renaming
/// identifier, then by name) or as an add mapping, and one property mapping per destination
/// property. Expressions are stored only where the default would be wrong: a property renamed
/// through its renaming identifier reads the old name.
public enum MappingTemplate {
  /// The mapping from `source` to `destination`.
  ///
  /// - Parameters:
  ///   - name: the mapping's name (its bundle is `name.xcmappingmodel`).
  ///   - source: the version the mapping maps from.
  ///   - destination: the version it maps to.
  ///   - sourcePath: the source `.xcdatamodel` path recorded in the file (relative to the mapping
  ///     model's folder, as Xcode records it when the model is in the same project).
  ///   - destinationPath: the destination `.xcdatamodel` path recorded in the file.
  public static func make(
    name: String, source: ModelVersion, destination: ModelVersion, sourcePath: String, destinationPath: String
  ) -> MappingModelSource {
    var mappings: [MappingModelSource.EntityMappingSource] = []
    let pairs = destination.entities.map { ($0, continued(from: $0, in: source)) }
    // The name each destination entity's mapping gets, for relationship expressions.
    var mappingNames: [String: String] = [:]
    for (entity, sourceEntity) in pairs {
      mappingNames[entity.name] = MappingDefaults.name(
        of: .init(sourceEntity: sourceEntity?.name, destinationEntity: entity.name))
    }
    for (index, (entity, sourceEntity)) in pairs.enumerated() {
      var mapping = MappingModelSource.EntityMappingSource(
        sourceEntity: sourceEntity?.name, destinationEntity: entity.name, number: index + 1)
      guard let destinationID = destination.entityID(named: entity.name) else { continue }
      let sourceID = sourceEntity.flatMap { source.entityID(named: $0.name) }
      for attribute in destination.allAttributes(of: destinationID) where !attribute.isTransient {
        var property = MappingModelSource.PropertyMappingSource(name: attribute.name)
        if let sourceID,
          let old = continued(attribute, among: source.allAttributes(of: sourceID)), old.name != attribute.name
        {
          property.expression = .source(old.name)
        }
        mapping.attributeMappings.append(property)
      }
      for (_, relationship) in destination.allRelationships(of: destinationID) where !relationship.isTransient {
        var property = MappingModelSource.PropertyMappingSource(name: relationship.name)
        if let sourceID,
          let old = continued(relationship, among: source.allRelationships(of: sourceID).map(\.relationship)),
          old.name != relationship.name
        {
          let accepted = destination.entityID(named: relationship.destinationEntityName).map { target in
            ([target] + destination.descendants(of: target)).map { destination[$0].name }
          }
          let candidates = (accepted ?? []).compactMap { mappingNames[$0] }
          property.expression =
            candidates.count == 1
            ? .destinationInstances(entityMapping: candidates[0], sourceRelationship: old.name)
            : .destinationInstances(sourceRelationshipNamed: old.name)
        }
        mapping.relationshipMappings.append(property)
      }
      mappings.append(mapping)
    }
    return MappingModelSource(
      path: "\(name).xcmappingmodel/xcmapping.xml", name: name, format: .xcmappingmodel,
      source: .init(modelPath: sourcePath, snapshot: source),
      destination: .init(modelPath: destinationPath, snapshot: destination), entityMappings: mappings)
  }

  /// The source entity a destination entity continues: the one its renaming identifier names
  /// (or shares), else the one of the same name.
  static func continued(from entity: EntityDescription, in source: ModelVersion) -> EntityDescription? {
    if let identifier = entity.renamingIdentifier, !identifier.isEmpty {
      if let found = source.entities.first(where: { $0.versionIdentity == identifier || $0.name == identifier }) {
        return found
      }
    }
    return source.entity(named: entity.name)
  }

  static func continued(_ attribute: AttributeDescription, among candidates: [AttributeDescription])
    -> AttributeDescription?
  {
    if let identifier = attribute.renamingIdentifier, !identifier.isEmpty,
      let found = candidates.first(where: { $0.versionIdentity == identifier || $0.name == identifier })
    {
      return found
    }
    return candidates.first { $0.name == attribute.name }
  }

  static func continued(_ relationship: RelationshipDescription, among candidates: [RelationshipDescription])
    -> RelationshipDescription?
  {
    if let identifier = relationship.renamingIdentifier, !identifier.isEmpty,
      let found = candidates.first(where: { $0.versionIdentity == identifier || $0.name == identifier })
    {
      return found
    }
    return candidates.first { $0.name == relationship.name }
  }
}
