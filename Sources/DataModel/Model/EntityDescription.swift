/// An entity of a model version (`<entity>`): its settings and its own properties.
///
/// Properties inherited from the parent entity are not repeated here; ``ModelVersion`` gives the
/// full list (``ModelVersion/allAttributes(of:)``). The resolved ``parent`` and ``subentities``
/// are filled in when the version is assembled.
public struct EntityDescription: Sendable, Hashable, Codable {
  /// The entity's name.
  public var name: String
  /// The class that represents objects of this entity (`representedClassName`); absent means
  /// `NSManagedObject`. A leading `.` means "the current module", `Module.Class` names a module.
  public var representedClassName: String?
  /// The parent entity's name (`parentEntity`).
  public var parentEntityName: String?
  /// Whether the entity is abstract (`isAbstract="YES"`): no objects of exactly this entity.
  public var isAbstract: Bool
  /// What Xcode generates for the entity; nil means Manual/None.
  public var codeGenerationType: CodeGenerationType?
  /// The renaming identifier (`elementID`): the name this entity had in an older version.
  public var renamingIdentifier: String?
  /// A string folded into the version hash.
  public var versionHashModifier: String?
  /// The legacy `syncable` flag, when written.
  public var isSyncable: Bool?
  /// The entity's own attributes, in file order.
  public var attributes: [AttributeDescription]
  /// The entity's own relationships, in file order.
  public var relationships: [RelationshipDescription]
  /// The entity's fetched properties.
  public var fetchedProperties: [FetchedPropertyDescription]
  /// The entity's fetch indexes.
  public var fetchIndexes: [FetchIndexDescription]
  /// The entity's uniqueness constraints.
  public var uniquenessConstraints: [UniquenessConstraint]
  /// Legacy compound indexes.
  public var compoundIndexes: [CompoundIndex]
  /// The entity's userInfo.
  public var userInfo: UserInfo
  /// Attributes of the XML element this reader does not know.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements this reader does not know. Unknown markup inside `<uniquenessConstraints>`, `<compoundIndexes>` and `<userInfo>` is
  /// kept under a copy of its container element (holding only what was not understood).
  public var unknownElements: [UnknownElement]
  /// Where the entity is defined.
  public var location: SourceLocation?

  /// This entity's own ID, set when the version is assembled.
  public internal(set) var id: EntityID
  /// The parent entity, resolved; nil for a root entity or when the parent does not exist.
  public internal(set) var parent: EntityID?
  /// The direct sub-entities, in ``ModelVersion/entities`` order.
  public internal(set) var subentities: [EntityID]

  public init(
    name: String, representedClassName: String? = nil, parentEntityName: String? = nil, isAbstract: Bool = false,
    attributes: [AttributeDescription] = [], relationships: [RelationshipDescription] = [],
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.representedClassName = representedClassName
    self.parentEntityName = parentEntityName
    self.isAbstract = isAbstract
    self.attributes = attributes
    self.relationships = relationships
    self.fetchedProperties = []
    self.fetchIndexes = []
    self.uniquenessConstraints = []
    self.compoundIndexes = []
    self.userInfo = UserInfo()
    self.unknownAttributes = []
    self.unknownElements = []
    self.location = location
    self.id = EntityID(-1)
    self.subentities = []
  }

  /// The name that identifies this entity across versions: the renaming identifier when set,
  /// else the name.
  public var versionIdentity: String { renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? name }

  /// The own attribute with this name.
  public func attribute(named name: String) -> AttributeDescription? {
    attributes.first { $0.name == name }
  }

  /// The own relationship with this name.
  public func relationship(named name: String) -> RelationshipDescription? {
    relationships.first { $0.name == name }
  }

  /// The class name code should use: the represented class without a module prefix, falling
  /// back to the entity name when the class is absent or `NSManagedObject`.
  public var className: String {
    guard var className = representedClassName, !className.isEmpty, className != "NSManagedObject" else {
      return name
    }
    if let dot = className.lastIndex(of: ".") {
      className = String(className[className.index(after: dot)...])
    }
    return className.isEmpty ? name : className
  }
}
