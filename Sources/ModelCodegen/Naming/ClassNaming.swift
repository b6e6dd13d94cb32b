import DataModel
/// The Swift class of every entity of a model version: the name generated code declares or
/// refers to, and whether the entity has a class at all.
///
/// An entity's class is named by its `representedClassName` without a module prefix, falling
/// back to the entity name (``EntityDescription/className``), or by the user's rename. Names
/// that are not identifiers are sanitized; names that would hide a module generated code refers
/// to, or that Swift cannot use as a type (`Self`, `Any`, `Type`, `Protocol`), or the nested
/// `Keys`, get the suffix `Entity`; names of common types (`Task`, `Data`, `Date`, `Set`…) are
/// kept, with a warning that the class shadows that type in its module.
struct ClassNaming: Sendable {
  /// One entity's class.
  struct Entry: Sendable, Hashable {
    /// The class name.
    var name: String
    /// The class name as written in code.
    var written: String
    /// Whether objects of the entity have a class of their own: one generated for them, or
    /// one the app writes (`representedClassName` other than `NSManagedObject`).
    var hasClass: Bool
  }

  /// The entries, indexed by entity.
  var entries: [Entry]

  subscript(entity: EntityID) -> Entry { entries[entity.index] }

  /// Resolves every entity's class; warnings only for entities with generated code.
  init(
    model: ModelVersion, modes: [CodegenOptions.Mode?], renames: [String: String], diagnostics: inout [Diagnostic]
  ) {
    entries = model.entities.map { entity in
      let isGenerated = modes[entity.id.index] != nil
      let hasClass =
        isGenerated
        || (entity.representedClassName.map { !$0.isEmpty && $0 != "NSManagedObject" } ?? false)
      var name = renames[entity.name] ?? entity.className
      var notes: [Diagnostic] = []
      if let sanitized = SwiftIdentifier.sanitized(name) {
        notes.append(
          .warning(
            "codegen-sanitized-name",
            "class name '\(name)' of entity '\(entity.name)' is not a Swift identifier; the class is named '\(sanitized)'",
            at: entity.location, entity: entity.name,
            fix: "rename the class in the model, or pass --rename \(entity.name)=NAME"))
        name = sanitized
      }
      if ReservedNames.modules.contains(name) || SwiftIdentifier.unusable.contains(name) || name == "Keys" {
        let why =
          ReservedNames.modules.contains(name)
          ? "it would hide the module \(name), which generated code refers to"
          : name == "Keys"
            ? "generated classes declare a nested type 'Keys' that would hide it"
            : "Swift cannot use '\(name)' as a class name"
        notes.append(
          .warning(
            "codegen-renamed-class", "the class of entity '\(entity.name)' is named '\(name)Entity': \(why)",
            at: entity.location, entity: entity.name,
            fix: "choose another name with --rename \(entity.name)=NAME"))
        name += "Entity"
      } else if SwiftIdentifier.keywords.contains(name) {
        notes.append(
          .warning(
            "codegen-escaped-name",
            "class name '\(name)' of entity '\(entity.name)' is a Swift keyword; it is written `\(name)` in backticks",
            at: entity.location, entity: entity.name, fix: "choose another name with --rename \(entity.name)=NAME"))
      } else if let module = ReservedNames.commonTypes[name] {
        let advice =
          name == "Task"
          ? "Swift's concurrency Task is then written Swift.Task (or _Concurrency.Task) in that module and in modules that import it"
          : "the \(module) type is then written \(module == "_Concurrency" ? "Swift" : module).\(name) there"
        notes.append(
          .warning(
            "codegen-shadowed-type",
            "class '\(name)' of entity '\(entity.name)' shadows \(module == "_Concurrency" ? "Swift" : module).\(name) in its module; \(advice)",
            at: entity.location, entity: entity.name,
            fix:
              "generated code qualifies every type it uses, so it compiles as is; pass --rename \(entity.name)=NAME to avoid the shadowing"
          ))
      }
      if isGenerated { diagnostics += notes }
      return Entry(name: name, written: SwiftIdentifier.escaped(name), hasClass: hasClass)
    }
  }
}
