/// A problem found in a model: an error that makes it unusable, or a warning worth fixing.
///
/// Diagnostics print like the Swift compiler's, `path/to/contents:12:9: error: …`, followed by
/// `note:` lines that say how to fix the problem, so editors and CI logs can link to the spot.
public struct Diagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
  /// How serious a diagnostic is.
  public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      lhs == .warning && rhs == .error
    }
  }

  /// Whether the model can be used despite this problem.
  public var severity: Severity
  /// A stable identifier of the kind of problem (`unknown-destination-entity`, `xml-syntax`, …),
  /// for tests and tools that filter diagnostics.
  public var code: String
  /// What is wrong, naming the entity and property concerned.
  public var message: String
  /// Where the problem is, when it can be pointed at.
  public var location: SourceLocation?
  /// The entity concerned, if any.
  public var entity: String?
  /// The property concerned, if any.
  public var property: String?
  /// How to fix it: printed as `note:` lines after the message.
  public var notes: [String]

  public init(
    _ severity: Severity, code: String, message: String, location: SourceLocation? = nil, entity: String? = nil,
    property: String? = nil, notes: [String] = []
  ) {
    self.severity = severity
    self.code = code
    self.message = message
    self.location = location
    self.entity = entity
    self.property = property
    self.notes = notes
  }

  /// Creates an error.
  public static func error(
    _ code: String, _ message: String, at location: SourceLocation?, entity: String? = nil, property: String? = nil,
    fix: String? = nil
  ) -> Diagnostic {
    Diagnostic(
      .error, code: code, message: message, location: location, entity: entity, property: property,
      notes: fix.map { [$0] } ?? [])
  }

  /// Creates a warning.
  public static func warning(
    _ code: String, _ message: String, at location: SourceLocation?, entity: String? = nil, property: String? = nil,
    fix: String? = nil
  ) -> Diagnostic {
    Diagnostic(
      .warning, code: code, message: message, location: location, entity: entity, property: property,
      notes: fix.map { [$0] } ?? [])
  }

  /// The diagnostic in the compiler's form, one line for the message and one per note.
  public var description: String {
    let prefix = location.map { "\($0): " } ?? ""
    var lines = ["\(prefix)\(severity.rawValue): \(message)"]
    for note in notes {
      lines.append("\(prefix)note: \(note)")
    }
    return lines.joined(separator: "\n")
  }
}

extension Array where Element == Diagnostic {
  /// Whether any diagnostic is an error.
  public var containsErrors: Bool { contains { $0.severity == .error } }

  /// Only the errors.
  public var errors: [Diagnostic] { filter { $0.severity == .error } }

  /// Only the warnings.
  public var warnings: [Diagnostic] { filter { $0.severity == .warning } }
}
