import Foundation

/// Reads the `import` declarations of Swift source text without compiling it.
///
/// Plain, attributed (`@testable`, `@_exported`, `@preconcurrency`), access-level (`package
/// import`) and kind-qualified (`import struct Foundation.URL`) imports are read, conditional
/// ones (inside `#if canImport(…)`) included, since either branch may be the one compiled.
/// Comments and multi-line string literals are skipped, so code that prints Swift (the code
/// generator) or a test's inline source does not count as importing.
enum ImportScanner {
  /// The imports of `source`, a file at `file` (a path relative to the package root).
  static func imports(in source: String, file: String) -> [SourceImport] {
    var result: [SourceImport] = []
    var inBlockComment = false
    // The delimiter that closes the multi-line string literal the scan is in (`"""`, or `"""#`
    // for a raw one, in which a plain `"""` is text).
    var stringClosing: String?
    for (index, rawLine) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var line = Substring(rawLine)
      if inBlockComment {
        guard let end = line.range(of: "*/") else { continue }
        line = line[end.upperBound...]
        inBlockComment = false
      }
      if let closing = stringClosing {
        if line.contains(closing) { stringClosing = nil }
        continue
      }
      if let opening = line.range(of: "\"\"\"") {
        let hashes = line[..<opening.lowerBound].reversed().prefix { $0 == "#" }
        stringClosing = "\"\"\"" + String(hashes)
        continue
      }
      if let start = line.range(of: "/*"), line.range(of: "*/", range: start.upperBound..<line.endIndex) == nil {
        inBlockComment = true
        line = line[..<start.lowerBound]
      }
      guard let module = importedModule(in: String(line)) else { continue }
      result.append(
        SourceImport(module: module, isExported: line.contains("@_exported"), file: file, line: index + 1))
    }
    return result
  }

  /// The module an import declaration on this line names, or nil when the line is not one.
  static func importedModule(in line: String) -> String? {
    guard line.contains("import") else { return nil }
    let pattern =
      #"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"#
      + #"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#
    guard let expression = try? NSRegularExpression(pattern: pattern),
      let match = expression.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
      let range = Range(match.range(at: 1), in: line)
    else { return nil }
    return String(line[range])
  }

  /// The imports of every `.swift` file under `directory` (recursively), in path order, with
  /// paths relative to `root`.
  static func imports(under directory: URL, root: URL) throws -> [SourceImport] {
    let files = (FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?.allObjects ?? [])
      .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
      .map { $0.standardizedFileURL.path }.sorted()
    let prefix = root.standardizedFileURL.path + "/"
    return try files.flatMap { path in
      let relative = path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
      return imports(in: try String(contentsOfFile: path, encoding: .utf8), file: relative)
    }
  }
}
