import DataModel
import Foundation
import Persistence

/// The model versions a mapping model embeds (`sourcemodeldata`, `destinationmodeldata`):
/// keyed archives of Xcode's editing model (`XDPMModel`), read far enough to rebuild a
/// ``ModelVersion`` whose version hashes say which version of a bundle the mapping was made for.
///
/// The editing model is a UML-like graph. The root package's classes are `XDPMEntity` objects;
/// each owns `XDPMAttribute` and `XDPMRelationship` properties; Core Data's settings sit in
/// "stereotypes" (`XD_PStereotype` for an entity, `XD_PPropStereotype` for any property,
/// `XD_PAtt_Stereotype` for attributes, `XD_PR_Stereotype` for relationships), as owned
/// attributes whose `_default` is the value; a parent entity is a generalization's `_general`.
/// Everything the version hashes use is read: names, abstractness, parents, optional and
/// transient flags, attribute types and external storage, relationship destinations,
/// inverses, counts and ordering, version hash modifiers and uniqueness constraints.
package enum ModelSnapshot {
  /// Rebuilds the model version a snapshot holds.
  ///
  /// - Throws: `PropertyListError` when the data is not a keyed archive of an `XDPMModel`, or
  ///   when an entity or property is missing what the hashes need.
  package static func decode(_ data: Data, name: String) throws -> ModelVersion {
    let archive = try KeyedArchive(data: data)
    guard let root = try archive.root().object else {
      throw PropertyListError("the model snapshot's root is not an object")
    }
    guard root.isKind(of: "XDPMModel") else {
      throw PropertyListError("the model snapshot is an archive of \(root.className), not of Xcode's XDPMModel")
    }
    guard let package = try root.object(forKey: "_xd_rootPackage") else {
      throw PropertyListError("the model snapshot has no root package")
    }
    var entities: [EntityDescription] = []
    for (_, value) in try dictionary(package, "XDBucketForClassesstorage") {
      guard let entity = value.object, entity.isKind(of: "XDPMEntity") else { continue }
      entities.append(try decodeEntity(entity))
    }
    entities.sort { $0.name < $1.name }
    var version = ModelVersion(name: name, entities: entities)
    if let identifier = try root.string(forKey: "_modelVersionIdentifier"), !identifier.isEmpty {
      version.versionIdentifier = identifier
    }
    return version
  }

  private static func decodeEntity(_ object: KeyedArchive.Object) throws -> EntityDescription {
    let name = try requiredName(object)
    let settings = try stereotypeValues(object)
    var entity = EntityDescription(name: name)
    entity.isAbstract =
      try settings["XD_PSK_isAbstract"].flatMap(boolean) ?? object.bool(forKey: "_isAbstract") ?? false
    entity.versionHashModifier = try settings["XD_PSK_versionHashModifier"].flatMap(text)
    entity.renamingIdentifier = try settings["XD_PSK_elementID"].flatMap(text)
    entity.representedClassName = try settings["XD_PSK_entityClassName"].flatMap(text)
    if let generalizations = try object.array(forKey: "XDBucketForGeneralizationsstorage"),
      let general = try generalizations.first?.object?.object(forKey: "_general")
    {
      entity.parentEntityName = try requiredName(general)
    }
    if case .array(let constraints)? = settings["XDPMUniquenessConstraints"] {
      entity.uniquenessConstraints = try constraints.map { constraint in
        guard case .array(let names) = constraint else {
          throw PropertyListError("entity \(name): a uniqueness constraint is not a list")
        }
        return UniquenessConstraint(properties: try names.map { try propertyName($0, entity: name) })
      }
    }
    for (_, value) in try dictionary(object, "XDBucketForOwnedAttributesstorage") {
      guard let property = value.object else { continue }
      if property.isKind(of: "XDPMAttribute") {
        entity.attributes.append(try decodeAttribute(property, entity: name))
      } else if property.isKind(of: "XDPMRelationship") {
        entity.relationships.append(try decodeRelationship(property, entity: name))
      }
    }
    entity.attributes.sort { $0.name < $1.name }
    entity.relationships.sort { $0.name < $1.name }
    return entity
  }

  private static func decodeAttribute(_ object: KeyedArchive.Object, entity: String) throws -> AttributeDescription {
    let name = try requiredName(object)
    let settings = try stereotypeValues(object)
    guard let code = settings["XD_PAttK_attributeType"].flatMap(integer) else {
      throw PropertyListError("attribute \(entity).\(name) has no attribute type in the model snapshot")
    }
    guard let type = AttributeType.allCases.first(where: { Int64($0.typeCode) == code }) else {
      throw PropertyListError("attribute \(entity).\(name) has the unknown attribute type code \(code)")
    }
    var attribute = AttributeDescription(
      name: name, attributeType: type, isOptional: try settings["XD_PPSK_isOptional"].flatMap(boolean) ?? true,
      isTransient: try settings["XD_PPSK_isTransient"].flatMap(boolean) ?? false)
    attribute.versionHashModifier = try settings["XD_PPSK_versionHashModifier"].flatMap(text)
    attribute.renamingIdentifier = try settings["XD_PPSK_elementID"].flatMap(text)
    attribute.isIndexed = try settings["XD_PPSK_isIndexed"].flatMap(boolean) ?? false
    attribute.isIndexedBySpotlight = try settings["XD_PPSK_isSpotlightIndexed"].flatMap(boolean) ?? false
    attribute.isStoredInExternalRecord = try settings["XD_PPSK_isStoredInTruthFile"].flatMap(boolean) ?? false
    attribute.allowsExternalBinaryDataStorage =
      try settings["XD_PAttK_allowsExternalBinaryDataStorage"].flatMap(boolean) ?? false
    attribute.preservesValueInHistoryOnDeletion =
      try settings["XD_PPSK_preserveValueOnDeletionInPersistentHistory"].flatMap(boolean) ?? false
    attribute.defaultValueString = try settings["XD_PAttK_defaultValueAsString"].flatMap(text)
    attribute.minValueString = try settings["XD_PAttK_minValueString"].flatMap(text)
    attribute.maxValueString = try settings["XD_PAttK_maxValueString"].flatMap(text)
    attribute.regularExpression = try settings["XD_PAttK_regularExpressionString"].flatMap(text)
    attribute.valueTransformerName = try settings["XD_PAttK_valueTransformerName"].flatMap(text)
    return attribute
  }

  private static func decodeRelationship(_ object: KeyedArchive.Object, entity: String) throws
    -> RelationshipDescription
  {
    let name = try requiredName(object)
    let settings = try stereotypeValues(object)
    guard let destination = settings["XD_PRK_destination"]?.object else {
      throw PropertyListError("relationship \(entity).\(name) has no destination in the model snapshot")
    }
    var inverseName: String?
    var inverseEntity: String?
    if let inverse = settings["XD_PRK_inverseRelationship"]?.object {
      inverseName = try requiredName(inverse)
      inverseEntity = try inverse.object(forKey: "_owner").map(requiredName)
    }
    let isToMany = try settings["XD_PRK_isToMany"].flatMap(boolean) ?? false
    let ruleCode = settings["XD_PRK_deleteRule"].flatMap(integer) ?? 1
    var relationship = RelationshipDescription(
      name: name, destinationEntityName: try requiredName(destination), inverseName: inverseName,
      inverseEntityName: inverseEntity, isOptional: try settings["XD_PPSK_isOptional"].flatMap(boolean) ?? true,
      isToMany: isToMany, isOrdered: try settings["XD_PRK_ordered"].flatMap(boolean) ?? false,
      deletionRule: DeletionRule.allCases.first { Int64($0.ruleCode) == ruleCode } ?? .nullify)
    relationship.isTransient = try settings["XD_PPSK_isTransient"].flatMap(boolean) ?? false
    relationship.versionHashModifier = try settings["XD_PPSK_versionHashModifier"].flatMap(text)
    relationship.renamingIdentifier = try settings["XD_PPSK_elementID"].flatMap(text)
    relationship.isIndexed = try settings["XD_PPSK_isIndexed"].flatMap(boolean) ?? false
    let minimum = settings["XD_PRK_minCount"].flatMap(integer).map(Int.init) ?? 0
    let maximum = settings["XD_PRK_maxCount"].flatMap(integer).map(Int.init) ?? (isToMany ? 0 : 1)
    relationship.minCountValue = minimum
    relationship.maxCountValue = maximum
    return relationship
  }

  // MARK: - Reading the editing model's parts

  /// The values of all of an element's stereotype settings, by setting name.
  private static func stereotypeValues(_ object: KeyedArchive.Object) throws -> [String: KeyedArchive.Value] {
    var values: [String: KeyedArchive.Value] = [:]
    for (_, stereotype) in try dictionary(object, "XDBucketForStereotypesstorage") {
      guard let stereotype = stereotype.object else { continue }
      for (key, setting) in try dictionary(stereotype, "XDBucketForOwnedAttributesstorage") {
        guard let setting = setting.object else { continue }
        values[key] = try setting.value(forKey: "_default") ?? .null
      }
    }
    return values
  }

  /// A dictionary field whose keys are strings, in archive order.
  private static func dictionary(_ object: KeyedArchive.Object, _ key: String) throws -> [(String, KeyedArchive.Value)]
  {
    guard let value = try object.value(forKey: key) else { return [] }
    guard case .dictionary(let pairs) = value else {
      throw PropertyListError("the model snapshot's \(object.className) has a '\(key)' that is not a dictionary")
    }
    return try pairs.map { pair in
      guard let name = pair.key.string else {
        throw PropertyListError("the model snapshot's \(object.className) has a '\(key)' key that is not a string")
      }
      return (name, pair.value)
    }
  }

  private static func requiredName(_ object: KeyedArchive.Object) throws -> String {
    guard let name = try object.string(forKey: "_name"), !name.isEmpty else {
      throw PropertyListError("the model snapshot has an \(object.className) without a name")
    }
    return name
  }

  private static func propertyName(_ value: KeyedArchive.Value, entity: String) throws -> String {
    if let name = value.string { return name }
    if let object = value.object { return try requiredName(object) }
    throw PropertyListError("entity \(entity): a uniqueness constraint names something that is not a property")
  }

  private static func text(_ value: KeyedArchive.Value) throws -> String? {
    switch value {
    case .null: return nil
    case .string(let string): return string.isEmpty ? nil : string
    default: throw PropertyListError("the model snapshot has a \(value) where text belongs")
    }
  }

  private static func boolean(_ value: KeyedArchive.Value) throws -> Bool? {
    switch value {
    case .null: return nil
    case .bool(let flag): return flag
    case .integer(let number): return number != 0
    case .string("YES"): return true
    case .string("NO"): return false
    default: throw PropertyListError("the model snapshot has a \(value) where a boolean belongs")
    }
  }

  private static func integer(_ value: KeyedArchive.Value) -> Int64? {
    switch value {
    case .integer(let number): return number
    case .bool(let flag): return flag ? 1 : 0
    case .real(let number) where number.rounded() == number && abs(number) < 9e18: return Int64(number)
    default: return nil
    }
  }
}
