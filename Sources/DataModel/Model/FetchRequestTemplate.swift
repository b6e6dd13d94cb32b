/// A fetch request stored in the model (`<fetchRequest>`): a model-level template, or the
/// request of a fetched property.
public struct FetchRequestTemplate: Sendable, Hashable, Codable {
  /// The template's name.
  public var name: String
  /// The entity it fetches.
  public var entityName: String
  /// The predicate in NSPredicate format (`predicateString`), possibly with `$VARIABLES`.
  public var predicateString: String?
  /// `fetchLimit`, when written.
  public var fetchLimit: Int?
  /// `fetchBatchSize`, when written.
  public var fetchBatchSize: Int?
  /// `resultType`: 0 objects, 1 object identifiers, 2 dictionaries, 4 count.
  public var resultType: Int?
  /// `includeSubentities`, when written.
  public var includeSubentities: Bool?
  /// `includePropertyValues`, when written.
  public var includePropertyValues: Bool?
  /// `includesPendingChanges`, when written (Xcode spells this one with an s).
  public var includesPendingChanges: Bool?
  /// `returnObjectsAsFaults`, when written.
  public var returnObjectsAsFaults: Bool?
  /// `returnDistinctResults`, when written.
  public var returnDistinctResults: Bool?
  /// Attributes of the XML element this reader does not know.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements this reader does not know.
  public var unknownElements: [UnknownElement]
  /// Where the template is defined.
  public var location: SourceLocation?

  public init(name: String, entityName: String, predicateString: String? = nil, location: SourceLocation? = nil) {
    self.name = name
    self.entityName = entityName
    self.predicateString = predicateString
    self.unknownAttributes = []
    self.unknownElements = []
    self.location = location
  }
}
