/// A model that could not be read or did not validate, with every diagnostic that explains why.
public struct ModelError: Error, Sendable, Hashable, CustomStringConvertible {
  /// All diagnostics, errors first in file order; at least one is an error.
  public var diagnostics: [Diagnostic]

  public init(diagnostics: [Diagnostic]) {
    self.diagnostics = diagnostics
  }

  /// Every diagnostic in the compiler's form, one after the other.
  public var description: String {
    diagnostics.map(\.description).joined(separator: "\n")
  }
}
