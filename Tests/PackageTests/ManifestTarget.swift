/// A target as `Package.swift` declares it, read by ``ManifestReader``.
struct ManifestTarget: Hashable, Sendable {
  /// How the target is declared.
  enum Kind: String, Hashable, Sendable {
    case target, executableTarget, testTarget, systemLibrary
  }

  /// The target's name (`modelc-bench`).
  var name: String
  /// How it is declared.
  var kind: Kind
  /// Its `dependencies:` by name, in order.
  var dependencies: [String]
  /// Dependencies written as something other than a plain name (`.product(…)`), verbatim:
  /// the layering check reads names only, so it reports these instead of guessing.
  var unreadDependencies: [String]
  /// Its source folder relative to the package root: `path:` when given, else `Sources/<name>`
  /// (`Tests/<name>` for a test target).
  var path: String

  /// The name code imports it by (`modelc_bench` for `modelc-bench`).
  var moduleName: String { name.replacingOccurrences(of: "-", with: "_") }
}
