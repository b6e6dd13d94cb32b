/// Prints the Swift of one entity from its plan: the class (for `class` code generation) or
/// the conformance (for `category`, where the app writes the class), then an extension with the
/// properties, the relationship helpers, the inserting initializer and the typed keys.
struct EntityPrinter {
  let plan: EntityPlan
  let access: String

  init(plan: EntityPlan, accessLevel: CodegenOptions.AccessLevel) {
    self.plan = plan
    self.access = accessLevel == .public ? "public " : ""
  }

  /// Prints the entity's declarations.
  func print(into printer: inout CodePrinter) {
    switch plan.mode {
    case .class:
      printer.documentation(classDocumentation)
      let modifier = plan.isFinal ? "final " : ""
      let conformance = plan.declaresConformance ? ", Persistence.GeneratedEntity" : ""
      let declaration = "\(access)\(modifier)class \(plan.className): \(plan.superclass)\(conformance)"
      if plan.declaresConformance {
        printer.block(declaration) { printer in printEntityName(into: &printer) }
      } else {
        printer.line(declaration + " {}")
      }
    case .category:
      if plan.declaresConformance {
        printer.block("extension \(plan.className): Persistence.GeneratedEntity") { printer in
          printEntityName(into: &printer)
        }
      }
    }
    printer.blankLine()
    printer.block("extension \(plan.className)") { printer in
      printAttributes(into: &printer)
      printRelationships(into: &printer)
      printInitializer(into: &printer)
      printKeys(into: &printer)
    }
  }

  private var classDocumentation: [String] {
    var lines = ["An object of the `\(plan.entityName)` entity."]
    if plan.isAbstract {
      lines.append(
        "The entity is abstract: objects are of its sub-entities, and no initializer inserts one of exactly this class."
      )
    }
    return lines
  }

  // MARK: - Entity name

  private func printEntityName(into printer: inout CodePrinter) {
    if plan.subentityNames.isEmpty {
      printer.documentation(["The name of the entity in the model."])
      printer.line("\(access)static let entityName: Swift.String = \(SwiftStringLiteral.quoted(plan.entityName))")
      return
    }
    printer.documentation([
      "The name of the entity in the model.",
      "Sub-entities' classes inherit the conformance: the name depends on the class it is asked of.",
    ])
    printer.block("\(access)static var entityName: Swift.String") { printer in
      printer.nested("switch Swift.ObjectIdentifier(self) {", "}", indentsBody: false) { printer in
        for subentity in plan.subentityNames {
          printer.line(
            "case Swift.ObjectIdentifier(\(subentity.className).self): \(SwiftStringLiteral.quoted(subentity.entityName))"
          )
        }
        printer.line("default: \(SwiftStringLiteral.quoted(plan.entityName))")
      }
    }
  }

  // MARK: - Attributes

  private func printAttributes(into printer: inout CodePrinter) {
    for attribute in plan.attributes {
      printer.blankLine()
      printer.documentation(attribute.documentation)
      let name = SwiftStringLiteral.quoted(attribute.modelName)
      let location = "self, \(name), slot: \(attribute.slot)"
      let getter: String
      let setter: String
      switch attribute.storage {
      case .value(let optional):
        getter = "Persistence.EntityAccess.\(optional ? "optionalValue" : "value")(\(location))"
        setter = "Persistence.EntityAccess.setValue(newValue, \(location))"
      case .raw:
        getter = "Persistence.EntityAccess.rawValue(\(location))"
        setter = "Persistence.EntityAccess.setRawValue(newValue, \(location))"
      case .codable(let type, let zero):
        getter =
          "Persistence.EntityAccess.codableValue(\(location), as: \(type).self)" + (zero.map { " ?? \($0)" } ?? "")
        setter = "Persistence.EntityAccess.setCodableValue(newValue, \(location))"
      case .transformer(let transformer, let optional):
        getter =
          "Persistence.EntityAccess.transformedValue(\(location), using: \(transformer).self)"
          + (optional ? "" : " ?? \(transformer).defaultValue")
        setter = "Persistence.EntityAccess.setTransformedValue(newValue, \(location), using: \(transformer).self)"
      }
      if attribute.isReadOnly {
        printer.block("\(access)var \(attribute.swiftName): \(attribute.swiftType)") { printer in
          printer.line(getter)
        }
      } else {
        printer.block("\(access)var \(attribute.swiftName): \(attribute.swiftType)") { printer in
          printer.line("get { \(getter) }")
          printer.line("set { \(setter) }")
        }
      }
    }
  }

  // MARK: - Relationships

  private func printRelationships(into printer: inout CodePrinter) {
    for relationship in plan.relationships {
      printer.blankLine()
      printer.documentation(relationship.documentation)
      let location = "self, \(SwiftStringLiteral.quoted(relationship.modelName)), slot: \(relationship.slot)"
      let destination = relationship.destinationClass
      printer.block("\(access)var \(relationship.swiftName): \(relationship.swiftType)") { printer in
        switch relationship.kind {
        case .toOne:
          printer.line("get { Persistence.EntityAccess.destination(\(location)) }")
          printer.line("set { Persistence.EntityAccess.setDestination(newValue, \(location)) }")
        case .toMany:
          printer.line("get { Swift.Set(Persistence.EntityAccess.destinations(\(location)) as [\(destination)]) }")
          printer.line("set { Persistence.EntityAccess.setDestinations(newValue, \(location)) }")
        case .ordered:
          printer.line("get { Persistence.EntityAccess.destinations(\(location)) }")
          printer.line("set { Persistence.EntityAccess.setDestinations(newValue, \(location)) }")
        }
      }
      guard let suffix = relationship.helperSuffix else { continue }
      let property = "`\(relationship.modelName)`"
      let inverse = relationship.inverseName.map { ", and this object to its `\($0)`" } ?? ""
      printer.blankLine()
      printer.documentation(["Adds an object to \(property)\(inverse)."])
      printer.block("\(access)func addTo\(suffix)(_ value: \(destination))") { printer in
        printer.line("Persistence.EntityAccess.add(value, to: \(location))")
      }
      printer.blankLine()
      printer.documentation(["Adds objects to \(property)\(inverse)."])
      printer.block("\(access)func addTo\(suffix)(_ values: some Swift.Sequence<\(destination)>)") { printer in
        printer.line("for value in values { Persistence.EntityAccess.add(value, to: \(location)) }")
      }
      if relationship.kind == .ordered {
        printer.blankLine()
        printer.documentation(["Inserts an object into \(property) at a position (moving it if it is there)\(inverse)."]
        )
        printer.block("\(access)func insertInto\(suffix)(_ value: \(destination), at index: Swift.Int)") { printer in
          printer.line("Persistence.EntityAccess.add(value, to: \(location), at: index)")
        }
      }
      let inverseRemoval = relationship.inverseName.map { ", and this object from its `\($0)`" } ?? ""
      printer.blankLine()
      printer.documentation(["Removes an object from \(property)\(inverseRemoval)."])
      printer.block("\(access)func removeFrom\(suffix)(_ value: \(destination))") { printer in
        printer.line("Persistence.EntityAccess.remove(value, from: \(location))")
      }
      printer.blankLine()
      printer.documentation(["Removes objects from \(property)\(inverseRemoval)."])
      printer.block("\(access)func removeFrom\(suffix)(_ values: some Swift.Sequence<\(destination)>)") { printer in
        printer.line("for value in values { Persistence.EntityAccess.remove(value, from: \(location)) }")
      }
    }
  }

  // MARK: - Initializer

  private func printInitializer(into printer: inout CodePrinter) {
    guard let parameters = plan.initializer else { return }
    printer.blankLine()
    printer.documentation([
      "Inserts a new `\(plan.entityName)` into a context with its required values; the other attributes take the model's defaults."
    ])
    let list = (["context: Persistence.ObjectContext"] + parameters.map { "\($0.name): \($0.swiftType)" })
      .joined(separator: ", ")
    printer.block("\(access)convenience init(\(list))") { printer in
      printer.line("self.init(context: context)")
      for parameter in parameters {
        printer.line("self.\(parameter.name) = \(parameter.name)")
      }
    }
  }

  // MARK: - Keys

  private func printKeys(into printer: inout CodePrinter) {
    printer.blankLine()
    var lines = ["Typed keys of every property of `\(plan.entityName)`, for predicates and sort descriptors."]
    if let key = plan.keys.first {
      lines.append(
        "`\(plan.className).fetchRequest(predicate: \(plan.className).Keys.\(key.swiftName).isNotNil, sortDescriptors: [\(plan.className).Keys.\(key.swiftName).ascending])`"
      )
    }
    printer.documentation(lines)
    printer.block("\(access)enum Keys") { printer in
      for key in plan.keys {
        printer.line(
          "\(access)static let \(key.swiftName) = Persistence.PropertyKey<\(plan.className), \(key.valueType)>(\(SwiftStringLiteral.quoted(key.modelName)))"
        )
      }
    }
  }
}
