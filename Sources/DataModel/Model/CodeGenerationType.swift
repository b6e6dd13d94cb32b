/// What Xcode generates for an entity (`codeGenerationType`).
public enum CodeGenerationType: Sendable, Hashable, Codable {
  /// A class definition and a properties extension (`class`).
  case classDefinition
  /// Only the properties extension; the user writes the class (`category`).
  case category
  /// A value this reader does not know, kept verbatim.
  case other(String)

  /// Reads the XML spelling.
  public init(xmlValue: String) {
    switch xmlValue {
    case "class": self = .classDefinition
    case "category": self = .category
    default: self = .other(xmlValue)
    }
  }

  /// The XML spelling.
  public var xmlValue: String {
    switch self {
    case .classDefinition: "class"
    case .category: "category"
    case .other(let value): value
    }
  }
}
