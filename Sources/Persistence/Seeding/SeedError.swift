/// A model the seeder cannot fill, or a seed that failed to save.
public struct SeedError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The entity concerned, if any.
  public var entity: String?
  /// The attribute or relationship concerned, if any.
  public var property: String?
  /// What cannot be done, and why.
  public var message: String

  /// An error about an entity and property, when known.
  public init(entity: String? = nil, property: String? = nil, message: String) {
    self.entity = entity
    self.property = property
    self.message = message
  }

  /// `Entity.property: message`.
  public var description: String {
    switch (entity, property) {
    case (let entity?, let property?): "\(entity).\(property): \(message)"
    case (let entity?, nil): "\(entity): \(message)"
    default: message
    }
  }
}
