/// How serious a finding is: an `error` fails `modelc check`, a `warning` fails it only with
/// `--strict`, a `note` never does.
///
/// The raw values are the words SARIF uses for `level` and the compiler uses in its lines.
public enum FindingSeverity: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
  case note
  case warning
  case error

  /// Ordered note < warning < error.
  public static func < (lhs: FindingSeverity, rhs: FindingSeverity) -> Bool {
    lhs.rank < rhs.rank
  }

  private var rank: Int {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }
}
