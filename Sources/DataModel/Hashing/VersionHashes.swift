import Foundation

/// Core Data's version hashes of a model version, byte for byte.
///
/// A store written by Core Data names its model only through these values (`Z_METADATA`'s
/// `NSStoreModelVersionHashes`, `…Digest` and `NSStoreModelVersionChecksumKey`), so matching a
/// store to a version, and writing stores Core Data accepts, needs Core Data's exact recipe. It
/// is described in `docs/version-hashes.md`; in short, everything is SHA-256 of the element's
/// structural parts, with integers little-endian and strings as UTF-8:
///
/// - property base: name, `UInt16` flags (1 optional, 2 transient, 4 read-only), the property's
///   `versionHashModifier`;
/// - attribute: base, `Int32` type code, a `0x01` byte for external binary storage and one for
///   preserve-after-deletion;
/// - relationship: base, destination name, inverse name (unless self-inverse), `Int32` max and
///   min count, `01 00` when ordered;
/// - entity: name, abstract byte, parent's hash, the hashes of all persistent properties
///   (inherited ones too) in name order, `versionHashModifier`, each uniqueness constraint's
///   names joined with `.`, sorted;
/// - digest: base64 SHA-512 over name + hash of each entity in name order; checksum: base64
///   SHA-256 over the entity hashes in name order.
public struct VersionHashes: Sendable, Hashable, Codable {
  /// Each entity's 32-byte hash, by entity name.
  public var entityHashes: [String: Data]
  /// `NSStoreModelVersionHashesDigest`: base64 of the SHA-512 digest.
  public var digest: String
  /// `NSStoreModelVersionChecksumKey` (Core Data 1333 and later) and Xcode's model checksum.
  public var checksum: String

  /// Computes the hashes of a model version.
  public init(_ model: ModelVersion) {
    var hasher = VersionHasher(model: model)
    var hashes: [String: Data] = [:]
    hashes.reserveCapacity(model.entities.count)
    for entity in model.entities {
      hashes[entity.name] = Data(hasher.entityHash(entity.id))
    }
    let ordered = model.entityIDsByName.map { model[$0].name }
    var digest = SHA512()
    var checksum = SHA256()
    for name in ordered {
      guard let hash = hashes[name] else { continue }
      digest.update(name.utf8)
      digest.update(hash)
      checksum.update(hash)
    }
    self.entityHashes = hashes
    self.digest = Data(digest.finalize()).base64EncodedString()
    self.checksum = Data(checksum.finalize()).base64EncodedString()
  }

  /// The entity's hash in lowercase hexadecimal.
  public func hexHash(of entityName: String) -> String? {
    entityHashes[entityName].map { $0.map { String(format: "%02x", $0) }.joined() }
  }
}

extension ModelVersion {
  /// Core Data's version hashes of this version.
  public var versionHashes: VersionHashes { VersionHashes(self) }
}

/// Computes and memoizes entity hashes, parents before children.
struct VersionHasher {
  let model: ModelVersion
  private var memo: [Int: [UInt8]] = [:]
  private var inProgress: Set<Int> = []
  /// Property hashes by entity and position: an inherited property hashes the same in every
  /// sub-entity, so it is computed once.
  private var attributeMemo: [AttributeID: [UInt8]] = [:]
  private var relationshipMemo: [RelationshipID: [UInt8]] = [:]

  init(model: ModelVersion) {
    self.model = model
  }

  mutating func entityHash(_ id: EntityID) -> [UInt8] {
    if let known = memo[id.index] { return known }
    let entity = model[id]
    inProgress.insert(id.index)
    var parentHash: [UInt8]?
    if let parent = entity.parent, !inProgress.contains(parent.index) {
      parentHash = entityHash(parent)
    }
    inProgress.remove(id.index)

    // Own and inherited persistent properties, each name once: the nearest definition wins
    // (an own property overrides an inherited one of the same name), as in allAttributes(of:).
    var propertyHashes: [(name: String, hash: [UInt8])] = []
    var attributeNames: Set<String> = []
    var relationshipNames: Set<String> = []
    for owner in [id] + model.ancestors(of: id) {
      let ownerEntity = model.entities[owner.index]
      for (index, attribute) in ownerEntity.attributes.enumerated() where attributeNames.insert(attribute.name).inserted
      {
        guard !attribute.isTransient else { continue }
        let attributeID = AttributeID(entity: owner, index: index)
        let hash = attributeMemo[attributeID] ?? Self.attributeHash(attribute)
        attributeMemo[attributeID] = hash
        propertyHashes.append((attribute.name, hash))
      }
      for (index, relationship) in ownerEntity.relationships.enumerated()
      where relationshipNames.insert(relationship.name).inserted {
        guard !relationship.isTransient else { continue }
        let relationshipID = RelationshipID(entity: owner, index: index)
        if let hash = relationshipMemo[relationshipID] {
          propertyHashes.append((relationship.name, hash))
          continue
        }
        // An inherited relationship is the parent's own: it hashes the same in every sub-entity.
        let isSelfInverse =
          relationship.inverse.map { $0 == relationshipID }
          ?? (relationship.inverseName == relationship.name
            && (relationship.inverseEntityName ?? relationship.destinationEntityName) == ownerEntity.name)
        let hash = Self.relationshipHash(relationship, isSelfInverse: isSelfInverse)
        relationshipMemo[relationshipID] = hash
        propertyHashes.append((relationship.name, hash))
      }
    }
    propertyHashes.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }

    var hasher = SHA256()
    hasher.update(entity.name.utf8)
    hasher.update(CollectionOfOne(entity.isAbstract ? 1 : 0))
    if let parentHash { hasher.update(parentHash) }
    for property in propertyHashes {
      hasher.update(property.hash)
    }
    if let modifier = entity.versionHashModifier, !modifier.isEmpty {
      hasher.update(modifier.utf8)
    }
    let constraints = entity.uniquenessConstraints.map { $0.properties.joined(separator: ".") }
      .sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    for constraint in constraints {
      hasher.update(constraint.utf8)
    }
    let hash = hasher.finalize()
    memo[id.index] = hash
    return hash
  }

  static func propertyBaseHash(name: String, isOptional: Bool, isTransient: Bool, modifier: String?) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(name.utf8)
    let flags: UInt16 = (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
    hasher.update([UInt8(truncatingIfNeeded: flags), UInt8(truncatingIfNeeded: flags >> 8)])
    if let modifier, !modifier.isEmpty {
      hasher.update(modifier.utf8)
    }
    return hasher.finalize()
  }

  static func attributeHash(_ attribute: AttributeDescription) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(
      propertyBaseHash(
        name: attribute.name, isOptional: attribute.isOptional, isTransient: attribute.isTransient,
        modifier: attribute.versionHashModifier))
    hasher.update(littleEndian(attribute.attributeType.typeCode))
    if attribute.allowsExternalBinaryDataStorage { hasher.update([1]) }
    if attribute.preservesValueInHistoryOnDeletion { hasher.update([1]) }
    return hasher.finalize()
  }

  /// A relationship's hash; a self-inverse relationship (its inverse is itself) feeds no inverse
  /// name.
  static func relationshipHash(_ relationship: RelationshipDescription, isSelfInverse: Bool) -> [UInt8] {
    var hasher = SHA256()
    hasher.update(
      propertyBaseHash(
        name: relationship.name, isOptional: relationship.isOptional, isTransient: relationship.isTransient,
        modifier: relationship.versionHashModifier))
    hasher.update(relationship.destinationEntityName.utf8)
    if let inverseName = relationship.inverseName, !isSelfInverse {
      hasher.update(inverseName.utf8)
    }
    hasher.update(littleEndian(Int32(truncatingIfNeeded: relationship.maxCount)))
    hasher.update(littleEndian(Int32(truncatingIfNeeded: relationship.minCount)))
    if relationship.isOrdered { hasher.update([1, 0]) }
    return hasher.finalize()
  }

  static func littleEndian(_ value: Int32) -> [UInt8] {
    let bits = UInt32(bitPattern: value)
    return [
      UInt8(truncatingIfNeeded: bits), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits >> 16),
      UInt8(truncatingIfNeeded: bits >> 24),
    ]
  }
}
