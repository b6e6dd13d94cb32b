extension FetchSortDescriptor: CustomStringConvertible {
  /// The descriptor in the list syntax of ``init(parsing:)``: `title[c]:desc`, `priority:asc`.
  public var description: String {
    "\(keyPath)\(options.formatSuffix):\(ascending ? "asc" : "desc")"
  }

  /// Parses one sort key written as `keyPath[options]:direction`, where the options (`[c]`,
  /// `[d]`, `[cd]`) and the direction (`asc`, `ascending`, `desc`, `descending`, any case) are
  /// optional and ascending is the default: `priority`, `dueDate:desc`, `title[c]:asc`.
  ///
  /// - Throws: ``PredicateSyntaxError`` with the column of the problem.
  public init(parsing text: String) throws(PredicateSyntaxError) {
    self = try Self.parse(Substring(text), column: 1)
  }

  /// Parses a comma-separated list of sort keys, as the command line takes them:
  /// `"priority:asc,dueDate:desc"`. Spaces around items are ignored; an empty string is an
  /// empty list.
  ///
  /// - Throws: ``PredicateSyntaxError`` with the column (in the whole list) of the problem.
  public static func list(parsing text: String) throws(PredicateSyntaxError) -> [FetchSortDescriptor] {
    if text.allSatisfy(\.isWhitespace) { return [] }
    var descriptors: [FetchSortDescriptor] = []
    var column = 1
    for item in text.split(separator: ",", omittingEmptySubsequences: false) {
      descriptors.append(try parse(item, column: column))
      column += item.count + 1
    }
    return descriptors
  }

  private static func parse(_ item: Substring, column start: Int) throws(PredicateSyntaxError) -> FetchSortDescriptor {
    let leading = item.prefix(while: \.isWhitespace).count
    let text = item.dropFirst(leading).reversed().drop(while: \.isWhitespace).reversed()
    let trimmed = String(text)
    let column = start + leading
    guard !trimmed.isEmpty else {
      throw PredicateSyntaxError.unexpected(expected: "a sort key such as 'title:asc'", column: column, token: nil)
    }
    var keyText = Substring(trimmed)
    var ascending = true
    if let colon = keyText.lastIndex(of: ":") {
      let direction = keyText[keyText.index(after: colon)...]
      let directionColumn = column + keyText.distance(from: keyText.startIndex, to: colon) + 1
      switch direction.lowercased() {
      case "asc", "ascending": ascending = true
      case "desc", "descending": ascending = false
      default:
        let suggestion = PredicateKeywords.suggestion(for: String(direction), among: ["ASC", "DESC"])
        throw PredicateSyntaxError(
          .unknownKeyword, column: directionColumn, token: direction.isEmpty ? nil : String(direction),
          message: "unknown sort direction '\(direction)'; expected asc or desc"
            + (suggestion.map { " (did you mean \($0.lowercased())?)" } ?? ""),
          expected: "asc or desc", suggestion: suggestion?.lowercased())
      }
      keyText = keyText[..<colon]
    }
    var options: PredicateComparisonOptions = []
    if keyText.hasSuffix("]"), let open = keyText.lastIndex(of: "[") {
      let letters = keyText[keyText.index(after: open)..<keyText.index(before: keyText.endIndex)]
      let optionsColumn = column + keyText.distance(from: keyText.startIndex, to: open)
      guard let parsed = PredicateComparisonOptions(letters: letters) else {
        throw PredicateSyntaxError(
          .unknownKeyword, column: optionsColumn, token: "[\(letters)]",
          message: "unknown comparison option '\(letters)'; expected c, d or n (as in [cd])", expected: "c, d or n")
      }
      options = parsed
      keyText = keyText[..<open]
    }
    let components = keyText.split(separator: ".", omittingEmptySubsequences: false).map {
      $0.hasPrefix("#") ? String($0.dropFirst()) : String($0)
    }
    guard components.allSatisfy(PredicateKeywords.isIdentifier) else {
      throw PredicateSyntaxError(
        .invalidKeyPath, column: column, token: String(keyText),
        message: "invalid key path '\(keyText)' in sort key '\(trimmed)'")
    }
    return FetchSortDescriptor(PredicateKeyPath(components), ascending: ascending, options: options)
  }
}
