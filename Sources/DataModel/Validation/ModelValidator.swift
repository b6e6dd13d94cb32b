import Foundation

/// Checks a model version against the rules Xcode's model compiler enforces.
///
/// Errors are what Xcode refuses to compile (dangling references, inverses that do not point
/// back, duplicate or shadowing names, cycles, bad defaults and bounds, constraints and indexes
/// on missing properties); warnings are what Xcode warns about (no inverse, no attributes, …).
/// Every diagnostic names the entity and property and says how to fix the problem.
public enum ModelValidator {
  /// Validates one version and returns its diagnostics, in entity order.
  public static func validate(_ model: ModelVersion) -> [Diagnostic] {
    var checker = Checker(model: model)
    checker.run()
    return checker.diagnostics
  }
}

/// Whether a scalar is in Unicode categories Lu or Lt, as `CharacterSet.uppercaseLetters` is,
/// without the cost of a CharacterSet lookup for every name.
private func isUppercaseLetter(_ scalar: Unicode.Scalar) -> Bool {
  if scalar.isASCII { return scalar.value >= 0x41 && scalar.value <= 0x5A }
  switch scalar.properties.generalCategory {
  case .uppercaseLetter, .titlecaseLetter: return true
  default: return false
  }
}

private struct Checker {
  let model: ModelVersion
  var diagnostics: [Diagnostic] = []
  /// ``propertyNames(of:)`` by entity index.
  var propertyNameSets: [Int: Set<String>] = [:]

  init(model: ModelVersion) {
    self.model = model
  }

  mutating func run() {
    checkEntityNames()
    for entity in model.entities {
      checkHierarchy(entity)
      checkProperties(entity)
      for attribute in entity.attributes {
        checkAttribute(attribute, in: entity)
      }
      for relationship in entity.relationships {
        checkRelationship(relationship, in: entity)
      }
      checkFetchedProperties(entity)
      checkConstraintsAndIndexes(entity)
    }
    for composite in model.composites {
      for attribute in composite.attributes {
        checkAttribute(attribute, in: nil, compositeName: composite.name)
      }
    }
    checkFetchRequests()
    checkConfigurations()
  }

  // MARK: - Entities

  mutating func checkEntityNames() {
    var seen: [String: SourceLocation?] = [:]
    seen.reserveCapacity(model.entities.count)
    for entity in model.entities where !entity.name.isEmpty {
      if let first = seen[entity.name] {
        diagnostics.append(
          .error(
            "duplicate-entity",
            "duplicate entity name '\(entity.name)' (first defined at line \(first?.line ?? 0))",
            at: entity.location, entity: entity.name, fix: "rename or remove one of the two entities"))
      } else {
        seen[entity.name] = entity.location
      }
      if let first = entity.name.unicodeScalars.first, !isUppercaseLetter(first) {
        diagnostics.append(
          .warning(
            "entity-name-case", "entity name '\(entity.name)' does not start with an uppercase letter",
            at: entity.location, entity: entity.name, fix: "Xcode expects entity names like 'Task'; rename the entity"))
      }
    }
  }

  mutating func checkHierarchy(_ entity: EntityDescription) {
    if let parentName = entity.parentEntityName {
      if entity.parent == nil {
        let suggestion = EditDistance.suggestion(for: parentName, among: model.entities.map(\.name))
        diagnostics.append(
          .error(
            "unknown-parent-entity", "entity '\(entity.name)' has parent entity '\(parentName)', which does not exist",
            at: entity.location, entity: entity.name,
            fix: suggestion.map { "did you mean '\($0)'?" } ?? "add the entity '\(parentName)' or remove the parent"))
      } else {
        // Cycle: walking up returns to this entity.
        var visited: Set<Int> = [entity.id.index]
        var current = entity.parent
        while let id = current {
          if !visited.insert(id.index).inserted {
            if id == entity.id {
              diagnostics.append(
                .error(
                  "inheritance-cycle",
                  "entity '\(entity.name)' inherits from itself through \(cycleDescription(from: entity.id))",
                  at: entity.location, entity: entity.name, fix: "remove the parent entity of one entity in the cycle"))
            }
            break
          }
          current = model[id].parent
        }
      }
    }
    if entity.isAbstract && entity.subentities.isEmpty {
      diagnostics.append(
        .warning(
          "abstract-without-subentities", "entity '\(entity.name)' is abstract but has no sub-entities",
          at: entity.location, entity: entity.name,
          fix: "no object of it can ever exist; add a sub-entity or uncheck Abstract Entity"))
    }
  }

  func cycleDescription(from start: EntityID) -> String {
    var names = [model[start].name]
    var current = model[start].parent
    var visited: Set<Int> = [start.index]
    while let id = current, visited.insert(id.index).inserted {
      names.append(model[id].name)
      current = model[id].parent
    }
    names.append(model[start].name)
    return names.joined(separator: " → ")
  }

  /// The names of an entity's own properties, computed once per entity: an entity with many
  /// sub-entities is an ancestor many times over.
  mutating func propertyNames(of id: EntityID) -> Set<String> {
    if let known = propertyNameSets[id.index] { return known }
    let entity = model.entities[id.index]
    var names = Set<String>(
      minimumCapacity: entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
    for attribute in entity.attributes { names.insert(attribute.name) }
    for relationship in entity.relationships { names.insert(relationship.name) }
    for property in entity.fetchedProperties { names.insert(property.name) }
    propertyNameSets[id.index] = names
    return names
  }

  mutating func checkProperties(_ entity: EntityDescription) {
    var seen = Set<String>(
      minimumCapacity: entity.attributes.count + entity.relationships.count + entity.fetchedProperties.count)
    // The ancestors' property names, nearest first (ancestors(of:) stops at a cycle).
    var ancestorNames: [(entity: String, names: Set<String>)] = []
    if entity.parent != nil {
      for ancestor in model.ancestors(of: entity.id) where ancestor != entity.id {
        ancestorNames.append((model.entities[ancestor.index].name, propertyNames(of: ancestor)))
      }
    }
    func check(_ name: String, _ location: SourceLocation?) {
      guard !name.isEmpty else { return }
      if !seen.insert(name).inserted {
        diagnostics.append(
          .error(
            "duplicate-property", "entity '\(entity.name)' has more than one property named '\(name)'", at: location,
            entity: entity.name, property: name, fix: "rename or remove one of them"))
      } else if let owner = ancestorNames.first(where: { $0.names.contains(name) })?.entity {
        diagnostics.append(
          .error(
            "shadowed-property",
            "property '\(name)' of entity '\(entity.name)' has the same name as a property of its parent entity '\(owner)'",
            at: location, entity: entity.name, property: name,
            fix: "rename it, or remove it and use the inherited '\(name)'"))
      }
      if let first = name.unicodeScalars.first, isUppercaseLetter(first) {
        diagnostics.append(
          .warning(
            "property-name-case", "property '\(name)' of entity '\(entity.name)' starts with an uppercase letter",
            at: location, entity: entity.name, property: name,
            fix: "Xcode expects property names like 'dueDate'; rename the property"))
      }
    }
    for attribute in entity.attributes { check(attribute.name, attribute.location) }
    for relationship in entity.relationships { check(relationship.name, relationship.location) }
    for property in entity.fetchedProperties { check(property.name, property.location) }
    let hasAttributes =
      !entity.attributes.isEmpty || model.ancestors(of: entity.id).contains { !model[$0].attributes.isEmpty }
    if !hasAttributes && !entity.isAbstract {
      diagnostics.append(
        .warning(
          "no-attributes", "entity '\(entity.name)' has no attributes", at: entity.location, entity: entity.name,
          fix: "add an attribute, or remove the entity if it is unused"))
    }
  }

  // MARK: - Attributes

  mutating func checkAttribute(
    _ attribute: AttributeDescription, in entity: EntityDescription?, compositeName: String? = nil
  ) {
    let owner = entity?.name ?? compositeName ?? ""
    let ownerKind = entity == nil ? "composite" : "entity"
    // Built only when a diagnostic needs it: most attributes have none.
    var describe: String { "attribute '\(attribute.name)' of \(ownerKind) '\(owner)'" }
    if attribute.attributeType == .undefined && !attribute.isTransient {
      diagnostics.append(
        .error(
          "undefined-type", "\(describe) has type Undefined but is not transient", at: attribute.location,
          entity: owner,
          property: attribute.name, fix: "choose a type, or mark the attribute transient"))
    }
    if attribute.attributeType == .objectID && !attribute.isTransient {
      diagnostics.append(
        .error(
          "objectid-not-transient", "\(describe) has type ObjectID but is not transient", at: attribute.location,
          entity: owner, property: attribute.name, fix: "ObjectID attributes cannot be stored; mark it transient"))
    }
    if attribute.attributeType == .composite {
      if let name = attribute.compositeName {
        if model.composite(named: name) == nil {
          diagnostics.append(
            .error(
              "unknown-composite", "\(describe) uses composite '\(name)', which does not exist", at: attribute.location,
              entity: owner, property: attribute.name,
              fix: EditDistance.suggestion(for: name, among: model.composites.map(\.name)).map {
                "did you mean '\($0)'?"
              }
                ?? "add the composite type or choose another"))
        }
      } else {
        diagnostics.append(
          .error(
            "missing-composite", "\(describe) is Composite but names no composite type", at: attribute.location,
            entity: owner, property: attribute.name, fix: "choose the composite type in Xcode's model editor"))
      }
    }
    if attribute.isDerived && (attribute.derivationExpression ?? "").isEmpty {
      diagnostics.append(
        .error(
          "missing-derivation", "\(describe) is derived but has no derivation expression", at: attribute.location,
          entity: owner, property: attribute.name, fix: "write the derivation, or uncheck Derived"))
    }
    if attribute.attributeType == .transformable && attribute.valueTransformerName == nil && !attribute.isTransient {
      diagnostics.append(
        .warning(
          "transformable-without-transformer", "\(describe) is Transformable without a value transformer",
          at: attribute.location, entity: owner, property: attribute.name,
          fix: "set the transformer to NSSecureUnarchiveFromData (or a subclass), as Xcode recommends"))
    }
    if attribute.minValue != nil || attribute.maxValue != nil {
      checkBounds(attribute, describe: describe, owner: owner)
    }
    if let pattern = attribute.regularExpression, !pattern.isEmpty {
      checkRegularExpression(attribute, describe: describe, owner: owner)
    }
  }

  mutating func checkBounds(
    _ attribute: AttributeDescription, describe: @autoclosure () -> String, owner: String
  ) {
    let isLength = attribute.attributeType == .string || attribute.attributeType == .binary
    if let min = attribute.minValue?.numericValue, let max = attribute.maxValue?.numericValue, min > max {
      diagnostics.append(
        .error(
          "min-greater-than-max",
          "\(describe()) has a minimum \(isLength ? "length " : "")(\(attribute.minValue!)) greater than its maximum (\(attribute.maxValue!))",
          at: attribute.location, entity: owner, property: attribute.name, fix: "swap or correct the bounds"))
    }
    guard let value = attribute.defaultValue else { return }
    let measured: Double?
    switch value {
    case .string(let string): measured = Double(string.utf16.count)
    default: measured = value.numericValue
    }
    guard let measured else { return }
    if let min = attribute.minValue?.numericValue, measured < min {
      diagnostics.append(
        .error(
          "default-below-minimum",
          "the default value of \(describe()) (\(value)) is below its minimum \(isLength ? "length " : "")\(attribute.minValue!)",
          at: attribute.location, entity: owner, property: attribute.name,
          fix: "change the default value or the minimum"))
    }
    if let max = attribute.maxValue?.numericValue, measured > max {
      diagnostics.append(
        .error(
          "default-above-maximum",
          "the default value of \(describe()) (\(value)) is above its maximum \(isLength ? "length " : "")\(attribute.maxValue!)",
          at: attribute.location, entity: owner, property: attribute.name,
          fix: "change the default value or the maximum"))
    }
  }

  mutating func checkRegularExpression(
    _ attribute: AttributeDescription, describe: @autoclosure () -> String, owner: String
  ) {
    guard let pattern = attribute.regularExpression, !pattern.isEmpty else { return }
    guard attribute.attributeType == .string else {
      diagnostics.append(
        .warning(
          "regex-on-non-string", "\(describe()) has a regular expression but is \(attribute.attributeType.rawValue)",
          at: attribute.location, entity: owner, property: attribute.name,
          fix: "regular expressions apply to String attributes only; remove it"))
      return
    }
    guard let expression = try? NSRegularExpression(pattern: pattern) else {
      diagnostics.append(
        .error(
          "invalid-regex", "the regular expression of \(describe()) does not compile: \(pattern)",
          at: attribute.location, entity: owner, property: attribute.name,
          fix: "correct the pattern (ICU syntax)"))
      return
    }
    if case .string(let value) = attribute.defaultValue {
      let range = NSRange(value.startIndex..<value.endIndex, in: value)
      let match = expression.firstMatch(in: value, options: [.anchored], range: range)
      if match?.range != range {
        diagnostics.append(
          .error(
            "default-breaks-regex",
            "the default value of \(describe()) ('\(value)') does not match its regular expression \(pattern)",
            at: attribute.location, entity: owner, property: attribute.name,
            fix: "change the default value or the pattern"))
      }
    }
  }

  // MARK: - Relationships

  mutating func checkRelationship(_ relationship: RelationshipDescription, in entity: EntityDescription) {
    var describe: String { "relationship '\(relationship.name)' of entity '\(entity.name)'" }
    if relationship.destination == nil && !relationship.destinationEntityName.isEmpty {
      let suggestion = EditDistance.suggestion(
        for: relationship.destinationEntityName, among: model.entities.map(\.name))
      diagnostics.append(
        .error(
          "unknown-destination-entity",
          "\(describe) has destination entity '\(relationship.destinationEntityName)', which does not exist",
          at: relationship.location, entity: entity.name, property: relationship.name,
          fix: suggestion.map { "did you mean '\($0)'?" } ?? "add the entity or choose another destination"))
    }
    if let minCount = relationship.minCountValue, minCount < 0 {
      diagnostics.append(
        .error(
          "negative-count", "\(describe) has a negative minimum count (\(minCount))", at: relationship.location,
          entity: entity.name, property: relationship.name, fix: "use 0 or more"))
    }
    if let maxCount = relationship.maxCountValue, maxCount < 0 {
      diagnostics.append(
        .error(
          "negative-count", "\(describe) has a negative maximum count (\(maxCount))", at: relationship.location,
          entity: entity.name, property: relationship.name, fix: "use 0 (unbounded) or more"))
    }
    if relationship.isToMany, relationship.maxCount > 0, relationship.minCount > relationship.maxCount {
      diagnostics.append(
        .error(
          "min-greater-than-max",
          "\(describe) has a minimum count (\(relationship.minCount)) greater than its maximum (\(relationship.maxCount))",
          at: relationship.location, entity: entity.name, property: relationship.name, fix: "swap or correct the counts"
        ))
    }
    if relationship.isOrdered && !relationship.isToMany {
      diagnostics.append(
        .warning(
          "ordered-to-one", "\(describe) is marked ordered but is to-one", at: relationship.location,
          entity: entity.name, property: relationship.name, fix: "only to-many relationships can be ordered"))
    }
    guard let inverseName = relationship.inverseName else {
      if relationship.destination != nil && !relationship.isTransient {
        diagnostics.append(
          .warning(
            "no-inverse", "\(describe) has no inverse relationship", at: relationship.location, entity: entity.name,
            property: relationship.name,
            fix: "add an inverse so that both sides stay consistent; without one, integrity is the app's job"))
      }
      return
    }
    let inverseEntityName = relationship.inverseEntityName ?? relationship.destinationEntityName
    guard let inverseEntity = model.entityID(named: inverseEntityName) else {
      if inverseEntityName != relationship.destinationEntityName || relationship.destination != nil {
        diagnostics.append(
          .error(
            "unknown-inverse-entity", "\(describe) names inverse entity '\(inverseEntityName)', which does not exist",
            at: relationship.location, entity: entity.name, property: relationship.name,
            fix: "choose the inverse from the destination entity's relationships"))
      }
      return
    }
    if let destination = relationship.destination, !related(inverseEntity, destination) {
      diagnostics.append(
        .error(
          "inverse-entity-mismatch",
          "\(describe) goes to '\(relationship.destinationEntityName)' but its inverse is declared on '\(inverseEntityName)'",
          at: relationship.location, entity: entity.name, property: relationship.name,
          fix: "choose an inverse that belongs to the destination entity"))
      return
    }
    guard let inverseID = relationship.inverse else {
      let candidates = model.allRelationships(of: inverseEntity).map(\.relationship.name)
      diagnostics.append(
        .error(
          "unknown-inverse",
          "\(describe) names inverse '\(inverseName)', which entity '\(inverseEntityName)' does not have",
          at: relationship.location, entity: entity.name, property: relationship.name,
          fix: EditDistance.suggestion(for: inverseName, among: candidates).map { "did you mean '\($0)'?" }
            ?? "choose the inverse from '\(inverseEntityName)''s relationships"))
      return
    }
    let inverse = model[inverseID]
    let pointsBack: Bool
    if let backName = inverse.inverseName, backName == relationship.name,
      let backEntity = model.entityID(named: inverse.inverseEntityName ?? inverse.destinationEntityName)
    {
      pointsBack = related(backEntity, entity.id)
    } else {
      pointsBack = false
    }
    if !pointsBack {
      let actual =
        inverse.inverseName.map { "'\(inverse.inverseEntityName ?? inverse.destinationEntityName).\($0)'" } ?? "nothing"
      diagnostics.append(
        .error(
          "inverse-not-reciprocal",
          "\(describe) has inverse '\(inverseEntityName).\(inverseName)', but that relationship's inverse is \(actual)",
          at: relationship.location, entity: entity.name, property: relationship.name,
          fix: "set the inverse of '\(inverseEntityName).\(inverseName)' to '\(entity.name).\(relationship.name)'"))
    }
  }

  /// Whether two entities are the same or one inherits from the other.
  func related(_ a: EntityID, _ b: EntityID) -> Bool {
    model.entity(a, isKindOf: b) || model.entity(b, isKindOf: a)
  }

  // MARK: - Fetched properties, constraints, indexes

  mutating func checkFetchedProperties(_ entity: EntityDescription) {
    for property in entity.fetchedProperties {
      guard let request = property.fetchRequest else {
        diagnostics.append(
          .error(
            "fetched-property-without-request",
            "fetched property '\(property.name)' of entity '\(entity.name)' has no fetch request",
            at: property.location,
            entity: entity.name, property: property.name, fix: "choose the destination entity and predicate"))
        continue
      }
      if !request.entityName.isEmpty && model.entity(named: request.entityName) == nil {
        diagnostics.append(
          .error(
            "unknown-fetch-entity",
            "fetched property '\(property.name)' of entity '\(entity.name)' fetches entity '\(request.entityName)', which does not exist",
            at: property.location, entity: entity.name, property: property.name,
            fix: "choose an existing destination entity"))
      }
    }
  }

  /// What constraints and indexes need to know of a property, by name.
  /// Looks properties up by name among an entity's own and inherited ones; the nearest
  /// definition of a name wins. Constraints and indexes name a few properties each, so a direct
  /// search beats building dictionaries of every property.
  struct PropertyFacts {
    let model: ModelVersion
    /// The entity, then its ancestors, nearest first.
    let owners: [EntityID]

    /// Whether the attribute with this name is transient; nil when there is no such attribute.
    func attributeIsTransient(_ name: String) -> Bool? {
      for owner in owners {
        if let attribute = model.entities[owner.index].attributes.first(where: { $0.name == name }) {
          return attribute.isTransient
        }
      }
      return nil
    }

    /// Whether the relationship with this name is to-many; nil when there is no such relationship.
    func relationshipIsToMany(_ name: String) -> Bool? {
      for owner in owners {
        if let relationship = model.entities[owner.index].relationships.first(where: { $0.name == name }) {
          return relationship.isToMany
        }
      }
      return nil
    }

    /// Every property name, sorted, for suggestions.
    var allNames: [String] {
      Array(
        Set(
          owners.flatMap { owner in
            model.entities[owner.index].attributes.map(\.name) + model.entities[owner.index].relationships.map(\.name)
          })
      ).sorted()
    }
  }

  func propertyFacts(of entity: EntityDescription) -> PropertyFacts {
    PropertyFacts(model: model, owners: [entity.id] + model.ancestors(of: entity.id))
  }

  mutating func checkConstraintsAndIndexes(_ entity: EntityDescription) {
    if entity.uniquenessConstraints.isEmpty && entity.fetchIndexes.isEmpty && entity.compoundIndexes.isEmpty { return }
    let facts = propertyFacts(of: entity)
    var allNames: [String] { facts.allNames }
    for constraint in entity.uniquenessConstraints {
      if constraint.properties.isEmpty {
        diagnostics.append(
          .error(
            "empty-constraint", "entity '\(entity.name)' has an empty uniqueness constraint",
            at: constraint.location ?? entity.location, entity: entity.name, fix: "add properties to it or remove it"))
      }
      for name in constraint.properties {
        if let isToMany = facts.relationshipIsToMany(name) {
          if isToMany {
            diagnostics.append(
              .error(
                "constraint-on-to-many",
                "the uniqueness constraint of entity '\(entity.name)' names the to-many relationship '\(name)'",
                at: constraint.location ?? entity.location, entity: entity.name, property: name,
                fix: "constraints may name attributes and to-one relationships only"))
          }
        } else if let isTransient = facts.attributeIsTransient(name) {
          if isTransient {
            diagnostics.append(
              .error(
                "constraint-on-transient",
                "the uniqueness constraint of entity '\(entity.name)' names the transient attribute '\(name)'",
                at: constraint.location ?? entity.location, entity: entity.name, property: name,
                fix: "transient values are never stored; remove it from the constraint"))
          }
        } else {
          diagnostics.append(
            .error(
              "unknown-constraint-property",
              "the uniqueness constraint of entity '\(entity.name)' names '\(name)', which is not a property of it",
              at: constraint.location ?? entity.location, entity: entity.name, property: name,
              fix: EditDistance.suggestion(for: name, among: allNames).map { "did you mean '\($0)'?" }
                ?? "name an attribute or to-one relationship of the entity"))
        }
      }
    }
    for index in entity.fetchIndexes {
      if index.elements.isEmpty {
        diagnostics.append(
          .warning(
            "empty-fetch-index", "fetch index '\(index.name)' of entity '\(entity.name)' has no elements",
            at: index.location ?? entity.location, entity: entity.name, fix: "add an element or remove the index"))
      }
      for element in index.elements {
        guard let name = element.property else { continue }
        if facts.relationshipIsToMany(name) == true {
          // Xcode compiles such an index and shipped apps have them; a to-many has no column,
          // so the store's index leaves the element out (docs/store-format.md §6).
          let others = index.elements.filter { $0.property.map { facts.relationshipIsToMany($0) != true } ?? true }
          let effect =
            others.isEmpty
            ? "it has no column, and the index has nothing else to index, so the store has no such index"
            : "it has no column, so the store's index leaves it out"
          diagnostics.append(
            .warning(
              "index-on-to-many",
              "fetch index '\(index.name)' of entity '\(entity.name)' names the to-many relationship '\(name)': \(effect)",
              at: element.location ?? index.location, entity: entity.name, property: name,
              fix: "index attributes and to-one relationships only"))
        } else if facts.attributeIsTransient(name) == nil && facts.relationshipIsToMany(name) == nil {
          diagnostics.append(
            .error(
              "unknown-index-property",
              "fetch index '\(index.name)' of entity '\(entity.name)' names '\(name)', which is not a property of it",
              at: element.location ?? index.location, entity: entity.name, property: name,
              fix: EditDistance.suggestion(for: name, among: allNames).map { "did you mean '\($0)'?" }
                ?? "name an attribute or to-one relationship of the entity"))
        }
      }
    }
    for index in entity.compoundIndexes {
      for name in index.properties
      where facts.attributeIsTransient(name) == nil && facts.relationshipIsToMany(name) == nil {
        diagnostics.append(
          .error(
            "unknown-index-property",
            "a compound index of entity '\(entity.name)' names '\(name)', which is not a property of it",
            at: index.location ?? entity.location, entity: entity.name, property: name,
            fix: EditDistance.suggestion(for: name, among: allNames).map { "did you mean '\($0)'?" }
              ?? "name an attribute of the entity"))
      }
    }
  }

  // MARK: - Model-level elements

  mutating func checkFetchRequests() {
    var seen: Set<String> = []
    for request in model.fetchRequests {
      if !seen.insert(request.name).inserted {
        diagnostics.append(
          .error(
            "duplicate-fetch-request", "duplicate fetch request template '\(request.name)'", at: request.location,
            fix: "rename or remove one of them"))
      }
      if model.entity(named: request.entityName) == nil {
        diagnostics.append(
          .error(
            "unknown-fetch-entity",
            "fetch request template '\(request.name)' fetches entity '\(request.entityName)', which does not exist",
            at: request.location, entity: request.entityName, fix: "choose an existing entity"))
      }
    }
  }

  mutating func checkConfigurations() {
    var seen: Set<String> = []
    for configuration in model.configurations {
      if !seen.insert(configuration.name).inserted {
        diagnostics.append(
          .error(
            "duplicate-configuration", "duplicate configuration '\(configuration.name)'", at: configuration.location,
            fix: "rename or remove one of them"))
      }
      for member in configuration.memberEntities where model.entity(named: member) == nil {
        diagnostics.append(
          .error(
            "unknown-configuration-entity",
            "configuration '\(configuration.name)' lists entity '\(member)', which does not exist",
            at: configuration.location, entity: member, fix: "remove it from the configuration"))
      }
    }
  }
}
