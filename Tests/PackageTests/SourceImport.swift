/// One `import` declaration of a Swift source file, where it is.
struct SourceImport: Hashable, Sendable {
  /// The imported module (`Foundation` for `import struct Foundation.URL`).
  var module: String
  /// Whether it is `@_exported`: clients of the importing module see the imported one too.
  var isExported: Bool
  /// The file, relative to the package root.
  var file: String
  /// The line, from 1.
  var line: Int

  /// `file:line`, for messages.
  var location: String { "\(file):\(line)" }
}
