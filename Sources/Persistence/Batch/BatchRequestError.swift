/// Why a batch request was refused. A refused request changes nothing in the store.
public enum BatchRequestError: Error, Sendable, CustomStringConvertible {
  /// Values break rules of the model (type, required, range, length, pattern, uniqueness).
  case validation([ValidationFailure])
  /// A Deny deletion rule: the objects to delete still have destinations.
  case deleteDenied(entity: String, relationship: String, count: Int)
  /// The request asks for something batch requests do not do.
  case unsupported(String)

  public var description: String {
    switch self {
    case .validation(let failures):
      return
        (["the batch request failed validation (\(failures.count) problem\(failures.count == 1 ? "" : "s")):"]
        + failures.map { "  \($0)" }).joined(separator: "\n")
    case .deleteDenied(let entity, let relationship, let count):
      return
        "cannot delete: \(count) \(entity) object\(count == 1 ? "" : "s") still hold\(count == 1 ? "s" : "") objects in '\(relationship)' (Deny rule)"
    case .unsupported(let message):
      return message
    }
  }
}
