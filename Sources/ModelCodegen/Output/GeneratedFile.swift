/// One generated Swift file: its name in the output directory and its text.
public struct GeneratedFile: Sendable, Hashable {
  /// The file name (`Task+Entity.swift`, `Tasks+Schema.swift`).
  public var name: String
  /// The file's text, UTF-8, ending with a line break.
  public var contents: String

  public init(name: String, contents: String) {
    self.name = name
    self.contents = contents
  }
}
