/// Why code could not be generated: a version or a rename that does not exist, a name that is
/// not an identifier, or a file that could not be written.
public struct CodegenError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong.
  public var message: String
  /// How to fix it.
  public var notes: [String]

  public init(_ message: String, notes: [String] = []) {
    self.message = message
    self.notes = notes
  }

  public var description: String { ([message] + notes.map { "note: \($0)" }).joined(separator: "\n") }
}
