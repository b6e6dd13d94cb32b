/// A fetch index of an entity (`<fetchIndex>`): one SQLite index over one or more properties or
/// expressions.
public struct FetchIndexDescription: Sendable, Hashable, Codable {
  /// One column of the index (`<fetchIndexElement>`).
  public struct Element: Sendable, Hashable, Codable {
    /// The kind of index structure.
    public enum IndexType: Sendable, Hashable, Codable {
      /// An ordinary B-tree index (`Binary`).
      case binary
      /// A spatial index (`RTree`; the XML spelling is not confirmed by any real file).
      case rTree
      /// A spelling this reader does not know.
      case other(String)

      public init(xmlValue: String) {
        switch xmlValue {
        case "Binary": self = .binary
        case "RTree", "R-Tree", "Rtree": self = .rTree
        default: self = .other(xmlValue)
        }
      }

      public var xmlValue: String {
        switch self {
        case .binary: "Binary"
        case .rTree: "RTree"
        case .other(let value): value
        }
      }
    }

    /// The indexed property (`property`), if the element names one.
    public var property: String?
    /// The indexed expression (`expression`), if the element is an expression.
    public var expression: String?
    /// The expression's result type (`expressionType`).
    public var expressionType: String?
    /// The index type (`type`).
    public var type: IndexType
    /// Whether the column is in ascending order (`order="ascending"`).
    public var isAscending: Bool
    /// Attributes of the XML element this reader does not know.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the element is written.
    public var location: SourceLocation?

    public init(property: String, isAscending: Bool = true, type: IndexType = .binary) {
      self.property = property
      self.type = type
      self.isAscending = isAscending
      self.unknownAttributes = []
    }

    public init(expression: String, expressionType: String?, isAscending: Bool = true, type: IndexType = .binary) {
      self.expression = expression
      self.expressionType = expressionType
      self.type = type
      self.isAscending = isAscending
      self.unknownAttributes = []
    }
  }

  /// The index's name.
  public var name: String
  /// The columns, in order.
  public var elements: [Element]
  /// Attributes of the XML element this reader does not know.
  public var unknownAttributes: [UnknownAttribute]
  /// Child elements this reader does not know.
  public var unknownElements: [UnknownElement]
  /// Where the index is defined.
  public var location: SourceLocation?

  public init(name: String, elements: [Element], location: SourceLocation? = nil) {
    self.name = name
    self.elements = elements
    self.unknownAttributes = []
    self.unknownElements = []
    self.location = location
  }
}
