/// How objects of one entity hold their values: one slot per attribute and per relationship,
/// inherited ones included, with everything the context needs to keep relationships and their
/// inverses in step.
///
/// Built once per container for every entity, shared by all objects of the entity.
public final class ObjectLayout: Sendable {
  /// One relationship slot.
  public struct RelationshipSlot: Sendable {
    /// The relationship's description.
    public let relationship: RelationshipDescription
    /// The destination entity.
    public let destination: EntityID
    /// The inverse relationship's name, when there is one; objects at the other end find it
    /// in their own layout by this name (they may be of a sub-entity of the destination).
    public let inverseName: String?
    /// Whether the inverse is to-many.
    public let inverseIsToMany: Bool
  }

  /// The entity.
  public let entity: EntityID
  /// The entity's description.
  public let description: EntityDescription
  /// Every attribute, inherited ones first, then the leaves of composite attributes named by
  /// key path (`address.street`): a composite attribute's own slot holds no value, its leaves
  /// hold them (see ``compositeMemberSlots``).
  public let attributes: [AttributeDescription]
  /// How many slots the entity's own and inherited attributes take; composite leaves follow.
  public let declaredAttributeCount: Int
  /// The leaf slots of each composite attribute and each composite nested in one, by key path
  /// (`address`, `address.location`), in declaration order.
  public let compositeMemberSlots: [String: [Int]]
  /// Every relationship, inherited ones first.
  public let relationships: [RelationshipSlot]
  /// Attribute slots by name.
  public let attributeSlots: [String: Int]
  /// Relationship slots by name.
  public let relationshipSlots: [String: Int]
  /// Slots of the attributes stored in the store (not transient; composite leaves rather than
  /// composite attributes).
  public let persistentAttributeSlots: [Int]
  /// Each attribute's type, by slot (cheap to read where the description is not needed).
  let attributeTypes: [AttributeType]
  /// How a row of the entity's attribute values is laid out: each slot sized for its type.
  let attributeRowShape: AttributeRowShape
  /// Each attribute's name, by slot: what generated accessors check their slot against on
  /// every read, without reaching into the attribute's description.
  @usableFromInline let attributeNames: [String]
  /// Each relationship's name, by slot.
  @usableFromInline let relationshipNames: [String]
  /// The rules the validator checks, in a form cheap to read for every object of a save.
  let validationRules: ValidationRules
  /// The relationships whose deletion rule acts when an object is deleted (Cascade and
  /// Nullify; Deny is checked at save, No Action does nothing), as plain values: deleting many
  /// objects reads these instead of copying each relationship's description.
  let deletionSteps: [(slot: Int, rule: DeletionRule, isToMany: Bool)]
  /// The attribute and relationship slots that the uniqueness constraints of the entity and
  /// its ancestors name, each once: a save asks every updated object whether it moved one of
  /// these values while it classifies the object, so that the checks and the store's
  /// constrained columns concern only the objects that did.
  let constrainedSlots: (attributes: [Int], relationships: [Int])
  /// The values of a new object: each attribute's default.
  let defaultAttributeValues: AttributeValues
  /// The to-many state new objects share until their first change: empty values in to-many
  /// slots, nil in to-one ones, nothing committed; nil when the entity has no to-many
  /// relationship.
  let insertedToManyState: ToManyState?
  /// The shared state of new objects once saved unchanged: the same values, committed.
  let savedInsertedToManyState: ToManyState?
  /// Nil in every attribute slot; objects start from these shared values and copy them on
  /// first write.
  let emptyAttributeValues: AttributeValues
  /// `emptyAttributeValues` as the committed values of a new object, one box for them all.
  let insertedCommittedValues: CommittedValues

  init(entity: EntityID, model: ModelVersion) {
    self.entity = entity
    self.description = model[entity]
    var attributes = model.allAttributes(of: entity)
    self.declaredAttributeCount = attributes.count
    var compositeMemberSlots: [String: [Int]] = [:]
    for attribute in attributes where attribute.attributeType == .composite {
      for leaf in CompositeMembers.leaves(of: attribute, in: model) {
        let components = leaf.name.split(separator: ".")
        for length in 1..<components.count {
          compositeMemberSlots[components[0..<length].joined(separator: "."), default: []].append(attributes.count)
        }
        attributes.append(leaf)
      }
    }
    self.attributes = attributes
    self.compositeMemberSlots = compositeMemberSlots
    let relationships = model.allRelationships(of: entity).map { item in
      RelationshipSlot(
        relationship: item.relationship, destination: item.relationship.destination ?? entity,
        inverseName: item.relationship.inverse.map { model[$0].name },
        inverseIsToMany: item.relationship.inverse.map { model[$0].isToMany } ?? false)
    }
    self.relationships = relationships
    var attributeSlots: [String: Int] = [:]
    for (slot, attribute) in attributes.enumerated() { attributeSlots[attribute.name] = slot }
    var relationshipSlots: [String: Int] = [:]
    for (slot, item) in relationships.enumerated() { relationshipSlots[item.relationship.name] = slot }
    self.attributeSlots = attributeSlots
    self.relationshipSlots = relationshipSlots
    self.persistentAttributeSlots = attributes.indices.filter {
      attributes[$0].isPersistent && attributes[$0].attributeType != .composite
    }
    self.attributeTypes = attributes.map(\.attributeType)
    self.attributeRowShape = AttributeRowShape(types: attributeTypes)
    self.attributeNames = attributes.map(\.name)
    self.relationshipNames = relationships.map(\.relationship.name)
    self.validationRules = ValidationRules(attributes: attributes, relationships: relationships)
    self.deletionSteps = relationships.indices.compactMap { slot in
      let relationship = relationships[slot].relationship
      switch relationship.deletionRule {
      case .cascade, .nullify: return (slot, relationship.deletionRule, relationship.isToMany)
      case .deny, .noAction: return nil
      }
    }
    var constrainedAttributes: [Int] = []
    var constrainedRelationships: [Int] = []
    for owner in [entity] + model.ancestors(of: entity) {
      for name in model[owner].uniquenessConstraints.flatMap(\.properties) {
        if let slot = attributeSlots[name] {
          if !constrainedAttributes.contains(slot) { constrainedAttributes.append(slot) }
        } else if let slot = relationshipSlots[name], !constrainedRelationships.contains(slot) {
          constrainedRelationships.append(slot)
        }
      }
    }
    self.constrainedSlots = (constrainedAttributes, constrainedRelationships)
    self.defaultAttributeValues = AttributeValues(attributes.map(\.defaultValue), shape: attributeRowShape)
    self.insertedToManyState = ToManyState.inserted(isToMany: relationships.map(\.relationship.isToMany))
    self.savedInsertedToManyState = insertedToManyState?.savedCounterpart()
    self.emptyAttributeValues = AttributeValues(shape: attributeRowShape)
    self.insertedCommittedValues = CommittedValues(emptyAttributeValues)
  }

  /// The entity's name.
  public var name: String { description.name }
}

/// The layouts of every entity of a model version.
public final class ObjectLayouts: Sendable {
  /// The model version.
  public let model: ModelVersion
  /// One layout per entity, indexed by `EntityID.index`.
  public let layouts: [ObjectLayout]

  public init(model: ModelVersion) {
    self.model = model
    self.layouts = model.entities.indices.map { ObjectLayout(entity: EntityID($0), model: model) }
  }

  /// The layout of an entity.
  public subscript(entity: EntityID) -> ObjectLayout { layouts[entity.index] }

  /// The layout of the entity with this name.
  public func layout(named name: String) -> ObjectLayout? {
    model.entityID(named: name).map { layouts[$0.index] }
  }
}
