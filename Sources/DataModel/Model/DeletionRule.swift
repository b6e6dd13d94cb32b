/// What happens to a relationship's destination objects when the source object is deleted.
public enum DeletionRule: String, Sendable, Hashable, Codable, CaseIterable {
  /// Leave the destinations alone; the model must keep the inverse consistent itself.
  case noAction = "No Action"
  /// Remove the deleted object from the destinations' inverse relationship.
  case nullify = "Nullify"
  /// Delete the destinations too.
  case cascade = "Cascade"
  /// Refuse to delete the object while it has destinations.
  case deny = "Deny"

  /// Core Data's `NSDeleteRule` value.
  public var ruleCode: Int {
    switch self {
    case .noAction: 0
    case .nullify: 1
    case .cascade: 2
    case .deny: 3
    }
  }
}
