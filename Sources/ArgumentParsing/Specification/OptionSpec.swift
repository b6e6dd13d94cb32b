/// An option that takes a value: `--name value` or `--name=value`.
public struct OptionSpec: Sendable {
  /// The long name with its dashes: `--model`.
  public var name: String
  /// An optional one-letter alias with its dash: `-m`.
  public var shortName: String?
  /// The placeholder for the value in usage and help: `MODEL`.
  public var valueName: String
  /// What the value must look like.
  public var type: ValueType
  /// One line of help.
  public var help: String
  /// Whether the command fails without it.
  public var isRequired: Bool
  /// Whether it may be given several times, collecting every value in order. Otherwise a
  /// second occurrence is a usage error.
  public var isRepeatable: Bool
  /// The value reported when the option is absent (shown in help).
  public var defaultValue: String?

  /// Declares an option that takes a value.
  public init(
    _ name: String, short shortName: String? = nil, value valueName: String, type: ValueType = .string,
    required isRequired: Bool = false, repeatable isRepeatable: Bool = false, default defaultValue: String? = nil,
    help: String = ""
  ) {
    self.name = name
    self.shortName = shortName
    self.valueName = valueName
    self.type = type
    self.help = help
    self.isRequired = isRequired
    self.isRepeatable = isRepeatable
    self.defaultValue = defaultValue
  }
}
