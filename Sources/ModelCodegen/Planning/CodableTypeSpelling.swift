/// Recognizes a Transformable attribute's `customClassName` when it spells a standard Codable
/// type — `[String]`, `[String: Int]`, `Set<UUID>`, `Array<Date>`, `Dictionary<String, [Double]>`,
/// or one of the scalar types — and writes it the way generated code does (module-qualified),
/// with the value a required attribute reads when nothing is stored.
struct CodableTypeSpelling: Sendable, Hashable {
  /// The type as written in generated code.
  var swiftType: String
  /// What a required attribute of this type reads as when nothing usable is stored.
  var zeroValue: String

  private static let scalars: [String: (type: String, zero: String)] = [
    "String": ("Swift.String", "\"\""),
    "Int": ("Swift.Int", "0"),
    "Int16": ("Swift.Int16", "0"),
    "Int32": ("Swift.Int32", "0"),
    "Int64": ("Swift.Int64", "0"),
    "Double": ("Swift.Double", "0"),
    "Float": ("Swift.Float", "0"),
    "Bool": ("Swift.Bool", "false"),
    "Date": ("Foundation.Date", "Foundation.Date.zeroValue"),
    "Data": ("Foundation.Data", "Foundation.Data()"),
    "UUID": ("Foundation.UUID", "Foundation.UUID.zeroValue"),
    "URL": ("Foundation.URL", "Foundation.URL.zeroValue"),
    "Decimal": ("Foundation.Decimal", "0"),
  ]

  /// The spelling, or nil when it is not a standard Codable type.
  init?(_ spelling: String) {
    var parser = Parser(Array(spelling.filter { !$0.isWhitespace }))
    guard let parsed = parser.type(), parser.isAtEnd else { return nil }
    self = parsed
  }

  private init(swiftType: String, zeroValue: String) {
    self.swiftType = swiftType
    self.zeroValue = zeroValue
  }

  private struct Parser {
    var characters: [Character]
    var position = 0

    init(_ characters: [Character]) {
      self.characters = characters
    }

    var isAtEnd: Bool { position == characters.count }

    mutating func type() -> CodableTypeSpelling? {
      if consume("[") {
        guard let first = type() else { return nil }
        if consume(":") {
          guard isKey(first), let value = type(), consume("]") else { return nil }
          return CodableTypeSpelling(swiftType: "[\(first.swiftType): \(value.swiftType)]", zeroValue: "[:]")
        }
        guard consume("]") else { return nil }
        return CodableTypeSpelling(swiftType: "[\(first.swiftType)]", zeroValue: "[]")
      }
      let name = identifier()
      switch name {
      case "Array", "Swift.Array":
        guard consume("<"), let element = type(), consume(">") else { return nil }
        return CodableTypeSpelling(swiftType: "[\(element.swiftType)]", zeroValue: "[]")
      case "Set", "Swift.Set":
        guard consume("<"), let element = type(), isKey(element), consume(">") else { return nil }
        return CodableTypeSpelling(swiftType: "Swift.Set<\(element.swiftType)>", zeroValue: "[]")
      case "Dictionary", "Swift.Dictionary":
        guard consume("<"), let key = type(), isKey(key), consume(","), let value = type(), consume(">") else {
          return nil
        }
        return CodableTypeSpelling(swiftType: "[\(key.swiftType): \(value.swiftType)]", zeroValue: "[:]")
      default:
        let bare =
          name.hasPrefix("Swift.") || name.hasPrefix("Foundation.") ? String(name.split(separator: ".")[1]) : name
        guard let scalar = CodableTypeSpelling.scalars[bare] else { return nil }
        return CodableTypeSpelling(swiftType: scalar.type, zeroValue: scalar.zero)
      }
    }

    /// Whether a type can be a dictionary key or set element (Hashable scalars only).
    func isKey(_ type: CodableTypeSpelling) -> Bool {
      CodableTypeSpelling.scalars.values.contains { $0.type == type.swiftType }
    }

    mutating func consume(_ character: Character) -> Bool {
      guard position < characters.count, characters[position] == character else { return false }
      position += 1
      return true
    }

    mutating func identifier() -> String {
      let start = position
      while position < characters.count,
        characters[position].isLetter || characters[position].isNumber
          || characters[position] == "." || characters[position] == "_"
      {
        position += 1
      }
      return String(characters[start..<position])
    }
  }
}
