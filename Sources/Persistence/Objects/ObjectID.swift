/// The identity of an object: its entity and its primary key in the store (`Z_PK`), or a
/// temporary number until its first save.
///
/// Object IDs are values (`Sendable`), so they can cross from one context or task to another
/// where objects cannot: fetch an object in a background context, pass its ID, and look it up
/// in the main context.
public struct ObjectID: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The object's entity.
  public let entity: EntityID
  /// The store's primary key (`Z_PK`) when permanent, or a negative temporary number.
  let key: Int64

  /// The ID of the stored object of `entity` whose primary key (`Z_PK`) is `primaryKey`: for
  /// code that reads keys from the store's tables itself, such as a migration's association
  /// of source and destination objects.
  public init(entity: EntityID, primaryKey: Int64) {
    self.entity = entity
    self.key = primaryKey
  }

  init(entity: EntityID, temporary number: Int64) {
    self.entity = entity
    self.key = -number
  }

  /// Whether the object has not been saved yet; its ID changes when it is.
  public var isTemporary: Bool { key < 0 }

  /// The primary key in the store (`Z_PK`), nil while temporary.
  public var primaryKey: Int64? { key > 0 ? key : nil }

  /// One word fed to the hasher, not two: IDs are hashed for every object a context registers.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: entity.index))
  }

  public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
    lhs.entity.index != rhs.entity.index ? lhs.entity.index < rhs.entity.index : lhs.key < rhs.key
  }

  public var description: String {
    isTemporary ? "\(entity)/t\(-key)" : "\(entity)/p\(key)"
  }
}
