/// Turning model names into Swift identifiers: keywords, characters Swift does not accept in
/// identifiers, and the camel-case joins generated names are built with.
enum SwiftIdentifier {
  /// Words that must be written in backticks to be used as a name.
  static let keywords: Set<String> = [
    // Declarations.
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func",
    "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "package", "private",
    "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
    // Statements.
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
    "repeat", "return", "switch", "throw", "where", "while",
    // Expressions and types.
    "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
    // Contextual words that are reserved after a dot (`Foo.Type`, `Foo.Protocol`).
    "Type", "Protocol",
  ]

  /// Names that cannot stand for a property or type even in backticks, or that mean something
  /// else after a dot (`object.self`, `Keys.Type`): they are renamed, not escaped.
  static let unusable: Set<String> = [
    "self", "Self", "init", "deinit", "super", "subscript", "_", "Type", "Protocol", "Any",
  ]

  /// The name with every character Swift does not accept replaced by `_` (and a leading `_`
  /// before a digit), or nil when it is already a valid identifier.
  static func sanitized(_ name: String) -> String? {
    var result = ""
    var changed = false
    for (index, scalar) in name.unicodeScalars.enumerated() {
      let isHead = scalar == "_" || scalar.properties.isAlphabetic
      let isBody =
        isHead || scalar.properties.numericType != nil || scalar.properties.generalCategory == .nonspacingMark
      if index == 0 && !isHead {
        if isBody {
          result += "_"
          result.unicodeScalars.append(scalar)
        } else {
          result += "_"
        }
        changed = true
      } else if !isBody {
        result += "_"
        changed = true
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    if result.isEmpty { return "_" }
    return changed ? result : nil
  }

  /// The name as written in code: in backticks when it is a keyword.
  static func escaped(_ name: String) -> String {
    keywords.contains(name) ? "`\(name)`" : name
  }

  /// The name with its first letter in upper case (`tags` → `Tags`; `id` → `ID`).
  static func upperFirst(_ name: String) -> String {
    if name == "id" { return "ID" }
    guard let first = name.first else { return name }
    return first.uppercased() + name.dropFirst()
  }

  /// The name with its leading capitals in lower case, as Swift spells a value of a type
  /// (`Task` → `task`, `URLRecord` → `urlRecord`).
  static func lowerFirst(_ name: String) -> String {
    let characters = Array(name)
    var upperCount = 0
    while upperCount < characters.count && characters[upperCount].isUppercase { upperCount += 1 }
    if upperCount == 0 { return name }
    // Keep the capital that starts the next word: `URLRecord` → `url` + `Record`.
    let lowered = upperCount > 1 && upperCount < characters.count ? upperCount - 1 : upperCount
    return String(characters[..<lowered]).lowercased() + String(characters[lowered...])
  }
}
