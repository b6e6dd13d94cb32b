import DataModel

/// A mapping model that cannot be read: what is wrong, where, and what to do.
///
/// It prints like the compiler's diagnostics, `path/xcmapping.xml:12:5: error: …` followed by a
/// `note:` with the fix, and carries the `Diagnostic` for tools that want the parts.
public struct MappingReadError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The problem, with its file, line and column when it can be pointed at.
  public var diagnostic: Diagnostic

  public init(_ diagnostic: Diagnostic) {
    self.diagnostic = diagnostic
  }

  /// An error at a location (or for a whole file when `location` has no line).
  static func at(_ location: SourceLocation?, _ code: String, _ message: String, fix: String? = nil) -> Self {
    MappingReadError(.error(code, message, at: location, fix: fix))
  }

  public var description: String { diagnostic.description }
}
