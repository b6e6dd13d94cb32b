/// An input `modelc check` or `modelc diagram` cannot use: a path that does not exist, a
/// configuration that does not parse, a git ref that is missing, a store that cannot be read.
/// The command exits 2 with the message and notes.
public struct CheckInputError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What is wrong, naming the file, ref or store.
  public var message: String
  /// What to do about it.
  public var notes: [String]

  public init(_ message: String, notes: [String] = []) {
    self.message = message
    self.notes = notes
  }

  public var description: String { message }
}
