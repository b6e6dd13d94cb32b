/// ANSI text styles (SGR codes) for colouring terminal output.
public enum TerminalStyle: Sendable, Hashable, CaseIterable {
  /// Bold or bright.
  case bold
  /// Dimmed.
  case dim
  /// Underlined.
  case underline
  /// Red foreground: errors.
  case red
  /// Green foreground: success.
  case green
  /// Yellow foreground: warnings.
  case yellow
  /// Blue foreground.
  case blue
  /// Magenta foreground.
  case magenta
  /// Cyan foreground: names and paths.
  case cyan
  /// Bright black (grey) foreground: secondary details.
  case gray

  /// The SGR parameter.
  var code: Int {
    switch self {
    case .bold: return 1
    case .dim: return 2
    case .underline: return 4
    case .red: return 31
    case .green: return 32
    case .yellow: return 33
    case .blue: return 34
    case .magenta: return 35
    case .cyan: return 36
    case .gray: return 90
    }
  }

  /// `text` wrapped in the escape sequences for `styles`, unconditionally; empty `styles`
  /// or empty text return `text` unchanged. Prefer ``Terminal/styled(_:_:on:)``, which
  /// colours only when the stream is a terminal that wants colour.
  public static func apply(_ styles: [TerminalStyle], to text: String) -> String {
    guard !styles.isEmpty, !text.isEmpty else { return text }
    let codes = styles.map { String($0.code) }.joined(separator: ";")
    return "\u{1B}[\(codes)m\(text)\u{1B}[0m"
  }
}
