import DataModel
/// The Swift names of the properties of every entity that has a class.
///
/// A property is named as in the model (or by the user's rename). A name that is not an
/// identifier is sanitized. A name that generated classes already have (``ReservedNames/members``:
/// `id`, `description`, `context`…), that would hide a module generated code refers to, or that
/// Swift cannot use after a dot (`self`, `Type`…), is prefixed with the entity's name
/// (`id` → `taskID`, `description` → `taskDescription`). A keyword is written in backticks. Each
/// change is a warning. Inherited properties keep the names their ancestor's class gives them.
struct PropertyNaming {
  /// A property's name.
  struct Name: Sendable, Hashable {
    /// The name itself.
    var bare: String
    /// The name as written in code.
    var written: String
  }

  /// The names of one class's properties, inherited ones included, by model name; and the
  /// suffixes of its to-many helpers (`Tags` in `addToTags(_:)`), by model name.
  struct ClassNames: Sendable {
    var properties: [String: Name] = [:]
    var helperSuffixes: [String: String] = [:]
  }

  private let model: ModelVersion
  private let classes: ClassNaming
  private let modes: [CodegenOptions.Mode?]
  private let renames: [String: String]
  private var resolved: [Int: ClassNames] = [:]
  /// Warnings about the names of generated properties.
  private(set) var diagnostics: [Diagnostic] = []

  init(model: ModelVersion, classes: ClassNaming, modes: [CodegenOptions.Mode?], renames: [String: String]) {
    self.model = model
    self.classes = classes
    self.modes = modes
    self.renames = renames
  }

  /// The nearest ancestor that has a class: the generated class's superclass.
  func classAncestor(of entity: EntityID) -> EntityID? {
    model.ancestors(of: entity).first { classes[$0].hasClass }
  }

  /// The names of an entity's class, resolving its ancestors' first.
  mutating func names(of entity: EntityID) -> ClassNames {
    if let known = resolved[entity.index] { return known }
    var names = classAncestor(of: entity).map { self.names(of: $0) } ?? ClassNames()
    let inherited = Set(names.properties.keys)
    var used = Set(names.properties.values.map(\.bare))
    var usedHelpers = Set(names.helperSuffixes.values)
    let description = model[entity]
    let warns = modes[entity.index] != nil
    let properties =
      model.allAttributes(of: entity).map { (name: $0.name, location: $0.location, toMany: false) }
      + model.allRelationships(of: entity).map {
        (name: $0.relationship.name, location: $0.relationship.location, toMany: $0.relationship.isToMany)
      }
    for property in properties where !inherited.contains(property.name) {
      let declaring = declaringEntity(of: property.name, in: entity)
      var bare =
        renames["\(description.name).\(property.name)"] ?? renames["\(declaring).\(property.name)"] ?? property.name
      var found: [Diagnostic] = []
      let subject = "property '\(property.name)' of entity '\(description.name)'"
      if let sanitized = SwiftIdentifier.sanitized(bare) {
        found.append(
          .warning(
            "codegen-sanitized-name", "\(subject) is not a Swift identifier; the property is named '\(sanitized)'",
            at: property.location, entity: description.name, property: property.name,
            fix: "rename it in the model, or pass --rename \(description.name).\(property.name)=NAME"))
        bare = sanitized
      }
      if let why = Self.clash(bare) {
        let prefix = SwiftIdentifier.lowerFirst(SwiftIdentifier.sanitized(description.name) ?? description.name)
        let renamed = unique(prefix + SwiftIdentifier.upperFirst(bare), in: used)
        found.append(
          .warning(
            "codegen-renamed-property", "\(subject) is named '\(renamed)' in Swift: '\(bare)' is \(why)",
            at: property.location, entity: description.name, property: property.name,
            fix: "choose another name with --rename \(description.name).\(property.name)=NAME"))
        bare = renamed
      } else if used.contains(bare) {
        let renamed = unique(bare, in: used)
        found.append(
          .warning(
            "codegen-renamed-property",
            "\(subject) is named '\(renamed)' in Swift: another property is named '\(bare)'",
            at: property.location, entity: description.name, property: property.name,
            fix: "choose another name with --rename \(description.name).\(property.name)=NAME"))
        bare = renamed
      } else if SwiftIdentifier.keywords.contains(bare) {
        found.append(
          .warning(
            "codegen-escaped-name", "\(subject) is a Swift keyword; it is written `\(bare)` in backticks",
            at: property.location, entity: description.name, property: property.name,
            fix: "choose another name with --rename \(description.name).\(property.name)=NAME"))
      }
      used.insert(bare)
      names.properties[property.name] = Name(bare: bare, written: SwiftIdentifier.escaped(bare))
      if property.toMany {
        let suffix = unique(SwiftIdentifier.upperFirst(bare), in: usedHelpers)
        usedHelpers.insert(suffix)
        names.helperSuffixes[property.name] = suffix
      }
      if warns { diagnostics += found }
    }
    resolved[entity.index] = names
    return names
  }

  /// Why a name cannot be a generated property's, or nil when it can.
  static func clash(_ name: String) -> String? {
    if let member = ReservedNames.members[name] { return member }
    if ReservedNames.modules.contains(name) { return "the module \(name), which generated code refers to" }
    if SwiftIdentifier.unusable.contains(name) { return "a word Swift reserves after a dot" }
    return nil
  }

  /// The entity among the entity and its ancestors that declares a property.
  private func declaringEntity(of property: String, in entity: EntityID) -> String {
    for candidate in [entity] + model.ancestors(of: entity)
    where model[candidate].attribute(named: property) != nil || model[candidate].relationship(named: property) != nil {
      return model[candidate].name
    }
    return model[entity].name
  }

  /// `name`, or `name` followed by the first number that makes it unused.
  private func unique(_ name: String, in used: Set<String>) -> String {
    guard used.contains(name) else { return name }
    var number = 2
    while used.contains("\(name)\(number)") { number += 1 }
    return "\(name)\(number)"
  }
}
