import DataModel
import Foundation
import Persistence

/// Reads a compiled mapping model (`.cdm`): the keyed archive of `NSMappingModel` that Xcode's
/// mapping compiler makes and apps ship.
///
/// Everything is explicit there — names, mapping types, expressions, the source fetch — and each
/// entity mapping records the version hashes of its source and destination entities, which is
/// how Core Data (and ``MappingModelLoader``) finds the versions it maps.
enum CompiledMappingReader {
  static func read(_ data: Data, path: String) throws(MappingReadError) -> MappingModelSource {
    let here = SourceLocation(file: path, line: 1, column: 1)
    do {
      let archive = try KeyedArchive(data: data)
      guard let root = try archive.root().object else {
        throw PropertyListError("the archive's root is not an object")
      }
      guard root.isKind(of: "NSMappingModel") else {
        throw PropertyListError("the archive holds an object of class \(root.className), not an NSMappingModel")
      }
      var mappings: [MappingModelSource.EntityMappingSource] = []
      var source = MappingModelSource.Side()
      var destination = MappingModelSource.Side()
      for (index, value) in (try root.array(forKey: "NSEntityMappings") ?? []).enumerated() {
        guard let object = value.object, object.isKind(of: "NSEntityMapping") else {
          throw PropertyListError("entity mapping \(index + 1) is not an NSEntityMapping")
        }
        let mapping = try readEntityMapping(object, number: index + 1)
        if let name = mapping.sourceEntity, let hash = mapping.sourceEntityVersionHash {
          source.recordedEntityHashes[name] = hash
        }
        if let name = mapping.destinationEntity, let hash = mapping.destinationEntityVersionHash {
          destination.recordedEntityHashes[name] = hash
        }
        mappings.append(mapping)
      }
      return MappingModelSource(
        path: path, name: MappingModelSource.mappingName(of: URL(fileURLWithPath: path)), format: .cdm,
        source: source, destination: destination, entityMappings: mappings)
    } catch let error as MappingReadError {
      throw error
    } catch {
      throw .at(
        here, "bad-compiled-mapping", "'\(path)' is not a readable compiled mapping model: \(error)",
        fix: "compile the mapping model again from its .xcmappingmodel, or pass the .xcmappingmodel itself")
    }
  }

  private static func readEntityMapping(_ object: KeyedArchive.Object, number: Int) throws
    -> MappingModelSource.EntityMappingSource
  {
    let typeCode = Int(try object.integer(forKey: "NSMappingType") ?? 0)
    guard let kind = MappingModel.EntityMapping.Kind(typeCode: typeCode) else {
      throw PropertyListError("entity mapping \(number) has the unknown mapping type \(typeCode)")
    }
    var mapping = MappingModelSource.EntityMappingSource(
      name: try object.string(forKey: "NSMappingName"), kind: kind,
      sourceEntity: try object.string(forKey: "NSSourceEntityName"),
      destinationEntity: try object.string(forKey: "NSDestinationEntityName"), number: number,
      policyClassName: try object.string(forKey: "NSEntityMigrationPolicyClassName").flatMap { $0.isEmpty ? nil : $0 },
      sourceEntityVersionHash: try data(object, "NSSourceEntityVersionHash"),
      destinationEntityVersionHash: try data(object, "NSDestinationEntityVersionHash"))
    if let expression = try object.object(forKey: "NSSourceExpression") {
      mapping.sourceExpression = try MappingExpression(archived: expression)
      mapping.sourceFilter = mapping.sourceExpression.flatMap(MappingDefaults.sourceFilter(of:))
    }
    if case .dictionary(let pairs)? = try object.value(forKey: "NSUserInfo") {
      for (key, value) in pairs {
        guard let key = key.string else {
          throw PropertyListError("entity mapping \(number): a user info key is not a string")
        }
        mapping.userInfo[key] = UserInfoArchive.text(value)
      }
    }
    mapping.attributeMappings = try propertyMappings(object, "NSAttributeMappings", number: number)
    mapping.relationshipMappings = try propertyMappings(object, "NSRelationshipMappings", number: number)
    return mapping
  }

  private static func propertyMappings(_ object: KeyedArchive.Object, _ key: String, number: Int) throws
    -> [MappingModelSource.PropertyMappingSource]
  {
    try (object.array(forKey: key) ?? []).map { value in
      guard let property = value.object, property.isKind(of: "NSPropertyMapping") else {
        throw PropertyListError("entity mapping \(number): an element of \(key) is not an NSPropertyMapping")
      }
      guard let name = try property.string(forKey: "NSDestinationPropertyName") else {
        throw PropertyListError("entity mapping \(number): a property mapping without a destination property name")
      }
      let expression = try property.object(forKey: "NSValueExpression").map { try MappingExpression(archived: $0) }
      return MappingModelSource.PropertyMappingSource(name: name, expression: expression)
    }
  }

  private static func data(_ object: KeyedArchive.Object, _ key: String) throws -> Data? {
    guard let value = try object.value(forKey: key) else { return nil }
    guard case .data(let data) = value else { throw object.mismatch(key, expected: "data") }
    return data
  }
}
