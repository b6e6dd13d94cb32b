/// One uniqueness constraint of an entity (`<uniquenessConstraint>`): no two objects may share
/// the values of all these properties at once.
public struct UniquenessConstraint: Sendable, Hashable, Codable {
  /// The constrained property names; several make a compound key.
  public var properties: [String]
  /// Where the constraint is written.
  public var location: SourceLocation?

  public init(properties: [String], location: SourceLocation? = nil) {
    self.properties = properties
    self.location = location
  }
}

/// A legacy compound index (`<compoundIndex>`, before fetch indexes existed).
public struct CompoundIndex: Sendable, Hashable, Codable {
  /// The indexed property names, in order.
  public var properties: [String]
  /// Where the index is written.
  public var location: SourceLocation?

  public init(properties: [String], location: SourceLocation? = nil) {
    self.properties = properties
    self.location = location
  }
}
