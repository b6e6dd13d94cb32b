/// A positional argument: a value identified by its place on the command line.
///
/// A command's positionals are declared in order: required ones first, then optional ones,
/// then at most one variadic one, which takes all remaining values.
public struct PositionalSpec: Sendable {
  /// How many values a positional takes.
  public enum Arity: Sendable, Hashable {
    /// Exactly one value, which must be present.
    case required
    /// Zero or one value.
    case optional
    /// All remaining values, at least `minimum` of them.
    case variadic(minimum: Int)
  }

  /// The name shown in usage and help (`STORE`, `MODEL`) and used to read the value back.
  public var name: String
  /// One line of help.
  public var help: String
  /// How many values it takes.
  public var arity: Arity
  /// What each value must look like.
  public var type: ValueType

  /// Declares a positional argument.
  public init(_ name: String, arity: Arity = .required, type: ValueType = .string, help: String = "") {
    self.name = name
    self.help = help
    self.arity = arity
    self.type = type
  }

  /// A positional that must be present.
  public static func required(_ name: String, type: ValueType = .string, help: String = "") -> PositionalSpec {
    PositionalSpec(name, arity: .required, type: type, help: help)
  }

  /// A positional that may be left out.
  public static func optional(_ name: String, type: ValueType = .string, help: String = "") -> PositionalSpec {
    PositionalSpec(name, arity: .optional, type: type, help: help)
  }

  /// A positional taking all remaining values, at least `minimum` (default one) of them.
  public static func variadic(
    _ name: String, minimum: Int = 1, type: ValueType = .string, help: String = ""
  ) -> PositionalSpec {
    PositionalSpec(name, arity: .variadic(minimum: minimum), type: type, help: help)
  }
}
