/// Identifies an entity within one ``ModelVersion``: its position in ``ModelVersion/entities``.
///
/// Resolved references (an entity's parent, a relationship's destination) are stored as IDs so
/// that callers follow them with `model[id]` instead of looking names up.
public struct EntityID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// The index into ``ModelVersion/entities``.
  public var index: Int

  public init(_ index: Int) {
    self.index = index
  }

  public static func < (lhs: EntityID, rhs: EntityID) -> Bool { lhs.index < rhs.index }

  public var description: String { "entity #\(index)" }
}

/// Identifies a relationship within one ``ModelVersion``: its entity and its position in that
/// entity's own ``EntityDescription/relationships``.
public struct RelationshipID: Sendable, Hashable, Codable {
  public var entity: EntityID
  public var index: Int

  public init(entity: EntityID, index: Int) {
    self.entity = entity
    self.index = index
  }
}

/// Identifies an attribute within one ``ModelVersion``: its entity and its position in that
/// entity's own ``EntityDescription/attributes``.
public struct AttributeID: Sendable, Hashable, Codable {
  public var entity: EntityID
  public var index: Int

  public init(entity: EntityID, index: Int) {
    self.entity = entity
    self.index = index
  }
}
