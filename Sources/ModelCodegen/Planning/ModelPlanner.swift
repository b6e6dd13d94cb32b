import DataModel
/// Turns a validated model version and the options into the plans the printers print: which
/// entities get code, every name, slot and type. All decisions are made here.
struct ModelPlanner {
  /// The plans and the warnings met on the way.
  struct Result: Sendable {
    /// One plan per entity that gets code, by entity name (byte order).
    var entities: [EntityPlan]
    /// The classes the container registers: those of the entities that get code.
    var registeredClasses: [String]
    /// The name of the schema type (`TasksModel`).
    var schemaTypeName: String
    /// Warnings.
    var diagnostics: [Diagnostic]
  }

  let model: ModelVersion
  let bundleName: String
  let options: CodegenOptions

  /// Plans the code; throws when a rename names nothing or is not an identifier.
  func plan() throws(CodegenError) -> Result {
    try checkRenames()
    var diagnostics: [Diagnostic] = []
    var modes = model.entities.map { entity -> CodegenOptions.Mode? in
      if let override = options.modeOverride { return override }
      switch entity.codeGenerationType {
      case .classDefinition: return .class
      case .category: return .category
      case .other, nil: return nil
      }
    }
    let classes = ClassNaming(model: model, modes: modes, renames: options.renames, diagnostics: &diagnostics)
    shareClasses(classes: classes, modes: &modes, diagnostics: &diagnostics)
    var naming = PropertyNaming(model: model, classes: classes, modes: modes, renames: options.renames)
    var plans: [EntityPlan] = []
    var initializers: [Int: [InitializerParameter]] = [:]
    // Ancestors first, so that an initializer the superclass already has is not repeated.
    let byDepth = model.entityIDsByName.enumerated()
      .map { (depth: model.ancestors(of: $1).count, position: $0, id: $1) }
      .sorted { ($0.depth, $0.position) < ($1.depth, $1.position) }
    for id in byDepth.map(\.id) where modes[id.index] != nil {
      let (plan, parameters) = entityPlan(
        id, mode: modes[id.index]!, classes: classes, modes: modes, naming: &naming, initializers: initializers,
        diagnostics: &diagnostics)
      initializers[id.index] = parameters
      plans.append(plan)
    }
    diagnostics += naming.diagnostics
    let order = Dictionary(uniqueKeysWithValues: model.entityIDsByName.enumerated().map { ($1.index, $0) })
    plans.sort {
      order[model.entityID(named: $0.entityName)!.index]! < order[model.entityID(named: $1.entityName)!.index]!
    }
    let classNames = Set(classes.entries.map(\.name))
    var schemaName = (SwiftIdentifier.sanitized(bundleName) ?? bundleName) + "Model"
    while classNames.contains(schemaName) || ReservedNames.modules.contains(schemaName) { schemaName += "Schema" }
    return Result(
      entities: plans, registeredClasses: plans.map(\.className), schemaTypeName: schemaName,
      diagnostics: diagnostics.sorted(by: Self.diagnosticOrder))
  }

  // MARK: - Entities

  private func entityPlan(
    _ id: EntityID, mode: CodegenOptions.Mode, classes: ClassNaming, modes: [CodegenOptions.Mode?],
    naming: inout PropertyNaming, initializers: [Int: [InitializerParameter]], diagnostics: inout [Diagnostic]
  ) -> (EntityPlan, [InitializerParameter]?) {
    let entity = model[id]
    let names = naming.names(of: id)
    let ancestor = naming.classAncestor(of: id)
    let inherited = ancestor.map { Set(naming.names(of: $0).properties.keys) } ?? []
    let descendants = model.descendants(of: id).filter { classes[$0].hasClass }
    let declaresConformance = !model.ancestors(of: id).contains { modes[$0.index] != nil }
    var subentityNames: [(className: String, entityName: String)] = []
    if declaresConformance {
      var seen: Set<String> = [classes[id].name]
      for descendant in descendants where seen.insert(classes[descendant].name).inserted {
        subentityNames.append((classes[descendant].written, model[descendant].name))
      }
    }

    var attributes: [AttributePlan] = []
    var keys: [KeyPlan] = []
    var required: [InitializerParameter] = []
    for (slot, attribute) in model.allAttributes(of: id).enumerated() {
      let name = names.properties[attribute.name]!
      let typing = AttributeTyping.typing(of: attribute, in: entity.name)
      keys.append(KeyPlan(swiftName: name.written, modelName: attribute.name, valueType: typing.swiftType))
      if attribute.isPersistent && !attribute.isOptional && !attribute.isDerived && attribute.defaultValue == nil
        && typing.storage != .raw
      {
        required.append(InitializerParameter(name: name.written, swiftType: typing.swiftType))
      }
      guard !inherited.contains(attribute.name) else { continue }
      if let warning = typing.warning { diagnostics.append(warning) }
      attributes.append(
        AttributePlan(
          modelName: attribute.name, swiftName: name.written, slot: slot, swiftType: typing.swiftType,
          storage: typing.storage, isReadOnly: attribute.isDerived,
          documentation: documentation(of: attribute, named: name.bare, in: entity.name)))
    }

    var relationships: [RelationshipPlan] = []
    for (slot, item) in model.allRelationships(of: id).enumerated() {
      let relationship = item.relationship
      let name = names.properties[relationship.name]!
      let destination = relationship.destination.map { classes[$0].hasClass ? classes[$0].written : nil }
      let destinationClass = (destination ?? nil) ?? "Persistence.ManagedObject"
      let kind: RelationshipPlan.Kind =
        relationship.isToMany ? (relationship.isOrdered ? .ordered : .toMany) : .toOne
      let plan = RelationshipPlan(
        modelName: relationship.name, swiftName: name.written, slot: slot, destinationClass: destinationClass,
        kind: kind, helperSuffix: names.helperSuffixes[relationship.name], inverseName: relationship.inverseName,
        documentation: [])
      keys.append(KeyPlan(swiftName: name.written, modelName: relationship.name, valueType: plan.swiftType))
      if !relationship.isToMany && !relationship.isOptional && !relationship.isTransient {
        required.append(InitializerParameter(name: name.written, swiftType: destinationClass))
      }
      guard !inherited.contains(relationship.name) else { continue }
      var documented = plan
      documented.documentation = documentation(of: relationship, named: name.bare, in: entity.name)
      relationships.append(documented)
    }

    // An initializer with the required values, unless the entity is abstract, has none, or a
    // superclass already has the same one (subclasses inherit it, and it inserts `Self`).
    var initializer: [InitializerParameter]? = entity.isAbstract || required.isEmpty ? nil : required
    if let parameters = initializer,
      model.ancestors(of: id).contains(where: { initializers[$0.index] == parameters })
    {
      initializer = nil
    }
    let plan = EntityPlan(
      entityName: entity.name, mode: mode, className: classes[id].written, fileStem: classes[id].name,
      superclass: ancestor.map { classes[$0].written } ?? "Persistence.ManagedObject",
      isFinal: descendants.isEmpty, isAbstract: entity.isAbstract, declaresConformance: declaresConformance,
      subentityNames: subentityNames, attributes: attributes, relationships: relationships,
      initializer: initializer, keys: keys, versionName: model.name)
    return (plan, entity.isAbstract || required.isEmpty ? nil : required)
  }

  // MARK: - Shared classes

  /// Entities whose classes have the same name get one class: the one of the entity that is
  /// an ancestor of the others, else the first by name. The others get no code of their own
  /// (their objects are made as that class, as in Core Data).
  private func shareClasses(classes: ClassNaming, modes: inout [CodegenOptions.Mode?], diagnostics: inout [Diagnostic])
  {
    var byName: [String: [EntityID]] = [:]
    for id in model.entityIDsByName where modes[id.index] != nil {
      byName[classes[id].name, default: []].append(id)
    }
    for (name, ids) in byName.sorted(by: { $0.key < $1.key }) where ids.count > 1 {
      let owner = ids.first { candidate in ids.allSatisfy { model.entity($0, isKindOf: candidate) } } ?? ids[0]
      for id in ids where id != owner {
        modes[id.index] = nil
        diagnostics.append(
          .warning(
            "codegen-shared-class",
            "entity '\(model[id].name)' has the class '\(name)' of entity '\(model[owner].name)'; only '\(model[owner].name)' gets code, and objects of '\(model[id].name)' are made as \(name)",
            at: model[id].location, entity: model[id].name,
            fix: "give the entity its own class name in the model, or pass --rename \(model[id].name)=NAME"))
      }
    }
  }

  // MARK: - Renames

  private func checkRenames() throws(CodegenError) {
    for (key, value) in options.renames.sorted(by: { $0.key < $1.key }) {
      guard SwiftIdentifier.sanitized(value) == nil else {
        throw CodegenError("the rename '\(key)=\(value)' does not give a Swift identifier")
      }
      let parts = key.split(separator: ".", maxSplits: 1).map(String.init)
      guard let entity = model.entityID(named: parts[0]) else {
        throw CodegenError(
          "the rename '\(key)=\(value)' names the entity '\(parts[0])', which version '\(model.name)' does not have",
          notes: ["its entities are: \(model.entities.map(\.name).sorted().joined(separator: ", "))"])
      }
      if parts.count == 2 {
        let property = parts[1]
        guard
          model.attribute(named: property, in: entity) != nil || model.relationship(named: property, in: entity) != nil
        else {
          throw CodegenError(
            "the rename '\(key)=\(value)' names the property '\(property)', which entity '\(parts[0])' does not have")
        }
      }
    }
  }

  // MARK: - Documentation

  private func documentation(of attribute: AttributeDescription, named name: String, in entity: String) -> [String] {
    var summary = "The `\(attribute.name)` attribute: \(attribute.attributeType.rawValue)"
    if let className = attribute.customClassName, !className.isEmpty { summary += " (`\(className)`)" }
    var traits: [String] = [attribute.isOptional ? "optional" : "required"]
    if attribute.isTransient { traits.append("transient") }
    if attribute.isDerived { traits.append("derived, read-only") }
    if let value = attribute.defaultValueString, !value.isEmpty { traits.append("default \(value)") }
    var lines = [summary + ", " + traits.joined(separator: ", ") + "."]
    if name != attribute.name, let why = PropertyNaming.clash(attribute.name) {
      lines.append("Named `\(name)` because `\(attribute.name)` is \(why).")
    }
    return lines
  }

  private func documentation(of relationship: RelationshipDescription, named name: String, in entity: String)
    -> [String]
  {
    let shape = relationship.isToMany ? (relationship.isOrdered ? "ordered to-many" : "to-many") : "to-one"
    var summary = "The `\(relationship.name)` relationship: \(shape) to `\(relationship.destinationEntityName)`"
    if let inverse = relationship.inverseName { summary += ", inverse `\(inverse)`" }
    summary +=
      ", \(relationship.isOptional ? "optional" : "required"), deletion rule \(relationship.deletionRule.rawValue)."
    var lines = [summary]
    if name != relationship.name, let why = PropertyNaming.clash(relationship.name) {
      lines.append("Named `\(name)` because `\(relationship.name)` is \(why).")
    }
    return lines
  }

  private static func diagnosticOrder(_ lhs: Diagnostic, _ rhs: Diagnostic) -> Bool {
    let left = (lhs.location?.line ?? 0, lhs.location?.column ?? 0, lhs.code, lhs.message)
    let right = (rhs.location?.line ?? 0, rhs.location?.column ?? 0, rhs.code, rhs.message)
    return left < right
  }
}
