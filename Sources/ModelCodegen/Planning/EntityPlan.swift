/// Everything printed for one entity: names resolved, slots computed, types chosen. The
/// printer only spells out what the plan says.
struct EntityPlan: Sendable {
  /// The entity's name in the model.
  var entityName: String
  /// What is generated: the class and its properties, or only the properties.
  var mode: CodegenOptions.Mode
  /// The class name as written in code (in backticks when it is a keyword).
  var className: String
  /// The class name as a file name (`<fileStem>+Entity.swift`).
  var fileStem: String
  /// The superclass as written in code: the nearest ancestor's class or
  /// `Persistence.ManagedObject`.
  var superclass: String
  /// Whether the class has no sub-entity class and can be `final`.
  var isFinal: Bool
  /// Whether the entity is abstract: no initializer is generated.
  var isAbstract: Bool
  /// Whether this class declares the `GeneratedEntity` conformance (no ancestor's generated
  /// class does it already).
  var declaresConformance: Bool
  /// The sub-entities' classes and entity names, when the conformance is declared here and the
  /// entity has sub-entities with classes: `entityName` then depends on the dynamic class.
  var subentityNames: [(className: String, entityName: String)]
  /// The attributes whose properties this class declares.
  var attributes: [AttributePlan]
  /// The relationships whose properties this class declares.
  var relationships: [RelationshipPlan]
  /// The parameters of the inserting initializer, nil when none is generated.
  var initializer: [InitializerParameter]?
  /// The typed keys: every property of the entity, inherited ones included.
  var keys: [KeyPlan]
  /// The model version's name, for the file header.
  var versionName: String
}

/// One attribute's property.
struct AttributePlan: Sendable {
  /// How the property reads and writes its slot.
  enum Storage: Sendable, Hashable {
    /// An ``AttributeValueRepresentable`` type; `optional` chooses the nil rule.
    case value(optional: Bool)
    /// The stored ``AttributeValue`` itself (`Undefined`, `ObjectID`, `Composite`).
    case raw
    /// A standard Codable type stored as JSON; `zero` is what a required one reads as nil.
    case codable(type: String, zero: String?)
    /// A user's ``AttributeTransformer``; required ones read nil as its `defaultValue`.
    case transformer(name: String, optional: Bool)
  }

  /// The attribute's name in the model.
  var modelName: String
  /// The property's name as written in code.
  var swiftName: String
  /// The attribute's index in the entity's layout.
  var slot: Int
  /// The property's type as written in code, `?` included.
  var swiftType: String
  /// How it is stored.
  var storage: Storage
  /// Whether the property has no setter (derived attributes, which the store computes).
  var isReadOnly: Bool
  /// The documentation comment's lines.
  var documentation: [String]
}

/// One relationship's property and helpers.
struct RelationshipPlan: Sendable {
  /// The relationship's shape.
  enum Kind: Sendable, Hashable {
    case toOne
    case toMany
    case ordered
  }

  /// The relationship's name in the model.
  var modelName: String
  /// The property's name as written in code.
  var swiftName: String
  /// The relationship's index in the entity's layout.
  var slot: Int
  /// The destination's class as written in code.
  var destinationClass: String
  /// To-one, to-many or ordered to-many.
  var kind: Kind
  /// The helpers' name suffix (`Tags` for `addToTags(_:)`), nil for to-one relationships.
  var helperSuffix: String?
  /// The inverse's name in the model, for documentation.
  var inverseName: String?
  /// The documentation comment's lines.
  var documentation: [String]

  /// The property's type as written in code.
  var swiftType: String {
    switch kind {
    case .toOne: "\(destinationClass)?"
    case .toMany: "Swift.Set<\(destinationClass)>"
    case .ordered: "[\(destinationClass)]"
    }
  }
}

/// One parameter of the inserting initializer.
struct InitializerParameter: Sendable, Hashable {
  /// The label and the property it sets, as written in code.
  var name: String
  /// The type as written in code.
  var swiftType: String
}

/// One typed key.
struct KeyPlan: Sendable {
  /// The key's name as written in code (the property's).
  var swiftName: String
  /// The property's name in the model.
  var modelName: String
  /// The value type as written in code.
  var valueType: String
}
