import Foundation

/// Reads the targets of a `Package.swift` from its text, without running it.
///
/// It reads what this package's manifest writes: `.target`, `.executableTarget`, `.testTarget`
/// and `.systemLibrary` calls with a literal `name:`, an optional literal `path:` and a
/// `dependencies:` array. Plugins are left out: their dependencies are tools they run, not
/// modules they import.
enum ManifestReader {
  /// The targets declared in `manifest`, in order.
  static func targets(in manifest: String) -> [ManifestTarget] {
    let text = withoutLineComments(manifest)
    var result: [ManifestTarget] = []
    var searchStart = text.startIndex
    let kinds = ["executableTarget", "testTarget", "systemLibrary", "target"]
    while let call = nextCall(in: text, from: searchStart, kinds: kinds) {
      searchStart = call.arguments.upperBound
      let arguments = String(text[call.arguments])
      guard let name = stringArgument("name", in: arguments) else { continue }
      let kind = ManifestTarget.Kind(rawValue: call.kind) ?? .target
      var names: [String] = []
      var unread: [String] = []
      for element in dependencyElements(in: arguments) {
        if let literal = stringLiteral(element) { names.append(literal) } else { unread.append(element) }
      }
      let path = stringArgument("path", in: arguments) ?? (kind == .testTarget ? "Tests/\(name)" : "Sources/\(name)")
      result.append(
        ManifestTarget(name: name, kind: kind, dependencies: names, unreadDependencies: unread, path: path))
    }
    return result
  }

  /// The next `.<kind>(` call at or after `start`: its kind and the range of its arguments
  /// (inside the parentheses).
  private static func nextCall(in text: String, from start: String.Index, kinds: [String])
    -> (kind: String, arguments: Range<String.Index>)?
  {
    var best: (kind: String, range: Range<String.Index>)?
    for kind in kinds {
      if let range = text.range(of: ".\(kind)(", range: start..<text.endIndex),
        best.map({ range.lowerBound < $0.range.lowerBound }) ?? true
      {
        best = (kind, range)
      }
    }
    guard let best, let end = closingIndex(in: text, afterOpening: best.range.upperBound, open: "(", close: ")")
    else { return nil }
    return (best.kind, best.range.upperBound..<end)
  }

  /// The index of the bracket closing the one opened just before `start`, skipping string
  /// literals.
  private static func closingIndex(
    in text: String, afterOpening start: String.Index, open: Character, close: Character
  ) -> String.Index? {
    var depth = 1
    var inString = false
    var index = start
    while index < text.endIndex {
      let character = text[index]
      if character == "\"" {
        inString.toggle()
      } else if !inString, character == open {
        depth += 1
      } else if !inString, character == close {
        depth -= 1
        if depth == 0 { return index }
      }
      index = text.index(after: index)
    }
    return nil
  }

  /// The top-level elements of the `dependencies: [ … ]` argument, trimmed; none without one.
  private static func dependencyElements(in arguments: String) -> [String] {
    guard let label = arguments.range(of: #"dependencies:\s*\["#, options: .regularExpression),
      let end = closingIndex(in: arguments, afterOpening: label.upperBound, open: "[", close: "]")
    else { return [] }
    var elements: [String] = []
    var current = ""
    var depth = 0
    var inString = false
    for character in arguments[label.upperBound..<end] {
      if character == "\"" { inString.toggle() }
      if !inString, "([".contains(character) { depth += 1 }
      if !inString, ")]".contains(character) { depth -= 1 }
      if !inString, depth == 0, character == "," {
        elements.append(current)
        current = ""
      } else {
        current.append(character)
      }
    }
    elements.append(current)
    return elements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
  }

  /// The value of `label: "…"` among a call's arguments.
  private static func stringArgument(_ label: String, in arguments: String) -> String? {
    guard let range = arguments.range(of: #"\b\#(label):\s*"[^"]*""#, options: .regularExpression) else {
      return nil
    }
    return stringLiteral(String(arguments[range].drop { $0 != "\"" }))
  }

  /// The contents of a plain string literal (`"Persistence"`), or nil for anything else.
  private static func stringLiteral(_ text: String) -> String? {
    guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
    let inner = text.dropFirst().dropLast()
    return inner.contains("\"") ? nil : String(inner)
  }

  /// `text` without `//` comments (outside string literals).
  private static func withoutLineComments(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
      var inString = false
      var previous: Character?
      for index in line.indices {
        let character = line[index]
        if character == "\"" { inString.toggle() }
        if !inString, character == "/", previous == "/" { return line[..<line.index(before: index)] }
        previous = character
      }
      return line
    }.joined(separator: "\n")
  }
}
