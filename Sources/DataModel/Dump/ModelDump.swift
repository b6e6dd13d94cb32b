import Foundation

/// The canonical JSON form of a model, written by `modelc dump --format json`.
///
/// `{"versions": [...]}` in migration order; each version has `name`, `isCurrent`, `hash` (the
/// model checksum, base64, as Core Data writes it) and `entities`; each entity `name`, `hash`
/// (lowercase hex) and its `attributes` and `relationships`, whose keys are named after the XML
/// attributes. Flags appear only when true (as Xcode writes them), except the ones every
/// property has (`optional`, `transient`, and `toMany`/`ordered` on relationships). The same
/// model always gives the same bytes: no dates, paths or dictionary order leak in.
public enum ModelDump {
  /// The JSON of a bundle; only the named versions when `versionNames` is given.
  public static func json(of bundle: ModelBundle, versionNames: [String]? = nil) -> JSONValue {
    var versions: [JSONValue] = []
    for (index, version) in bundle.versions.enumerated() {
      if let names = versionNames, !names.contains(version.name) { continue }
      versions.append(json(of: version, isCurrent: index == bundle.currentVersionIndex))
    }
    return .object([("versions", .array(versions))])
  }

  /// The JSON of one version.
  public static func json(of version: ModelVersion, isCurrent: Bool) -> JSONValue {
    let hashes = version.versionHashes
    var object = JSONObjectBuilder()
    object.add("name", .string(version.name))
    object.add("isCurrent", .bool(isCurrent))
    object.add("hash", .string(hashes.checksum))
    object.add("hashesDigest", .string(hashes.digest))
    object.add("userDefinedModelVersionIdentifier", version.versionIdentifier)
    object.add("type", version.documentType)
    object.add("documentVersion", version.documentVersion)
    object.add("lastSavedToolsVersion", version.lastSavedToolsVersion)
    object.add("systemVersion", version.systemVersion)
    object.add("minimumToolsVersion", version.minimumToolsVersion)
    object.add("sourceLanguage", version.sourceLanguage)
    object.add("usedWithCloudKit", version.usedWithCloudKit)
    object.add("usedWithSwiftData", version.usedWithSwiftData)
    addUnknown(version.unknownAttributes, version.unknownElements, to: &object)
    object.add(
      "entities",
      .array(
        version.entityIDsByName.map { id in
          json(of: version[id], in: version, hash: hashes.hexHash(of: version[id].name) ?? "")
        }))
    object.addNonEmpty("composites", version.composites.map(json(of:)))
    object.addNonEmpty("fetchRequests", version.fetchRequests.map(json(of:)))
    object.addNonEmpty("configurations", version.configurations.map(json(of:)))
    return object.value
  }

  static func json(of entity: EntityDescription, in version: ModelVersion, hash: String) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("name", .string(entity.name))
    object.add("hash", .string(hash))
    object.add("representedClassName", entity.representedClassName)
    object.add("parentEntity", entity.parentEntityName)
    object.addFlag("isAbstract", entity.isAbstract)
    object.add("codeGenerationType", entity.codeGenerationType?.xmlValue)
    object.add("elementID", entity.renamingIdentifier)
    object.add("versionHashModifier", entity.versionHashModifier)
    object.add("syncable", entity.isSyncable)
    object.addNonEmpty("subentities", entity.subentities.map { .string(version[$0].name) })
    object.add("attributes", .array(entity.attributes.map(json(of:))))
    object.add("relationships", .array(entity.relationships.map(json(of:))))
    object.addNonEmpty("fetchedProperties", entity.fetchedProperties.map(json(of:)))
    object.addNonEmpty("fetchIndexes", entity.fetchIndexes.map(json(of:)))
    object.addNonEmpty(
      "uniquenessConstraints", entity.uniquenessConstraints.map { .array($0.properties.map(JSONValue.string)) })
    object.addNonEmpty("compoundIndexes", entity.compoundIndexes.map { .array($0.properties.map(JSONValue.string)) })
    addUserInfo(entity.userInfo, to: &object)
    addUnknown(entity.unknownAttributes, entity.unknownElements, to: &object)
    return object.value
  }

  static func json(of attribute: AttributeDescription) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("name", .string(attribute.name))
    object.add("attributeType", .string(attribute.attributeType.rawValue))
    object.add("optional", .bool(attribute.isOptional))
    object.add("transient", .bool(attribute.isTransient))
    object.add("defaultValueString", attribute.defaultValueString)
    object.add("defaultDateTimeInterval", attribute.defaultDateTimeInterval)
    if let value = attribute.defaultValue { object.add("defaultValue", json(of: value)) }
    object.add("minValueString", attribute.minValueString)
    object.add("maxValueString", attribute.maxValueString)
    object.add("minDateTimeInterval", attribute.minDateTimeInterval)
    object.add("maxDateTimeInterval", attribute.maxDateTimeInterval)
    object.add("regularExpressionString", attribute.regularExpression)
    object.add("usesScalarValueType", attribute.usesScalarValueType)
    object.addFlag("allowsExternalBinaryDataStorage", attribute.allowsExternalBinaryDataStorage)
    object.add("valueTransformerName", attribute.valueTransformerName)
    object.add("customClassName", attribute.customClassName)
    object.addFlag("derived", attribute.isDerived)
    object.add("derivationExpression", attribute.derivationExpression)
    object.add("composite", attribute.compositeName)
    object.addFlag("preserveAfterDeletion", attribute.preservesValueInHistoryOnDeletion)
    object.addFlag("allowsCloudEncryption", attribute.allowsCloudEncryption)
    object.addFlag("spotlightIndexingEnabled", attribute.isIndexedBySpotlight)
    object.addFlag("indexed", attribute.isIndexed)
    object.addFlag("storedInTruthFile", attribute.isStoredInExternalRecord)
    object.add("elementID", attribute.renamingIdentifier)
    object.add("versionHashModifier", attribute.versionHashModifier)
    object.add("syncable", attribute.isSyncable)
    addUserInfo(attribute.userInfo, to: &object)
    addUnknown(attribute.unknownAttributes, attribute.unknownElements, to: &object)
    return object.value
  }

  static func json(of relationship: RelationshipDescription) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("name", .string(relationship.name))
    object.add("destinationEntity", .string(relationship.destinationEntityName))
    object.add("inverseName", relationship.inverseName)
    object.add("inverseEntity", relationship.inverseEntityName)
    object.add("optional", .bool(relationship.isOptional))
    object.add("transient", .bool(relationship.isTransient))
    object.add("toMany", .bool(relationship.isToMany))
    object.add("ordered", .bool(relationship.isOrdered))
    object.add("minCount", .integer(relationship.minCount))
    object.add("maxCount", .integer(relationship.maxCount))
    object.add("deletionRule", .string(relationship.deletionRule.rawValue))
    object.add("elementID", relationship.renamingIdentifier)
    object.add("versionHashModifier", relationship.versionHashModifier)
    object.add("syncable", relationship.isSyncable)
    object.addFlag("indexed", relationship.isIndexed)
    addUserInfo(relationship.userInfo, to: &object)
    addUnknown(relationship.unknownAttributes, relationship.unknownElements, to: &object)
    return object.value
  }

  static func json(of property: FetchedPropertyDescription) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("name", .string(property.name))
    object.add("optional", .bool(property.isOptional))
    if let request = property.fetchRequest { object.add("fetchRequest", json(of: request)) }
    object.add("syncable", property.isSyncable)
    addUserInfo(property.userInfo, to: &object)
    addUnknown(property.unknownAttributes, property.unknownElements, to: &object)
    return object.value
  }

  static func json(of request: FetchRequestTemplate) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("name", .string(request.name))
    object.add("entity", .string(request.entityName))
    object.add("predicateString", request.predicateString)
    object.add("fetchLimit", request.fetchLimit)
    object.add("fetchBatchSize", request.fetchBatchSize)
    object.add("resultType", request.resultType)
    object.add("includeSubentities", request.includeSubentities)
    object.add("includePropertyValues", request.includePropertyValues)
    object.add("includesPendingChanges", request.includesPendingChanges)
    object.add("returnObjectsAsFaults", request.returnObjectsAsFaults)
    object.add("returnDistinctResults", request.returnDistinctResults)
    addUnknown(request.unknownAttributes, request.unknownElements, to: &object)
    return object.value
  }

  static func json(of index: FetchIndexDescription) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("name", .string(index.name))
    object.add(
      "elements",
      .array(
        index.elements.map { element in
          var item = JSONObjectBuilder()
          item.add("property", element.property)
          item.add("expression", element.expression)
          item.add("expressionType", element.expressionType)
          item.add("type", .string(element.type.xmlValue))
          item.add("order", .string(element.isAscending ? "ascending" : "descending"))
          addUnknown(element.unknownAttributes, [], to: &item)
          return item.value
        }))
    addUnknown(index.unknownAttributes, index.unknownElements, to: &object)
    return object.value
  }

  static func json(of configuration: ConfigurationDescription) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("name", .string(configuration.name))
    object.addFlag("usedWithCloudKit", configuration.usedWithCloudKit)
    object.add("memberEntities", .array(configuration.memberEntities.map(JSONValue.string)))
    addUnknown(configuration.unknownAttributes, configuration.unknownElements, to: &object)
    return object.value
  }

  static func json(of composite: CompositeDescription) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("name", .string(composite.name))
    object.add("attributes", .array(composite.attributes.map(json(of:))))
    addUnknown(composite.unknownAttributes, composite.unknownElements, to: &object)
    return object.value
  }

  /// A typed value as JSON: numbers as numbers, Decimal as a string (exact), dates as ISO 8601.
  public static func json(of value: AttributeValue) -> JSONValue {
    switch value {
    case .integer(let integer): .integer(integer)
    case .decimal(let decimal): .string(decimal.description)
    case .double(let double): .double(double)
    case .float(let float): .double(Double(float))
    case .string(let string): .string(string)
    case .boolean(let flag): .bool(flag)
    case .date(let date): .string(ISO8601Milliseconds.string(from: date))
    case .binary(let data): .string(data.base64EncodedString())
    case .uuid(let uuid): .string(uuid.uuidString)
    case .uri(let url): .string(url.absoluteString)
    }
  }

  private static func addUserInfo(_ userInfo: UserInfo, to object: inout JSONObjectBuilder) {
    guard !userInfo.isEmpty else { return }
    object.add("userInfo", .object(userInfo.entries.map { ($0.key, .string($0.value)) }))
  }

  private static func addUnknown(
    _ attributes: [UnknownAttribute], _ elements: [UnknownElement], to object: inout JSONObjectBuilder
  ) {
    if !attributes.isEmpty {
      object.add("unknownAttributes", .object(attributes.map { ($0.name, .string($0.value)) }))
    }
    if !elements.isEmpty {
      object.add("unknownElements", .array(elements.map(json(of:))))
    }
  }

  private static func json(of element: UnknownElement) -> JSONValue {
    var object = JSONObjectBuilder()
    object.add("element", .string(element.name))
    if !element.attributes.isEmpty {
      object.add("attributes", .object(element.attributes.map { ($0.name, .string($0.value)) }))
    }
    object.addNonEmpty("children", element.children.map(json(of:)))
    if !element.text.isEmpty { object.add("text", .string(element.text)) }
    return object.value
  }
}
