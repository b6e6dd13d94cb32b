import Foundation

/// Reads one model version's `contents` XML into a ``ModelVersion``.
///
/// What the file states is kept, typed where the format defines a type. Problems that only the
/// text shows — malformed XML, an unknown attribute type, a default value that does not parse —
/// are reported here with the exact line and column of the offending XML attribute; problems
/// across elements (dangling references, cycles, …) are ``ModelValidator``'s.
struct ContentsReader {
  private let path: String
  private let lines: LineTable
  private(set) var diagnostics: [Diagnostic] = []
  /// Unknown markup already reported, so a newer Xcode's addition repeated on every entity
  /// gives one warning rather than hundreds.
  private var reportedUnknown: Set<String> = []

  private init(path: String, bytes: [UInt8]) {
    self.path = path
    self.lines = LineTable(bytes: bytes)
  }

  /// Reads a version from the bytes of its `contents` file.
  static func read(bytes: [UInt8], path: String, versionName: String) -> (ModelVersion?, [Diagnostic]) {
    var reader = ContentsReader(path: path, bytes: bytes)
    let root: XMLSourceElement
    do {
      root = try XMLSourceParser.parse(bytes)
    } catch {
      let diagnostic = Diagnostic.error(
        "xml-syntax", "malformed XML: \(error.message)", at: reader.location(error.offset),
        fix: "the file must be a data model as Xcode writes it; restore it from version control or re-save it in Xcode")
      return (nil, [diagnostic])
    }
    guard root.name == "model" else {
      let diagnostic = Diagnostic.error(
        "not-a-model", "the root element is <\(root.name)>, not <model>: this is not a Core Data model file",
        at: reader.location(root.offset),
        fix: "pass a .xcdatamodeld bundle, a .xcdatamodel directory, or its 'contents' file")
      return (nil, [diagnostic])
    }
    let version = reader.readModel(root, versionName: versionName)
    return (version, reader.diagnostics)
  }

  // MARK: - Locations and diagnostics

  private func location(_ offset: Int) -> SourceLocation {
    let position = lines.position(of: offset)
    return SourceLocation(file: path, line: position.line, column: position.column)
  }

  private mutating func error(
    _ code: String, _ message: String, at offset: Int, entity: String? = nil, property: String? = nil,
    fix: String? = nil
  ) {
    diagnostics.append(.error(code, message, at: location(offset), entity: entity, property: property, fix: fix))
  }

  private mutating func warning(
    _ code: String, _ message: String, at offset: Int, entity: String? = nil, property: String? = nil,
    fix: String? = nil
  ) {
    diagnostics.append(.warning(code, message, at: location(offset), entity: entity, property: property, fix: fix))
  }

  /// Splits an element's attributes into known ones and unknown ones, warning once per kind of
  /// unknown attribute.
  private mutating func unknownAttributes(
    of element: XMLSourceElement, known: XMLNameSet, silentlyKept: XMLNameSet = Self.noNames
  ) -> [UnknownAttribute] {
    var unknown: [UnknownAttribute] = []
    for attribute in element.attributes where !known.contains(attribute) {
      unknown.append(UnknownAttribute(name: attribute.name, value: attribute.value))
      if silentlyKept.contains(attribute) { continue }
      if reportedUnknown.insert("@\(element.name)@\(attribute.name)").inserted {
        warning(
          "unknown-attribute",
          "unknown attribute '\(attribute.name)' on <\(element.name)>; it is kept but has no effect here",
          at: attribute.offset,
          fix: "a newer Xcode may have written it; if modelc should understand it, report the model and Xcode version")
      }
    }
    return unknown
  }

  private mutating func unknownElement(_ element: XMLSourceElement, in parent: String) -> UnknownElement {
    if reportedUnknown.insert("<\(parent)><\(element.name)>").inserted {
      warning(
        "unknown-element", "unknown element <\(element.name)> inside <\(parent)>; it is kept but has no effect here",
        at: element.offset,
        fix: "a newer Xcode may have written it; if modelc should understand it, report the model and Xcode version")
    }
    return Self.convertUnknown(element)
  }

  private static func convertUnknown(_ element: XMLSourceElement) -> UnknownElement {
    UnknownElement(
      name: element.name, attributes: element.attributes.map { UnknownAttribute(name: $0.name, value: $0.value) },
      children: element.children.map(convertUnknown),
      text: element.text.isEmpty ? "" : element.text.trimmingCharacters(in: .whitespacesAndNewlines)
    )
  }

  /// Reads a YES/NO flag; absent is nil, anything but YES/NO is a warning and reads as NO.
  private mutating func flag(
    _ name: XMLName, of element: XMLSourceElement, entity: String? = nil, property: String? = nil
  )
    -> Bool?
  {
    guard let attribute = element.sourceAttribute(name) else { return nil }
    switch attribute.value {
    case "YES": return true
    case "NO": return false
    default:
      warning(
        "invalid-flag", "'\(attribute.value)' is not a valid value for '\(name.string)'; it reads as NO",
        at: attribute.offset,
        entity: entity, property: property, fix: "write \(name.string)=\"YES\" or leave the attribute out")
      return false
    }
  }

  private mutating func integer(_ name: XMLName, of element: XMLSourceElement, entity: String?, property: String?)
    -> Int?
  {
    guard let attribute = element.sourceAttribute(name) else { return nil }
    guard let value = Int(attribute.value.trimmedOfWhitespace) else {
      error(
        "invalid-number", "'\(attribute.value)' is not a whole number for '\(name.string)'", at: attribute.offset,
        entity: entity, property: property, fix: "write a whole number, e.g. \(name.string)=\"1\"")
      return nil
    }
    return value
  }

  /// Reads a `<userInfo>`; unknown markup in it goes to `strays`, under a copy of the container.
  private mutating func userInfo(of element: XMLSourceElement, strays: inout [UnknownElement]) -> UserInfo {
    var entries: [UserInfo.Entry] = []
    var unknown: [UnknownElement] = []
    for child in element.children {
      if child.name == "entry" {
        entries.append(UserInfo.Entry(key: child.attribute(Name.key) ?? "", value: child.attribute(Name.value) ?? ""))
        if !unknownAttributes(of: child, known: Self.entryAttributes).isEmpty {
          unknown.append(Self.convertUnknown(child))
        }
      } else {
        unknown.append(unknownElement(child, in: element.name))
      }
    }
    if !unknown.isEmpty { strays.append(UnknownElement(name: element.name, children: unknown)) }
    return UserInfo(entries: entries)
  }

  /// Reads `<uniquenessConstraints>` or `<compoundIndexes>`: a list of groups (`group`) of
  /// elements (`item`) each naming a property in `value`. Unknown markup goes to `strays`.
  private mutating func propertyGroups(
    of element: XMLSourceElement, group: String, item: String, strays: inout [UnknownElement]
  ) -> [(properties: [String], offset: Int)] {
    var groups: [(properties: [String], offset: Int)] = []
    var unknown: [UnknownElement] = []
    for child in element.children {
      guard child.name == group else {
        unknown.append(unknownElement(child, in: element.name))
        continue
      }
      var properties: [String] = []
      var unknownParts: [UnknownElement] = []
      for part in child.children {
        if part.name == item {
          properties.append(part.attribute(Name.value) ?? "")
          if !unknownAttributes(of: part, known: Self.valueAttributes).isEmpty {
            unknownParts.append(Self.convertUnknown(part))
          }
        } else {
          unknownParts.append(unknownElement(part, in: group))
        }
      }
      if !unknownParts.isEmpty { unknown.append(UnknownElement(name: group, children: unknownParts)) }
      groups.append((properties, child.offset))
    }
    if !unknown.isEmpty { strays.append(UnknownElement(name: element.name, children: unknown)) }
    return groups
  }

  // MARK: - Known attribute names

  /// The names looked up on elements, keys computed once.
  private enum Name {
    static let `allowsCloudEncryption`: XMLName = "allowsCloudEncryption"
    static let `allowsExternalBinaryDataStorage`: XMLName = "allowsExternalBinaryDataStorage"
    static let `attributeType`: XMLName = "attributeType"
    static let `codeGenerationType`: XMLName = "codeGenerationType"
    static let `composite`: XMLName = "composite"
    static let `customClassName`: XMLName = "customClassName"
    static let `defaultDateTimeInterval`: XMLName = "defaultDateTimeInterval"
    static let `defaultValueString`: XMLName = "defaultValueString"
    static let `deletionRule`: XMLName = "deletionRule"
    static let `derivationExpression`: XMLName = "derivationExpression"
    static let `derived`: XMLName = "derived"
    static let `destinationEntity`: XMLName = "destinationEntity"
    static let `documentVersion`: XMLName = "documentVersion"
    static let `elementID`: XMLName = "elementID"
    static let `entity`: XMLName = "entity"
    static let `expression`: XMLName = "expression"
    static let `expressionType`: XMLName = "expressionType"
    static let `fetchBatchSize`: XMLName = "fetchBatchSize"
    static let `fetchLimit`: XMLName = "fetchLimit"
    static let `includePropertyValues`: XMLName = "includePropertyValues"
    static let `includeSubentities`: XMLName = "includeSubentities"
    static let `includesPendingChanges`: XMLName = "includesPendingChanges"
    static let `indexed`: XMLName = "indexed"
    static let `inverseEntity`: XMLName = "inverseEntity"
    static let `inverseName`: XMLName = "inverseName"
    static let `isAbstract`: XMLName = "isAbstract"
    static let `key`: XMLName = "key"
    static let `lastSavedToolsVersion`: XMLName = "lastSavedToolsVersion"
    static let `maxCount`: XMLName = "maxCount"
    static let `maxDateTimeInterval`: XMLName = "maxDateTimeInterval"
    static let `maxValueString`: XMLName = "maxValueString"
    static let `minCount`: XMLName = "minCount"
    static let `minDateTimeInterval`: XMLName = "minDateTimeInterval"
    static let `minValueString`: XMLName = "minValueString"
    static let `minimumToolsVersion`: XMLName = "minimumToolsVersion"
    static let `name`: XMLName = "name"
    static let `optional`: XMLName = "optional"
    static let `order`: XMLName = "order"
    static let `ordered`: XMLName = "ordered"
    static let `parentEntity`: XMLName = "parentEntity"
    static let `predicateString`: XMLName = "predicateString"
    static let `preserveAfterDeletion`: XMLName = "preserveAfterDeletion"
    static let `property`: XMLName = "property"
    static let `regularExpressionString`: XMLName = "regularExpressionString"
    static let `representedClassName`: XMLName = "representedClassName"
    static let `resultType`: XMLName = "resultType"
    static let `returnDistinctResults`: XMLName = "returnDistinctResults"
    static let `returnObjectsAsFaults`: XMLName = "returnObjectsAsFaults"
    static let `sourceLanguage`: XMLName = "sourceLanguage"
    static let `spotlightIndexingEnabled`: XMLName = "spotlightIndexingEnabled"
    static let `storedInTruthFile`: XMLName = "storedInTruthFile"
    static let `syncable`: XMLName = "syncable"
    static let `systemVersion`: XMLName = "systemVersion"
    static let `toMany`: XMLName = "toMany"
    static let `transient`: XMLName = "transient"
    static let `type`: XMLName = "type"
    static let `usedWithCloudKit`: XMLName = "usedWithCloudKit"
    static let `usedWithSwiftData`: XMLName = "usedWithSwiftData"
    static let `userDefinedModelVersionIdentifier`: XMLName = "userDefinedModelVersionIdentifier"
    static let `usesScalarValueType`: XMLName = "usesScalarValueType"
    static let `value`: XMLName = "value"
    static let `valueTransformerName`: XMLName = "valueTransformerName"
    static let `versionHashModifier`: XMLName = "versionHashModifier"
  }

  private static let noNames = XMLNameSet([])
  private static let entryAttributes = XMLNameSet(["key", "value"])
  private static let valueAttributes = XMLNameSet(["value"])
  private static let fetchedPropertyAttributes = XMLNameSet(["name", "optional", "syncable"])
  private static let nameAttributes = XMLNameSet(["name"])
  private static let fetchIndexElementAttributes = XMLNameSet([
    "property", "expression", "expressionType", "type", "order",
  ])
  private static let configurationAttributes = XMLNameSet(["name", "usedWithCloudKit"])

  // MARK: - Model

  private static let modelAttributes = XMLNameSet([
    "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion", "sourceLanguage",
    "userDefinedModelVersionIdentifier", "usedWithCloudKit", "usedWithSwiftData",
  ])
  private static let legacyModelAttributes = XMLNameSet(["name", "macOSVersion", "iOSVersion"])

  private mutating func readModel(_ element: XMLSourceElement, versionName: String) -> ModelVersion {
    var entities: [EntityDescription] = []
    var composites: [CompositeDescription] = []
    var fetchRequests: [FetchRequestTemplate] = []
    var configurations: [ConfigurationDescription] = []
    var unknownElements: [UnknownElement] = []
    for child in element.children {
      switch child.name {
      case "entity": entities.append(readEntity(child))
      case "composite": composites.append(readComposite(child))
      case "fetchRequest": fetchRequests.append(readFetchRequest(child, entity: nil, property: nil))
      case "configuration": configurations.append(readConfiguration(child))
      case "elements": break  // Diagram layout only.
      default: unknownElements.append(unknownElement(child, in: "model"))
      }
    }
    var version = ModelVersion(
      name: versionName, entities: entities, composites: composites, fetchRequests: fetchRequests,
      configurations: configurations, sourcePath: path)
    version.documentType = element.attribute(Name.type)
    version.documentVersion = element.attribute(Name.documentVersion)
    version.lastSavedToolsVersion = element.attribute(Name.lastSavedToolsVersion)
    version.systemVersion = element.attribute(Name.systemVersion)
    version.minimumToolsVersion = element.attribute(Name.minimumToolsVersion)
    version.sourceLanguage = element.attribute(Name.sourceLanguage)
    version.versionIdentifier = element.attribute(Name.userDefinedModelVersionIdentifier)
    version.usedWithCloudKit = flag(Name.usedWithCloudKit, of: element)
    version.usedWithSwiftData = flag(Name.usedWithSwiftData, of: element)
    version.unknownAttributes = unknownAttributes(
      of: element, known: Self.modelAttributes, silentlyKept: Self.legacyModelAttributes)
    version.unknownElements = unknownElements
    if let type = element.sourceAttribute(Name.type), type.value != "com.apple.IDECoreDataModeler.DataModel" {
      warning(
        "unexpected-model-type", "the model's type is '\(type.value)', not com.apple.IDECoreDataModeler.DataModel",
        at: type.offset)
    }
    return version
  }

  // MARK: - Entity

  private static let entityAttributes = XMLNameSet([
    "name", "representedClassName", "parentEntity", "isAbstract", "codeGenerationType", "elementID",
    "versionHashModifier", "syncable",
  ])

  private mutating func readEntity(_ element: XMLSourceElement) -> EntityDescription {
    let name = element.attribute(Name.name) ?? ""
    if element.sourceAttribute(Name.name) == nil {
      error(
        "missing-name", "an <entity> has no name", at: element.offset,
        fix: "give the entity a name (name=\"…\") in Xcode's model editor")
    }
    var entity = EntityDescription(name: name, location: location(element.offset))
    entity.representedClassName = element.attribute(Name.representedClassName)
    entity.parentEntityName = element.attribute(Name.parentEntity)
    entity.isAbstract = flag(Name.isAbstract, of: element, entity: name) ?? false
    entity.codeGenerationType = element.attribute(Name.codeGenerationType).map(CodeGenerationType.init(xmlValue:))
    if let codegen = element.sourceAttribute(Name.codeGenerationType), case .other = entity.codeGenerationType {
      warning(
        "unknown-codegen",
        "unknown codeGenerationType '\(codegen.value)' on entity '\(name)'; it is treated as Manual/None",
        at: codegen.offset, entity: name, fix: "use \"class\" or \"category\", or leave it out for Manual/None")
    }
    entity.renamingIdentifier = element.attribute(Name.elementID)
    entity.versionHashModifier = element.attribute(Name.versionHashModifier)
    entity.isSyncable = flag(Name.syncable, of: element, entity: name)
    entity.unknownAttributes = unknownAttributes(of: element, known: Self.entityAttributes)
    for child in element.children {
      switch child.name {
      case "attribute": entity.attributes.append(readAttribute(child, entity: name))
      case "relationship": entity.relationships.append(readRelationship(child, entity: name))
      case "fetchedProperty": entity.fetchedProperties.append(readFetchedProperty(child, entity: name))
      case "fetchIndex": entity.fetchIndexes.append(readFetchIndex(child, entity: name))
      case "uniquenessConstraints":
        for group in propertyGroups(
          of: child, group: "uniquenessConstraint", item: "constraint", strays: &entity.unknownElements)
        {
          entity.uniquenessConstraints.append(
            UniquenessConstraint(properties: group.properties, location: location(group.offset)))
        }
      case "compoundIndexes":
        for group in propertyGroups(of: child, group: "compoundIndex", item: "index", strays: &entity.unknownElements) {
          entity.compoundIndexes.append(CompoundIndex(properties: group.properties, location: location(group.offset)))
        }
      case "userInfo": entity.userInfo = userInfo(of: child, strays: &entity.unknownElements)
      default: entity.unknownElements.append(unknownElement(child, in: "entity"))
      }
    }
    return entity
  }

  // MARK: - Attribute

  private static let attributeAttributes = XMLNameSet([
    "name", "attributeType", "optional", "transient", "defaultValueString", "defaultDateTimeInterval",
    "minValueString", "maxValueString", "minDateTimeInterval", "maxDateTimeInterval", "regularExpressionString",
    "usesScalarValueType", "allowsExternalBinaryDataStorage", "valueTransformerName", "customClassName", "derived",
    "derivationExpression", "composite", "preserveAfterDeletion", "allowsCloudEncryption", "spotlightIndexingEnabled",
    "indexed", "storedInTruthFile", "elementID", "versionHashModifier", "syncable",
  ])

  private mutating func readAttribute(_ element: XMLSourceElement, entity: String) -> AttributeDescription {
    let name = element.attribute(Name.name) ?? ""
    if element.sourceAttribute(Name.name) == nil {
      error(
        "missing-name", "an <attribute> of entity '\(entity)' has no name", at: element.offset, entity: entity,
        fix: "give the attribute a name in Xcode's model editor")
    }
    var type = AttributeType.undefined
    if let typeAttribute = element.sourceAttribute(Name.attributeType) {
      if let known = Self.attributeType(named: typeAttribute.value) {
        type = known
      } else {
        let suggestion = Self.closestTypeName(to: typeAttribute.value)
        error(
          "unknown-attribute-type",
          "unknown attribute type '\(typeAttribute.value)' for attribute '\(name)' of entity '\(entity)'",
          at: typeAttribute.offset, entity: entity, property: name,
          fix: suggestion.map { "did you mean '\($0)'?" }
            ?? "use one of: \(AttributeType.allCases.map(\.rawValue).joined(separator: ", "))")
      }
    }
    var attribute = AttributeDescription(
      name: name, attributeType: type,
      isOptional: flag(Name.optional, of: element, entity: entity, property: name) ?? false,
      isTransient: flag(Name.transient, of: element, entity: entity, property: name) ?? false,
      location: location(element.offset))
    attribute.defaultValueString = element.attribute(Name.defaultValueString)
    attribute.defaultDateTimeInterval = element.attribute(Name.defaultDateTimeInterval)
    attribute.minValueString = element.attribute(Name.minValueString)
    attribute.maxValueString = element.attribute(Name.maxValueString)
    attribute.minDateTimeInterval = element.attribute(Name.minDateTimeInterval)
    attribute.maxDateTimeInterval = element.attribute(Name.maxDateTimeInterval)
    attribute.regularExpression = element.attribute(Name.regularExpressionString)
    attribute.usesScalarValueType = flag(Name.usesScalarValueType, of: element, entity: entity, property: name)
    attribute.allowsExternalBinaryDataStorage =
      flag(Name.allowsExternalBinaryDataStorage, of: element, entity: entity, property: name) ?? false
    attribute.valueTransformerName = element.attribute(Name.valueTransformerName)
    attribute.customClassName = element.attribute(Name.customClassName)
    attribute.isDerived = flag(Name.derived, of: element, entity: entity, property: name) ?? false
    attribute.derivationExpression = element.attribute(Name.derivationExpression)
    attribute.compositeName = element.attribute(Name.composite)
    attribute.preservesValueInHistoryOnDeletion =
      flag(Name.preserveAfterDeletion, of: element, entity: entity, property: name) ?? false
    attribute.allowsCloudEncryption =
      flag(Name.allowsCloudEncryption, of: element, entity: entity, property: name) ?? false
    attribute.isIndexedBySpotlight =
      flag(Name.spotlightIndexingEnabled, of: element, entity: entity, property: name) ?? false
    attribute.isIndexed = flag(Name.indexed, of: element, entity: entity, property: name) ?? false
    attribute.isStoredInExternalRecord =
      flag(Name.storedInTruthFile, of: element, entity: entity, property: name) ?? false
    attribute.renamingIdentifier = element.attribute(Name.elementID)
    attribute.versionHashModifier = element.attribute(Name.versionHashModifier)
    attribute.isSyncable = flag(Name.syncable, of: element, entity: entity, property: name)
    attribute.unknownAttributes = unknownAttributes(of: element, known: Self.attributeAttributes)
    for child in element.children {
      if child.name == "userInfo" {
        attribute.userInfo = userInfo(of: child, strays: &attribute.unknownElements)
      } else {
        attribute.unknownElements.append(unknownElement(child, in: "attribute"))
      }
    }
    parseValues(of: &attribute, element: element, entity: entity)
    return attribute
  }

  /// Parses the default value and the bounds into typed values, reporting text that does not
  /// parse for the attribute's type at the XML attribute that holds it.
  private mutating func parseValues(of attribute: inout AttributeDescription, element: XMLSourceElement, entity: String)
  {
    let type = attribute.attributeType
    let name = attribute.name
    func report(_ outcome: AttributeValueParser.Outcome?, _ xmlName: String, what: String) -> AttributeValue? {
      guard let outcome, let source = element.sourceAttribute(xmlName) else { return nil }
      switch outcome {
      case .value(let value):
        return value
      case .lenient(let value, let note):
        warning(
          "lenient-value", "\(what) of attribute '\(name)' of entity '\(entity)' is '\(source.value)': \(note)",
          at: source.offset, entity: entity, property: name,
          fix: "write the value in the attribute's own type (e.g. 0 or 1 for integers)")
        return value
      case .failure(let message):
        error(
          "invalid-\(xmlName == "defaultValueString" || xmlName == "defaultDateTimeInterval" ? "default" : "bound")",
          "\(what) of attribute '\(name)' of entity '\(entity)' does not parse as \(type.rawValue): \(message)",
          at: source.offset, entity: entity, property: name,
          fix: "correct the value in Xcode's model editor, or remove it")
        return nil
      }
    }
    if type == .date {
      if let text = attribute.defaultDateTimeInterval {
        attribute.defaultValue = report(
          AttributeValueParser.parseDefault(text, type: .date), "defaultDateTimeInterval", what: "the default date")
      } else if let text = attribute.defaultValueString {
        attribute.defaultValue = report(
          AttributeValueParser.parseDefault(text, type: .date), "defaultValueString", what: "the default date")
      }
      if let text = attribute.minDateTimeInterval {
        attribute.minValue = report(
          AttributeValueParser.parseBound(text, type: .date), "minDateTimeInterval", what: "the minimum date")
      }
      if let text = attribute.maxDateTimeInterval {
        attribute.maxValue = report(
          AttributeValueParser.parseBound(text, type: .date), "maxDateTimeInterval", what: "the maximum date")
      }
      return
    }
    if let text = attribute.defaultValueString {
      if let outcome = AttributeValueParser.parseDefault(text, type: type) {
        attribute.defaultValue = report(outcome, "defaultValueString", what: "the default value")
      } else if type != .undefined, let source = element.sourceAttribute(Name.defaultValueString) {
        warning(
          "ignored-default",
          "attribute '\(name)' of entity '\(entity)' is \(type.rawValue), which has no default values;"
            + " the default '\(text)' is ignored", at: source.offset, entity: entity, property: name,
          fix: "remove defaultValueString")
      }
    }
    if let text = attribute.minValueString {
      attribute.minValue = report(
        AttributeValueParser.parseBound(text, type: type), "minValueString", what: "the minimum")
    }
    if let text = attribute.maxValueString {
      attribute.maxValue = report(
        AttributeValueParser.parseBound(text, type: type), "maxValueString", what: "the maximum")
    }
  }

  /// The type names with their keys: `AttributeType(rawValue:)` compares the name with every
  /// case as a string, which costs more than the rest of reading the attribute.
  private static let attributeTypes = AttributeType.allCases.map {
    (key: XMLSourceAttribute.key(of: $0.rawValue), type: $0)
  }

  private static func attributeType(named name: String) -> AttributeType? {
    let key = XMLSourceAttribute.key(of: name)
    return attributeTypes.first { $0.key == key && $0.type.rawValue == name }?.type
  }

  private static func closestTypeName(to name: String) -> String? {
    let lowered = name.lowercased().replacingOccurrences(of: " ", with: "")
    for type in AttributeType.allCases
    where type.rawValue.lowercased().replacingOccurrences(of: " ", with: "") == lowered {
      return type.rawValue
    }
    var best: (String, Int)?
    for type in AttributeType.allCases {
      let distance = EditDistance.between(name.lowercased(), type.rawValue.lowercased())
      if distance <= 3, best == nil || distance < best!.1 { best = (type.rawValue, distance) }
    }
    return best?.0
  }

  // MARK: - Relationship

  private static let relationshipAttributes = XMLNameSet([
    "name", "destinationEntity", "inverseName", "inverseEntity", "optional", "transient", "toMany", "ordered",
    "minCount", "maxCount", "deletionRule", "elementID", "versionHashModifier", "syncable", "indexed",
  ])

  private mutating func readRelationship(_ element: XMLSourceElement, entity: String) -> RelationshipDescription {
    let name = element.attribute(Name.name) ?? ""
    if element.sourceAttribute(Name.name) == nil {
      error(
        "missing-name", "a <relationship> of entity '\(entity)' has no name", at: element.offset, entity: entity,
        fix: "give the relationship a name in Xcode's model editor")
    }
    if element.sourceAttribute(Name.destinationEntity) == nil {
      error(
        "missing-destination", "relationship '\(name)' of entity '\(entity)' has no destination entity",
        at: element.offset, entity: entity, property: name,
        fix: "choose a destination for the relationship in Xcode's model editor")
    }
    var relationship = RelationshipDescription(
      name: name, destinationEntityName: element.attribute(Name.destinationEntity) ?? "",
      inverseName: element.attribute(Name.inverseName), inverseEntityName: element.attribute(Name.inverseEntity),
      isOptional: flag(Name.optional, of: element, entity: entity, property: name) ?? false,
      isToMany: flag(Name.toMany, of: element, entity: entity, property: name) ?? false,
      isOrdered: flag(Name.ordered, of: element, entity: entity, property: name) ?? false,
      location: location(element.offset))
    relationship.isTransient = flag(Name.transient, of: element, entity: entity, property: name) ?? false
    relationship.minCountValue = integer(Name.minCount, of: element, entity: entity, property: name)
    relationship.maxCountValue = integer(Name.maxCount, of: element, entity: entity, property: name)
    if let rule = element.sourceAttribute(Name.deletionRule) {
      if let known = DeletionRule(rawValue: rule.value) {
        relationship.deletionRule = known
      } else {
        error(
          "unknown-deletion-rule",
          "unknown deletion rule '\(rule.value)' for relationship '\(name)' of entity '\(entity)'", at: rule.offset,
          entity: entity, property: name, fix: "use one of: Nullify, Cascade, Deny, No Action")
      }
    } else {
      relationship.deletionRule = .noAction
      relationship.hasExplicitDeletionRule = false
      warning(
        "missing-deletion-rule",
        "relationship '\(name)' of entity '\(entity)' has no deletion rule; it is read as No Action",
        at: element.offset, entity: entity, property: name,
        fix: "set the deletion rule explicitly (Xcode always writes one)")
    }
    relationship.renamingIdentifier = element.attribute(Name.elementID)
    relationship.versionHashModifier = element.attribute(Name.versionHashModifier)
    relationship.isSyncable = flag(Name.syncable, of: element, entity: entity, property: name)
    relationship.isIndexed = flag(Name.indexed, of: element, entity: entity, property: name) ?? false
    relationship.unknownAttributes = unknownAttributes(of: element, known: Self.relationshipAttributes)
    for child in element.children {
      if child.name == "userInfo" {
        relationship.userInfo = userInfo(of: child, strays: &relationship.unknownElements)
      } else {
        relationship.unknownElements.append(unknownElement(child, in: "relationship"))
      }
    }
    if (element.attribute(Name.inverseName) == nil) != (element.attribute(Name.inverseEntity) == nil) {
      error(
        "incomplete-inverse",
        "relationship '\(name)' of entity '\(entity)' names an inverse \(element.attribute(Name.inverseName) == nil ? "entity but no inverse name" : "but no inverse entity")",
        at: element.offset, entity: entity, property: name,
        fix: "write both inverseName and inverseEntity, or neither")
    }
    return relationship
  }

  // MARK: - Fetched properties, fetch requests, indexes, configurations, composites

  private mutating func readFetchedProperty(_ element: XMLSourceElement, entity: String) -> FetchedPropertyDescription {
    let name = element.attribute(Name.name) ?? ""
    var property = FetchedPropertyDescription(
      name: name, isOptional: flag(Name.optional, of: element, entity: entity, property: name) ?? false)
    property.location = location(element.offset)
    property.isSyncable = flag(Name.syncable, of: element, entity: entity, property: name)
    property.unknownAttributes = unknownAttributes(of: element, known: Self.fetchedPropertyAttributes)
    for child in element.children {
      switch child.name {
      case "fetchRequest": property.fetchRequest = readFetchRequest(child, entity: entity, property: name)
      case "userInfo": property.userInfo = userInfo(of: child, strays: &property.unknownElements)
      default: property.unknownElements.append(unknownElement(child, in: "fetchedProperty"))
      }
    }
    return property
  }

  private static let fetchRequestAttributes = XMLNameSet([
    "name", "entity", "predicateString", "fetchLimit", "fetchBatchSize", "resultType", "includeSubentities",
    "includePropertyValues", "includesPendingChanges", "returnObjectsAsFaults", "returnDistinctResults",
  ])

  private mutating func readFetchRequest(_ element: XMLSourceElement, entity: String?, property: String?)
    -> FetchRequestTemplate
  {
    var request = FetchRequestTemplate(
      name: element.attribute(Name.name) ?? "", entityName: element.attribute(Name.entity) ?? "",
      predicateString: element.attribute(Name.predicateString), location: location(element.offset))
    request.fetchLimit = integer(Name.fetchLimit, of: element, entity: entity, property: property)
    request.fetchBatchSize = integer(Name.fetchBatchSize, of: element, entity: entity, property: property)
    request.resultType = integer(Name.resultType, of: element, entity: entity, property: property)
    request.includeSubentities = flag(Name.includeSubentities, of: element, entity: entity, property: property)
    request.includePropertyValues = flag(Name.includePropertyValues, of: element, entity: entity, property: property)
    request.includesPendingChanges = flag(Name.includesPendingChanges, of: element, entity: entity, property: property)
    request.returnObjectsAsFaults = flag(Name.returnObjectsAsFaults, of: element, entity: entity, property: property)
    request.returnDistinctResults = flag(Name.returnDistinctResults, of: element, entity: entity, property: property)
    request.unknownAttributes = unknownAttributes(of: element, known: Self.fetchRequestAttributes)
    for child in element.children {
      request.unknownElements.append(unknownElement(child, in: "fetchRequest"))
    }
    return request
  }

  private mutating func readFetchIndex(_ element: XMLSourceElement, entity: String) -> FetchIndexDescription {
    var index = FetchIndexDescription(
      name: element.attribute(Name.name) ?? "", elements: [], location: location(element.offset))
    index.unknownAttributes = unknownAttributes(of: element, known: Self.nameAttributes)
    for child in element.children {
      guard child.name == "fetchIndexElement" else {
        index.unknownElements.append(unknownElement(child, in: "fetchIndex"))
        continue
      }
      let unknownElementAttributes = unknownAttributes(
        of: child, known: Self.fetchIndexElementAttributes)
      let type = FetchIndexDescription.Element.IndexType(xmlValue: child.attribute(Name.type) ?? "Binary")
      var ascending = true
      if let order = child.sourceAttribute(Name.order) {
        switch order.value {
        case "ascending": ascending = true
        case "descending": ascending = false
        default:
          warning(
            "invalid-index-order",
            "unknown order '\(order.value)' in fetch index '\(index.name)'; it reads as ascending",
            at: order.offset, entity: entity, fix: "use \"ascending\" or \"descending\"")
        }
      }
      var indexElement: FetchIndexDescription.Element
      if let property = child.attribute(Name.property) {
        indexElement = .init(property: property, isAscending: ascending, type: type)
      } else if let expression = child.attribute(Name.expression) {
        indexElement = .init(
          expression: expression, expressionType: child.attribute(Name.expressionType), isAscending: ascending,
          type: type)
      } else {
        error(
          "empty-index-element", "an element of fetch index '\(index.name)' of entity '\(entity)' names no property",
          at: child.offset, entity: entity, fix: "choose a property for the index element in Xcode's model editor")
        continue
      }
      indexElement.location = location(child.offset)
      indexElement.unknownAttributes = unknownElementAttributes
      index.elements.append(indexElement)
    }
    return index
  }

  private mutating func readConfiguration(_ element: XMLSourceElement) -> ConfigurationDescription {
    var configuration = ConfigurationDescription(
      name: element.attribute(Name.name) ?? "", usedWithCloudKit: flag(Name.usedWithCloudKit, of: element) ?? false)
    configuration.location = location(element.offset)
    configuration.unknownAttributes = unknownAttributes(of: element, known: Self.configurationAttributes)
    for child in element.children {
      if child.name == "memberEntity" {
        configuration.memberEntities.append(child.attribute(Name.name) ?? "")
        if !unknownAttributes(of: child, known: Self.nameAttributes).isEmpty {
          configuration.unknownElements.append(Self.convertUnknown(child))
        }
      } else {
        configuration.unknownElements.append(unknownElement(child, in: "configuration"))
      }
    }
    return configuration
  }

  private mutating func readComposite(_ element: XMLSourceElement) -> CompositeDescription {
    let name = element.attribute(Name.name) ?? ""
    var composite = CompositeDescription(name: name, location: location(element.offset))
    composite.unknownAttributes = unknownAttributes(of: element, known: Self.nameAttributes)
    for child in element.children {
      if child.name == "attribute" {
        composite.attributes.append(readAttribute(child, entity: name))
      } else {
        composite.unknownElements.append(unknownElement(child, in: "composite"))
      }
    }
    return composite
  }
}
