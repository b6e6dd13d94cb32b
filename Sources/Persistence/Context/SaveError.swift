/// Why a save failed. A failed save changes nothing in the store and leaves the context's
/// changes in place, to be fixed and saved again (or rolled back).
public enum SaveError: Error, Sendable, CustomStringConvertible {
  /// Objects break rules of the model; every failure is listed.
  case validation([ValidationFailure])
  /// Rows changed or deleted by someone else since they were read (with ``MergePolicy/error``).
  case conflicts([SaveConflict])
  /// The store refused the write.
  case store(String)

  public var description: String {
    switch self {
    case .validation(let failures):
      return
        (["the save failed validation (\(failures.count) problem\(failures.count == 1 ? "" : "s")):"]
        + failures.map { "  \($0)" }).joined(separator: "\n")
    case .conflicts(let conflicts):
      return
        (["the save conflicts with changes made elsewhere since the objects were read:"]
        + conflicts.map { "  \($0)" }).joined(separator: "\n")
    case .store(let message):
      return "the store refused the save: \(message)"
    }
  }

  /// The validation failures, if that is why the save failed.
  public var validationFailures: [ValidationFailure] {
    if case .validation(let failures) = self { return failures }
    return []
  }
}

/// A row that someone else changed or deleted since this context read it.
public struct SaveConflict: Sendable, Hashable, CustomStringConvertible {
  /// The object.
  public var objectID: ObjectID
  /// The entity's name.
  public var entity: String
  /// The version this context read (`Z_OPT`).
  public var expectedVersion: Int64
  /// The version in the store now; nil when the row was deleted.
  public var storeVersion: Int64?

  public var description: String {
    storeVersion == nil
      ? "\(entity) \(objectID): deleted by someone else"
      : "\(entity) \(objectID): changed by someone else (version \(expectedVersion) → \(storeVersion!))"
  }
}

/// One broken rule of the model.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
  /// The rule.
  public enum Rule: String, Sendable, Hashable {
    case required, minimumValue, maximumValue, minimumLength, maximumLength, regularExpression
    case minimumCount, maximumCount, uniqueness, deleteDenied, typeMismatch
    /// A value the store cannot keep: NaN, which SQLite stores as NULL.
    case unstorableValue
  }

  /// The rule broken.
  public var rule: Rule
  /// The entity.
  public var entity: String
  /// The property (for uniqueness, the constrained properties joined with ", ").
  public var property: String
  /// The object.
  public var objectID: ObjectID
  /// The offending value, as text (nil when the value is missing).
  public var value: String?
  /// What is wrong.
  public var message: String

  public var description: String {
    "\(entity).\(property) of \(objectID): \(message)\(value.map { " (value: \($0))" } ?? "")"
  }
}
