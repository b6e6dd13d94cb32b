/// A flag: an option without a value, on when present (`--dry-run`, `--count`).
public struct FlagSpec: Sendable {
  /// The long name with its dashes: `--dry-run`.
  public var name: String
  /// An optional one-letter alias with its dash: `-n`.
  public var shortName: String?
  /// One line of help.
  public var help: String

  /// Declares a flag.
  public init(_ name: String, short shortName: String? = nil, help: String = "") {
    self.name = name
    self.shortName = shortName
    self.help = help
  }
}
