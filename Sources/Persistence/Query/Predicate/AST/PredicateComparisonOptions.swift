/// String comparison options written in brackets after an operator: `[c]`, `[d]`, `[cd]`, `[n]`.
///
/// Case and diacritic folding are both done by ``PredicateStringFolding/fold(_:options:)``, the
/// one function the in-memory evaluator, the sort comparator and the SQL store all use, so that
/// every evaluator agrees on which strings are equal.
public struct PredicateComparisonOptions: OptionSet, Sendable, Hashable, Codable {
  /// The bits of the option set.
  public let rawValue: Int

  /// Creates an option set from its bits.
  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// `[c]`: compare case-insensitively.
  public static let caseInsensitive = PredicateComparisonOptions(rawValue: 1 << 0)
  /// `[d]`: compare ignoring diacritics (combining marks after canonical decomposition).
  public static let diacriticInsensitive = PredicateComparisonOptions(rawValue: 1 << 1)
  /// `[n]`: the operands are already normalized. Accepted for compatibility with NSPredicate; it
  /// changes nothing here because comparisons without `[c]`/`[d]` are already exact.
  public static let normalized = PredicateComparisonOptions(rawValue: 1 << 2)

  /// Whether the options require string folding before comparing (`[c]` or `[d]`).
  public var requiresFolding: Bool {
    !isDisjoint(with: [.caseInsensitive, .diacriticInsensitive])
  }

  /// The bracketed suffix printed after an operator (`"[cd]"`), or `""` when there are no options.
  public var formatSuffix: String {
    var letters = ""
    if contains(.caseInsensitive) { letters += "c" }
    if contains(.diacriticInsensitive) { letters += "d" }
    if contains(.normalized) { letters += "n" }
    return letters.isEmpty ? "" : "[\(letters)]"
  }
}

extension PredicateComparisonOptions {
  /// The options named by the letters between the brackets of a `[cd]` suffix, in any case;
  /// nil when a letter is not `c`, `d` or `n`.
  init?(letters: some StringProtocol) {
    self = []
    for letter in letters.lowercased() {
      switch letter {
      case "c": insert(.caseInsensitive)
      case "d": insert(.diacriticInsensitive)
      case "n": insert(.normalized)
      default: return nil
      }
    }
  }
}
