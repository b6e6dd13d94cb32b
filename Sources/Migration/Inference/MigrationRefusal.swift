import DataModel
import Persistence

/// A change between two versions that lightweight migration cannot carry out.
public struct MigrationRefusal: Sendable, Hashable, CustomStringConvertible {
  /// The entity concerned.
  public var entity: String
  /// The property concerned, if any.
  public var property: String?
  /// The change, as the diff describes it.
  public var change: String
  /// Why it cannot be inferred.
  public var reason: String

  public init(entity: String, property: String?, change: String, reason: String) {
    self.entity = entity
    self.property = property
    self.change = change
    self.reason = reason
  }

  public var description: String {
    "\(entity)\(property.map { ".\($0)" } ?? ""): \(change): \(reason)"
  }
}

/// Lightweight migration between two versions is impossible; a mapping model is needed.
public struct InferenceError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The source version.
  public var sourceVersion: String
  /// The destination version.
  public var destinationVersion: String
  /// Every change that cannot be inferred.
  public var refusals: [MigrationRefusal]

  public init(sourceVersion: String, destinationVersion: String, refusals: [MigrationRefusal]) {
    self.sourceVersion = sourceVersion
    self.destinationVersion = destinationVersion
    self.refusals = refusals
  }

  public var description: String {
    var lines = [
      "cannot infer a migration from '\(sourceVersion)' to '\(destinationVersion)': \(refusals.count) change\(refusals.count == 1 ? "" : "s") need\(refusals.count == 1 ? "s" : "") a mapping model"
    ]
    for refusal in refusals {
      lines.append("  \(refusal)")
    }
    lines.append(
      "note: write a mapping model for this step in Migrations/ (see docs/migrations.md), or split the change into versions that lightweight migration can infer"
    )
    return lines.joined(separator: "\n")
  }
}
