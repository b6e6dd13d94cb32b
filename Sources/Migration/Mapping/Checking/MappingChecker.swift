import DataModel
import Foundation
import Persistence

/// Checks a mapping model against the two versions it maps, as Xcode's mapping compiler and
/// Core Data's migration manager would find out — before a store is touched.
///
/// Errors: the mapping is orphaned (a side matches no version); an entity or property it names
/// does not exist on its side; a destination entity has two mappings from the same source
/// entity; a required destination attribute without a default value gets no value; an
/// expression reads a source key that does not exist; a source filter that does not parse.
/// Warnings: a custom policy class, which a migration needs registered (named so that it can be
/// ported). Each diagnostic points at the object's element in `xcmapping.xml`.
public enum MappingChecker {
  /// The diagnostics of a loaded mapping model, in the order of the file's entity mappings.
  public static func check(_ loaded: LoadedMappingModel, bundle: ModelBundle) -> [Diagnostic] {
    if let orphaned = MappingOrphan.diagnostic(for: loaded, bundle: bundle) { return [orphaned] }
    guard let sourceName = loaded.source.version, let destinationName = loaded.destination.version,
      let sourceModel = bundle.version(named: sourceName), let destinationModel = bundle.version(named: destinationName)
    else { return [] }
    var checker = Run(
      loaded: loaded, source: sourceModel, destination: destinationModel,
      fileLocation: loaded.file.location ?? SourceLocation(file: loaded.file.path, line: 1, column: 1))
    checker.checkAll()
    return checker.diagnostics
  }

  private struct Run {
    let loaded: LoadedMappingModel
    let source: ModelVersion
    let destination: ModelVersion
    let fileLocation: SourceLocation
    var diagnostics: [Diagnostic] = []

    mutating func checkAll() {
      var seenPairs: [String: String] = [:]
      for (index, mapping) in loaded.mapping.entityMappings.enumerated() {
        let written = index < loaded.file.entityMappings.count ? loaded.file.entityMappings[index] : nil
        let location = written?.location ?? fileLocation
        let sourceID = mapping.sourceEntity.flatMap { source.entityID(named: $0) }
        let destinationID = mapping.destinationEntity.flatMap { destination.entityID(named: $0) }
        if let name = mapping.sourceEntity, sourceID == nil {
          error(
            "unknown-source-entity",
            "entity mapping '\(mapping.name)' maps from '\(name)', which version '\(source.name)' does not have",
            at: location, entity: name, fix: "choose a source entity of '\(source.name)' in the mapping editor")
        }
        if let name = mapping.destinationEntity, destinationID == nil {
          error(
            "unknown-destination-entity",
            "entity mapping '\(mapping.name)' maps to '\(name)', which version '\(destination.name)' does not have",
            at: location, entity: name,
            fix: "choose a destination entity of '\(destination.name)' in the mapping editor")
        }
        if let from = mapping.sourceEntity, let to = mapping.destinationEntity {
          let key = "\(from)\u{0}\(to)"
          if let first = seenPairs[key] {
            error(
              "duplicate-entity-mapping",
              "entity mappings '\(first)' and '\(mapping.name)' both map '\(from)' to '\(to)'",
              at: location, entity: to,
              fix: "remove one of them: each destination entity takes at most one mapping per source entity")
          } else {
            seenPairs[key] = mapping.name
          }
        }
        if let policy = mapping.policyClassName {
          diagnostics.append(
            .warning(
              "custom-policy",
              "entity mapping '\(mapping.name)' uses the custom migration policy '\(policy)'",
              at: location, entity: mapping.destinationEntity,
              fix:
                "a migration through this mapping needs an EntityMigrationPolicy subclass registered under that name (MigrationPolicies.register); `modelc migrate` alone refuses it"
            ))
        }
        if let filter = mapping.sourceFilter {
          do {
            _ = try FetchPredicate(format: filter)
          } catch {
            self.error(
              "bad-source-filter", "the source filter of entity mapping '\(mapping.name)' does not parse: \(error)",
              at: location, entity: mapping.sourceEntity, fix: "correct the filter predicate in the mapping editor")
          }
        }
        checkProperties(mapping, written: written, location: location, sourceID: sourceID, destinationID: destinationID)
      }
    }

    mutating func checkProperties(
      _ mapping: MappingModel.EntityMapping, written: MappingModelSource.EntityMappingSource?,
      location: SourceLocation, sourceID: EntityID?, destinationID: EntityID?
    ) {
      func propertyLocation(_ name: String) -> SourceLocation {
        let all = (written?.attributeMappings ?? []) + (written?.relationshipMappings ?? [])
        return all.first { $0.name == name }?.location ?? location
      }
      guard let destinationID else { return }
      let entityName = destination[destinationID].name
      for property in mapping.attributeMappings
      where destination.attribute(named: property.destinationProperty, in: destinationID) == nil {
        error(
          "unknown-destination-property",
          "entity mapping '\(mapping.name)' sets attribute '\(property.destinationProperty)', which \(entityName) does not have in '\(destination.name)'",
          at: propertyLocation(property.destinationProperty), entity: entityName,
          property: property.destinationProperty,
          fix: "remove the attribute mapping, or add the attribute to the destination version")
      }
      for property in mapping.relationshipMappings
      where destination.relationship(named: property.destinationProperty, in: destinationID) == nil {
        error(
          "unknown-destination-property",
          "entity mapping '\(mapping.name)' sets relationship '\(property.destinationProperty)', which \(entityName) does not have in '\(destination.name)'",
          at: propertyLocation(property.destinationProperty), entity: entityName,
          property: property.destinationProperty,
          fix: "remove the relationship mapping, or add the relationship to the destination version")
      }
      // Required attributes without a default must get a value, unless a policy makes the objects.
      if mapping.kind != .remove, mapping.kind != .add, mapping.sourceEntity != nil, mapping.policyClassName == nil {
        for attribute in destination.allAttributes(of: destinationID)
        where !attribute.isOptional && attribute.isPersistent && attribute.defaultValue == nil
          && attribute.defaultValueString == nil
        {
          let value = mapping.attributeMappings.first { $0.destinationProperty == attribute.name }?.value
          if value == nil {
            error(
              "missing-required-value",
              "entity mapping '\(mapping.name)' gives the required attribute \(entityName).\(attribute.name) no value, and it has no default",
              at: propertyLocation(attribute.name), entity: entityName, property: attribute.name,
              fix:
                "set a value expression for '\(attribute.name)' (e.g. $source.\(attribute.name) or a constant), give the attribute a default value, or make it optional"
            )
          }
        }
      }
      // Expressions may only read source keys that exist.
      guard let sourceID else { return }
      for property in mapping.attributeMappings + mapping.relationshipMappings {
        guard let value = property.value else { continue }
        for keyPath in value.sourceKeyPaths {
          if let problem = missingKey(keyPath, from: sourceID) {
            error(
              "unknown-source-key",
              "the value of \(entityName).\(property.destinationProperty) in entity mapping '\(mapping.name)' reads $source.\(keyPath), but \(problem)",
              at: propertyLocation(property.destinationProperty), entity: entityName,
              property: property.destinationProperty,
              fix:
                "correct the key path in the value expression; the source entity is \(source[sourceID].name) of '\(source.name)'"
            )
          }
        }
      }
    }

    /// Why a key path cannot be read from the source entity; nil when every key exists.
    func missingKey(_ keyPath: String, from start: EntityID) -> String? {
      var entity: EntityID? = start
      for component in keyPath.split(separator: ".").map(String.init) {
        if component.hasPrefix("@") { continue }
        guard let current = entity else { return nil }
        if source.attribute(named: component, in: current) != nil {
          entity = nil
          continue
        }
        if let relationship = source.relationship(named: component, in: current) {
          entity = source.entityID(named: relationship.relationship.destinationEntityName)
          continue
        }
        return "\(source[current].name) has no property '\(component)' in '\(source.name)'"
      }
      return nil
    }

    mutating func error(
      _ code: String, _ message: String, at location: SourceLocation, entity: String? = nil, property: String? = nil,
      fix: String
    ) {
      diagnostics.append(.error(code, message, at: location, entity: entity, property: property, fix: fix))
    }
  }
}
