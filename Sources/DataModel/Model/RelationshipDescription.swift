/// A relationship of an entity (`<relationship>`).
public struct RelationshipDescription: Sendable, Hashable, Codable {
  /// The relationship's name.
  public var name: String
  /// The name of the destination entity (`destinationEntity`).
  public var destinationEntityName: String
  /// The name of the inverse relationship (`inverseName`), if any.
  public var inverseName: String?
  /// The entity the inverse belongs to (`inverseEntity`), if any.
  public var inverseEntityName: String?
  /// Whether the relationship may be empty (`optional="YES"`).
  public var isOptional: Bool
  /// Whether the relationship is never stored (`transient="YES"`).
  public var isTransient: Bool
  /// Whether the relationship holds many objects (`toMany="YES"`).
  public var isToMany: Bool
  /// Whether a to-many relationship keeps its objects in order (`ordered="YES"`).
  public var isOrdered: Bool
  /// `minCount` as written, if any.
  public var minCountValue: Int?
  /// `maxCount` as written, if any.
  public var maxCountValue: Int?
  /// What deleting the source object does to the destinations.
  public var deletionRule: DeletionRule
  /// Whether the file wrote a deletion rule (Xcode always does; other tools omit No Action).
  public var hasExplicitDeletionRule: Bool
  /// The renaming identifier (`elementID`).
  public var renamingIdentifier: String?
  /// A string folded into the version hash.
  public var versionHashModifier: String?
  /// The legacy `syncable` flag, when written.
  public var isSyncable: Bool?
  /// The legacy `indexed` flag.
  public var isIndexed: Bool
  /// The relationship's userInfo.
  public var userInfo: UserInfo
  /// Attributes of the XML element this reader does not know.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements this reader does not know. Unknown markup inside `<userInfo>` is
  /// kept under a copy of its container element (holding only what was not understood).
  public var unknownElements: [UnknownElement]
  /// Where the relationship is defined.
  public var location: SourceLocation?

  /// The destination entity, resolved when the model version is assembled; nil when the
  /// destination does not exist (a validation error).
  public internal(set) var destination: EntityID?
  /// The inverse relationship, resolved; nil when there is none or it does not exist.
  public internal(set) var inverse: RelationshipID?

  public init(
    name: String, destinationEntityName: String, inverseName: String? = nil, inverseEntityName: String? = nil,
    isOptional: Bool = true, isToMany: Bool = false, isOrdered: Bool = false, deletionRule: DeletionRule = .nullify,
    location: SourceLocation? = nil
  ) {
    self.name = name
    self.destinationEntityName = destinationEntityName
    self.inverseName = inverseName
    self.inverseEntityName = inverseEntityName
    self.isOptional = isOptional
    self.isTransient = false
    self.isToMany = isToMany
    self.isOrdered = isOrdered
    self.deletionRule = deletionRule
    self.hasExplicitDeletionRule = true
    self.isIndexed = false
    self.userInfo = UserInfo()
    self.unknownAttributes = []
    self.unknownElements = []
    self.location = location
  }

  /// The minimum count: `minCount`, else 0.
  public var minCount: Int { minCountValue ?? 0 }

  /// The maximum count: `maxCount`, else 0 (unbounded) for to-many and 1 for to-one.
  public var maxCount: Int { maxCountValue ?? (isToMany ? 0 : 1) }

  /// The name that identifies this relationship across versions: the renaming identifier when
  /// set, else the name.
  public var versionIdentity: String { renamingIdentifier.flatMap { $0.isEmpty ? nil : $0 } ?? name }

  /// Whether the relationship is stored.
  public var isPersistent: Bool { !isTransient }
}
